import type { Context } from "hono";
import {
  bucketListQuery,
  bucketRules,
  expiresIn,
  listQuery,
  listV2Query,
  moveArgs,
  newBucket,
  prefixes,
  signPaths,
  signTransform,
} from "./bodies.ts";
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from "./buckets.ts";
import { ownerOf, type StorageEnv } from "./env.ts";
import { listObjects, listObjectsV2 } from "./list.ts";
import { download, downloadPublic, downloadSigned, objectInfo } from "./objects-read.ts";
import { copyObject, moveObject, removeObject, removeObjects, uploadObject } from "./objects-write.ts";
import { renderAuthenticated, renderPublic, renderSigned } from "./render.ts";
import {
  bucketParam,
  jsonBody,
  objectParam,
  optionalCaller,
  renderRequest,
  requestLine,
  requireCaller,
  serveOptions,
  signedRenderRequest,
  tokenQuery,
  uploadBody,
  upsertHeader,
} from "./request.ts";
import { signUploadUrl, signUrl, signUrls, verifyUploadToken } from "./signing.ts";

/**
 * The Storage API's endpoints, one line each, in the order they are tried
 * (as supabase/storage registers them under /bucket, /object and
 * /render/image). Paths are
 * matched on the raw, still encoded path after `/storage/v1`, so a key is
 * decoded once, by the handler's parser. Each handler reads the request into
 * typed values (request.ts, bodies.ts) and hands only those on.
 */
type Handler = (env: StorageEnv, c: Context, path: string[]) => Promise<Response>;
interface Route {
  methods: string[];
  path: RegExp;
  handle: Handler;
}

const GET = ["GET"];
const READ = ["GET", "HEAD"];

const json = (c: Context, value: unknown) => c.json(value as object, 200);

export const ROUTES: Route[] = [
  // buckets
  { methods: GET, path: /^\/bucket\/?$/, handle: getAllBuckets },
  { methods: ["POST"], path: /^\/bucket\/?$/, handle: postBucket },
  { methods: ["POST"], path: /^\/bucket\/([^/]+)\/empty\/?$/, handle: postEmptyBucket },
  { methods: GET, path: /^\/bucket\/([^/]+)\/?$/, handle: getOneBucket },
  { methods: ["PUT"], path: /^\/bucket\/([^/]+)\/?$/, handle: putBucket },
  { methods: ["DELETE"], path: /^\/bucket\/([^/]+)\/?$/, handle: deleteOneBucket },
  // objects: operations named by the path
  { methods: ["POST"], path: /^\/object\/move\/?$/, handle: postMove },
  { methods: ["POST"], path: /^\/object\/copy\/?$/, handle: postCopy },
  { methods: ["POST"], path: /^\/object\/list\/([^/]+)\/?$/, handle: postList },
  { methods: ["POST"], path: /^\/object\/list-v2\/([^/]+)\/?$/, handle: postListV2 },
  { methods: ["POST"], path: /^\/object\/upload\/sign\/(.+)$/, handle: postSignedUploadUrl },
  { methods: ["PUT"], path: /^\/object\/upload\/sign\/(.+)$/, handle: putSignedUpload },
  { methods: ["POST"], path: /^\/object\/sign\/([^/]+)\/?$/, handle: postSignedUrls },
  { methods: ["POST"], path: /^\/object\/sign\/([^/]+\/.+)$/, handle: postSignedUrl },
  { methods: READ, path: /^\/object\/sign\/(.+)$/, handle: getSignedObject },
  { methods: READ, path: /^\/object\/public\/(.+)$/, handle: getPublicObject },
  { methods: GET, path: /^\/object\/info\/public\/(.+)$/, handle: getPublicInfo },
  { methods: GET, path: /^\/object\/info\/authenticated\/(.+)$/, handle: getAuthenticatedInfo },
  { methods: GET, path: /^\/object\/info\/(.+)$/, handle: getInfo },
  { methods: READ, path: /^\/object\/authenticated\/(.+)$/, handle: getAuthenticatedObject },
  { methods: ["DELETE"], path: /^\/object\/([^/]+)\/?$/, handle: deleteObjects },
  // objects: /object/<bucket>/<key>
  { methods: READ, path: /^\/object\/(.+)$/, handle: getObject },
  { methods: ["POST"], path: /^\/object\/(.+)$/, handle: postObject },
  { methods: ["PUT"], path: /^\/object\/(.+)$/, handle: putObject },
  { methods: ["DELETE"], path: /^\/object\/(.+)$/, handle: deleteObject },
  // image transformation: /render/image/<public|authenticated|sign>/<bucket>/<key>
  { methods: READ, path: /^\/render\/image\/public\/(.+)$/, handle: getPublicImage },
  { methods: READ, path: /^\/render\/image\/authenticated\/(.+)$/, handle: getAuthenticatedImage },
  { methods: READ, path: /^\/render\/image\/sign\/(.+)$/, handle: getSignedImage },
];

async function getAllBuckets(env: StorageEnv, c: Context) {
  return json(c, await listBuckets(env, await requireCaller(env, c), bucketListQuery(c.req.query())));
}

async function postBucket(env: StorageEnv, c: Context) {
  const caller = await requireCaller(env, c);
  return json(c, await createBucket(env, caller, newBucket(await jsonBody(c))));
}

async function postEmptyBucket(env: StorageEnv, c: Context, [id]: string[]) {
  return json(c, await emptyBucket(env, await requireCaller(env, c), bucketParam(id)));
}

async function getOneBucket(env: StorageEnv, c: Context, [id]: string[]) {
  return json(c, await getBucket(env, await requireCaller(env, c), bucketParam(id)));
}

async function putBucket(env: StorageEnv, c: Context, [id]: string[]) {
  const caller = await requireCaller(env, c);
  return json(c, await updateBucket(env, caller, bucketParam(id), bucketRules(await jsonBody(c))));
}

async function deleteOneBucket(env: StorageEnv, c: Context, [id]: string[]) {
  return json(c, await deleteBucket(env, await requireCaller(env, c), bucketParam(id)));
}

async function postMove(env: StorageEnv, c: Context) {
  const caller = await requireCaller(env, c);
  const { from, to } = moveArgs(await jsonBody(c));
  return json(c, await moveObject(env, caller, from, to));
}

async function postCopy(env: StorageEnv, c: Context) {
  const caller = await requireCaller(env, c);
  const { from, to } = moveArgs(await jsonBody(c));
  return json(c, await copyObject(env, caller, from, to, upsertHeader(c)));
}

async function postList(env: StorageEnv, c: Context, [bucket]: string[]) {
  const caller = await requireCaller(env, c);
  return json(c, await listObjects(env, caller, bucketParam(bucket), listQuery(await jsonBody(c))));
}

async function postListV2(env: StorageEnv, c: Context, [bucket]: string[]) {
  const caller = await requireCaller(env, c);
  return json(c, await listObjectsV2(env, caller, bucketParam(bucket), listV2Query(await jsonBody(c))));
}

async function postSignedUploadUrl(env: StorageEnv, c: Context, [rest]: string[]) {
  const caller = await requireCaller(env, c);
  return json(c, await signUploadUrl(env, caller, objectParam(rest), upsertHeader(c)));
}

async function putSignedUpload(env: StorageEnv, c: Context, [rest]: string[]) {
  const target = objectParam(rest);
  const token = await verifyUploadToken(env, tokenQuery(c), target);
  const maker = { ...token.maker, ...requestLine(c) };
  return json(c, await uploadObject(env, maker, target, uploadBody(c), { upsert: token.upsert, owner: token.owner }));
}

async function postSignedUrls(env: StorageEnv, c: Context, [bucket]: string[]) {
  const caller = await requireCaller(env, c);
  const body = await jsonBody(c);
  return json(c, await signUrls(env, caller, bucketParam(bucket), signPaths(body), expiresIn(body.expiresIn)));
}

async function postSignedUrl(env: StorageEnv, c: Context, [rest]: string[]) {
  const caller = await requireCaller(env, c);
  const target = objectParam(rest);
  const body = await jsonBody(c);
  return json(c, await signUrl(env, caller, target, expiresIn(body.expiresIn), signTransform(body)));
}

async function getSignedObject(env: StorageEnv, c: Context, [rest]: string[]) {
  return downloadSigned(env, tokenQuery(c), objectParam(rest), serveOptions(c));
}

async function getPublicObject(env: StorageEnv, c: Context, [rest]: string[]) {
  return downloadPublic(env, objectParam(rest), serveOptions(c));
}

async function getPublicInfo(env: StorageEnv, c: Context, [rest]: string[]) {
  return json(c, await objectInfo(env, null, objectParam(rest)));
}

async function getAuthenticatedInfo(env: StorageEnv, c: Context, [rest]: string[]) {
  return json(c, await objectInfo(env, await requireCaller(env, c), objectParam(rest)));
}

async function getInfo(env: StorageEnv, c: Context, [rest]: string[]) {
  return json(c, await objectInfo(env, await optionalCaller(env, c), objectParam(rest)));
}

async function getAuthenticatedObject(env: StorageEnv, c: Context, [rest]: string[]) {
  return download(env, await requireCaller(env, c), objectParam(rest), serveOptions(c));
}

async function deleteObjects(env: StorageEnv, c: Context, [bucket]: string[]) {
  const caller = await requireCaller(env, c);
  return json(c, await removeObjects(env, caller, bucketParam(bucket), prefixes(await jsonBody(c))));
}

async function getObject(env: StorageEnv, c: Context, [rest]: string[]) {
  return download(env, await optionalCaller(env, c), objectParam(rest), serveOptions(c));
}

async function postObject(env: StorageEnv, c: Context, [rest]: string[]) {
  const caller = await requireCaller(env, c);
  const upsert = upsertHeader(c);
  return json(
    c,
    await uploadObject(env, caller, objectParam(rest), uploadBody(c), { upsert, owner: ownerOf(caller.claims) }),
  );
}

async function putObject(env: StorageEnv, c: Context, [rest]: string[]) {
  const caller = await requireCaller(env, c);
  return json(
    c,
    await uploadObject(env, caller, objectParam(rest), uploadBody(c), { upsert: true, owner: ownerOf(caller.claims) }),
  );
}

async function deleteObject(env: StorageEnv, c: Context, [rest]: string[]) {
  return json(c, await removeObject(env, await requireCaller(env, c), objectParam(rest)));
}

async function getPublicImage(env: StorageEnv, c: Context, [rest]: string[]) {
  return renderPublic(env, objectParam(rest), renderRequest(c));
}

async function getAuthenticatedImage(env: StorageEnv, c: Context, [rest]: string[]) {
  return renderAuthenticated(env, await requireCaller(env, c), objectParam(rest), renderRequest(c));
}

async function getSignedImage(env: StorageEnv, c: Context, [rest]: string[]) {
  return renderSigned(env, tokenQuery(c), objectParam(rest), signedRenderRequest(c));
}
