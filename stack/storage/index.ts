import { Hono, type Context } from "hono";
import type { ServiceContext, StackService } from "../context.ts";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from "./buckets.ts";
import type { Caller, StorageEnv } from "./env.ts";
import { StorageError, storageErrors } from "./errors.ts";
import { FileStore } from "./files.ts";
import { decodePathPart, splitBucketAndKey } from "./names.ts";
import {
  downloadAsCaller,
  downloadPublic,
  downloadSigned,
  listObjects,
  objectInfo,
  signUploadUrl,
  signUrl,
  signUrls,
  verifyUploadToken,
} from "./objects-read.ts";
import { copyObject, moveObject, removeObjects, uploadObject } from "./objects-write.ts";

/**
 * Supabase Storage-compatible service, mounted at /storage/v1: the routes
 * storage-js calls. Paths are matched here by hand on the raw (still encoded)
 * path, so object keys are decoded once and checked before use.
 */
export function createStorageService(ctx: ServiceContext): StackService & { store: FileStore } {
  const store = FileStore.open(ctx.config.dataDir);
  store.sweepTemp();
  const env: StorageEnv = { ctx, store };
  const app = new Hono();

  app.all("*", async (c) => {
    try {
      return await route(env, c);
    } catch (error) {
      if (error instanceof StorageError) return c.json(error.body(), error.httpStatus as 400);
      // the client went away mid-upload: nothing was stored (the temporary file is gone), no one to answer
      if ((error as Error)?.message === "aborted")
        return c.json(storageErrors.invalidRequest("The upload was interrupted").body(), 400);
      console.error("[storage] unexpected error:", error);
      return c.json(storageErrors.internal().body(), 500);
    }
  });
  // an upload may carry a multipart envelope around a file of the largest size
  const maxBodyBytes = ctx.config.storage.fileSizeLimit + 1024 * 1024;
  return {
    name: "storage",
    http: { mount: "/storage/v1", app, access: "api", maxBodyBytes },
    store,
    close: () => store.close(),
  };
}

async function callerOf(env: StorageEnv, c: Context): Promise<Caller> {
  const who = await resolveIdentity(c, env.ctx.keys);
  if (isIdentityError(who)) {
    if (who.reason === "role") throw storageErrors.accessDenied("Access denied: Invalid role", 403);
    throw storageErrors.invalidJwt(who.reason === "expired" ? "jwt expired" : "invalid signature");
  }
  return { role: who.role, claims: who.claims, request: c.req.raw };
}

/** An anonymous caller for the routes that need no token (public and signed). */
function bareCaller(c: Context): Caller {
  return { role: "anon", claims: { role: "anon" }, request: c.req.raw };
}

function notFound(): never {
  throw new StorageError(404, "InvalidRequest", "Route not found", "Not Found", 404);
}

async function route(env: StorageEnv, c: Context): Promise<Response> {
  const method = c.req.method;
  const read = method === "GET" || method === "HEAD";
  const path = new URL(c.req.url).pathname.replace(/^.*?\/storage\/v1/, "");
  const json = (value: unknown) => c.json(value as object, 200);

  let m: RegExpExecArray | null;
  if ((m = /^\/bucket\/?$/.exec(path))) {
    if (method === "GET") return json(await listBuckets(env, await callerOf(env, c)));
    if (method === "POST") return json(await createBucket(env, await callerOf(env, c)));
    notFound();
  }
  if ((m = /^\/bucket\/([^/]+)\/empty\/?$/.exec(path)) && method === "POST") {
    return json(await emptyBucket(env, await callerOf(env, c), decodePathPart(m[1])));
  }
  if ((m = /^\/bucket\/([^/]+)\/?$/.exec(path))) {
    const id = decodePathPart(m[1]);
    if (method === "GET") return json(await getBucket(env, await callerOf(env, c), id));
    if (method === "PUT") return json(await updateBucket(env, await callerOf(env, c), id));
    if (method === "DELETE") return json(await deleteBucket(env, await callerOf(env, c), id));
    notFound();
  }
  if (!path.startsWith("/object/")) notFound();
  const rest = path.slice("/object/".length);

  if (rest === "move" && method === "POST") return json(await moveObject(env, await callerOf(env, c)));
  if (rest === "copy" && method === "POST") return json(await copyObject(env, await callerOf(env, c)));
  if ((m = /^list\/([^/]+)\/?$/.exec(rest)) && method === "POST") {
    return json(await listObjects(env, await callerOf(env, c), decodePathPart(m[1])));
  }
  if (rest.startsWith("upload/sign/")) {
    const { bucket, key } = splitBucketAndKey(rest.slice("upload/sign/".length));
    if (method === "POST") return json(await signUploadUrl(env, await callerOf(env, c), bucket, key));
    if (method === "PUT") {
      const caller = bareCaller(c);
      const token = await verifyUploadToken(env, caller, bucket, key);
      return json(
        await uploadObject(env, caller, bucket, key, { upsert: token.upsert, owner: token.owner, asStack: true }),
      );
    }
    notFound();
  }
  if ((m = /^sign\/([^/]+)\/?$/.exec(rest)) && method === "POST") {
    return json(await signUrls(env, await callerOf(env, c), decodePathPart(m[1])));
  }
  if (rest.startsWith("sign/")) {
    const { bucket, key } = splitBucketAndKey(rest.slice("sign/".length));
    if (method === "POST") return json(await signUrl(env, await callerOf(env, c), bucket, key));
    if (read) return downloadSigned(env, bareCaller(c), bucket, key);
    notFound();
  }
  if (rest.startsWith("public/") && read) {
    const { bucket, key } = splitBucketAndKey(rest.slice("public/".length));
    return downloadPublic(env, bareCaller(c), bucket, key);
  }
  if (rest.startsWith("info/") && method === "GET") {
    const { bucket, key } = splitBucketAndKey(rest.slice("info/".length).replace(/^(authenticated|public)\//, ""));
    return json(await objectInfo(env, await callerOf(env, c), bucket, key));
  }
  if (rest.startsWith("authenticated/") && read) {
    const { bucket, key } = splitBucketAndKey(rest.slice("authenticated/".length));
    return downloadAsCaller(env, await callerOf(env, c), bucket, key);
  }
  if ((m = /^([^/]+)\/?$/.exec(rest)) && method === "DELETE") {
    return json(await removeObjects(env, await callerOf(env, c), decodePathPart(m[1])));
  }
  const { bucket, key } = splitBucketAndKey(rest);
  const caller = await callerOf(env, c);
  if (read) return downloadAsCaller(env, caller, bucket, key);
  if (method === "POST") {
    return json(await uploadObject(env, caller, bucket, key, { upsert: c.req.header("x-upsert") === "true" }));
  }
  if (method === "PUT") return json(await uploadObject(env, caller, bucket, key, { upsert: true }));
  if (method === "DELETE") {
    const removed = await removeSingle(env, caller, bucket, key);
    return json(removed);
  }
  notFound();
}

async function removeSingle(env: StorageEnv, caller: Caller, bucket: string, key: string) {
  const request = new Request(caller.request.url, { method: "DELETE", body: JSON.stringify({ prefixes: [key] }) });
  const removed = await removeObjects(env, { ...caller, request }, bucket);
  if (removed.length === 0) throw storageErrors.noSuchKey();
  return { message: "Successfully deleted" };
}
