import type { Queryable } from "../db/types.ts";
import { asCaller, findBucket, findObject, jsonBody, ownerOf, type Caller, type StorageEnv } from "./env.ts";
import { StorageError, storageErrors } from "./errors.ts";
import { mustBeValidBucketName, mustBeValidKey } from "./names.ts";
import { canUpload } from "./objects-write.ts";
import { serveObject, type ObjectRow } from "./serve-file.ts";

/**
 * Reading objects: downloads (as the caller, public, or by signed URL), info,
 * list, and signing URLs. Signed URLs are JWTs signed with the stack's key:
 * `{url: "<bucket>/<name>"}` for downloads, `{url, owner, upsert}` for uploads.
 */
const UPLOAD_URL_SECONDS = 7200;

function download(caller: Caller): string | null {
  return new URL(caller.request.url).searchParams.get("download");
}

export async function downloadAsCaller(
  env: StorageEnv,
  caller: Caller,
  bucket: string,
  key: string,
): Promise<Response> {
  mustBeValidBucketName(bucket);
  const name = mustBeValidKey(key);
  const row = await asCaller(env, caller, (tx) => findObject(tx, bucket, name));
  return serveObject(caller.request, env.store, row, { download: download(caller) });
}

export async function downloadPublic(env: StorageEnv, caller: Caller, bucket: string, key: string): Promise<Response> {
  mustBeValidBucketName(bucket);
  const name = mustBeValidKey(key);
  const found = await findBucket(env, bucket).catch(() => null);
  if (!found || !found.public) throw storageErrors.noSuchBucket();
  const row = await findObject(env.ctx.db, bucket, name);
  return serveObject(caller.request, env.store, row, { download: download(caller) });
}

async function verifyToken(env: StorageEnv, token: string | null): Promise<Record<string, unknown>> {
  if (!token)
    throw new StorageError(400, "InvalidRequest", "querystring must have required property 'token'", "Bad Request");
  try {
    return await env.ctx.keys.verify(token);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw storageErrors.invalidJwt(code === "ERR_JWT_EXPIRED" ? "jwt expired" : "invalid signature");
  }
}

export async function downloadSigned(env: StorageEnv, caller: Caller, bucket: string, key: string): Promise<Response> {
  const payload = await verifyToken(env, new URL(caller.request.url).searchParams.get("token"));
  if (typeof payload.url !== "string" || "upsert" in payload || "role" in payload) {
    throw storageErrors.invalidSignature("Token is not scoped for download");
  }
  if (payload.url !== `${bucket}/${key}`) throw storageErrors.invalidSignature();
  const row = await findObject(env.ctx.db, bucket, key);
  const expires = typeof payload.exp === "number" ? new Date(payload.exp * 1000).toUTCString() : undefined;
  return serveObject(caller.request, env.store, row, { download: download(caller), expires });
}

export async function verifyUploadToken(env: StorageEnv, caller: Caller, bucket: string, key: string) {
  const payload = await verifyToken(env, new URL(caller.request.url).searchParams.get("token"));
  if (typeof payload.url !== "string" || typeof payload.upsert !== "boolean") {
    throw storageErrors.invalidSignature("Token is not scoped for upload");
  }
  if (payload.url !== `${bucket}/${key}`) throw storageErrors.invalidSignature();
  return { owner: typeof payload.owner === "string" ? payload.owner : null, upsert: payload.upsert };
}

export async function objectInfo(env: StorageEnv, caller: Caller, bucket: string, key: string) {
  mustBeValidBucketName(bucket);
  const name = mustBeValidKey(key);
  const row = await asCaller(env, caller, (tx) => findObject(tx, bucket, name));
  const m = row.metadata;
  return {
    id: row.id,
    version: row.version,
    name: row.name,
    bucket_id: row.bucket_id,
    created_at: row.created_at,
    last_modified: row.updated_at,
    size: m?.size,
    cache_control: m?.cacheControl,
    content_type: m?.mimetype,
    etag: m?.eTag,
    metadata: row.user_metadata,
  };
}

function expiresInOf(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw storageErrors.invalidRequest("body/expiresIn must be >= 1");
  }
  return value;
}

export async function signUrl(env: StorageEnv, caller: Caller, bucket: string, key: string) {
  mustBeValidBucketName(bucket);
  const name = mustBeValidKey(key);
  const body = await jsonBody<{ expiresIn?: unknown }>(caller.request);
  const expiresIn = expiresInOf(body.expiresIn);
  await asCaller(env, caller, (tx) => findObject(tx, bucket, name));
  const token = await env.ctx.keys.sign({ url: `${bucket}/${name}` }, { expiresIn });
  return { signedURL: `/object/sign/${bucket}/${name}?token=${token}` };
}

export async function signUrls(env: StorageEnv, caller: Caller, bucket: string) {
  mustBeValidBucketName(bucket);
  const body = await jsonBody<{ expiresIn?: unknown; paths?: unknown }>(caller.request);
  const expiresIn = expiresInOf(body.expiresIn);
  if (
    !Array.isArray(body.paths) ||
    body.paths.length === 0 ||
    body.paths.length > 1000 ||
    body.paths.some((p) => typeof p !== "string")
  ) {
    throw storageErrors.invalidRequest("body/paths must hold 1 to 1000 names");
  }
  const paths = body.paths as string[];
  const found = await asCaller(env, caller, async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      "select name from storage.objects where bucket_id = $1 and name = any($2::text[])",
      [bucket, paths],
    );
    return new Set(rows.map((r) => r.name));
  });
  return Promise.all(
    paths.map(async (path) =>
      found.has(path)
        ? {
            error: null,
            path,
            signedURL: `/object/sign/${bucket}/${path}?token=${await env.ctx.keys.sign({ url: `${bucket}/${path}` }, { expiresIn })}`,
          }
        : { error: "Either the object does not exist or you do not have access to it", path, signedURL: null },
    ),
  );
}

export async function signUploadUrl(env: StorageEnv, caller: Caller, bucket: string, key: string) {
  mustBeValidBucketName(bucket);
  const name = mustBeValidKey(key);
  await findBucket(env, bucket);
  const upsert = caller.request.headers.get("x-upsert") === "true";
  const owner = ownerOf(caller.claims);
  await canUpload(env, caller, { bucket, name, owner, upsert });
  const token = await env.ctx.keys.sign({ url: `${bucket}/${name}`, owner, upsert }, { expiresIn: UPLOAD_URL_SECONDS });
  return { url: `/object/upload/sign/${bucket}/${name}?token=${token}`, token };
}

interface ListBody {
  prefix?: unknown;
  limit?: unknown;
  offset?: unknown;
  search?: unknown;
  sortBy?: { column?: unknown; order?: unknown };
}

const SORT_COLUMNS = new Set(["name", "created_at", "updated_at", "last_accessed_at"]);

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * One folder level of a bucket, as hosted's `storage.search` lists it: the
 * files directly under `prefix` and its sub-folders (rows with a null id),
 * filtered by a name that starts with `search`, sorted and paged.
 */
export async function listObjects(env: StorageEnv, caller: Caller, bucket: string) {
  mustBeValidBucketName(bucket);
  const body = await jsonBody<ListBody>(caller.request);
  let prefix = typeof body.prefix === "string" ? body.prefix : "";
  if (prefix && !prefix.endsWith("/")) prefix += "/";
  const limit = Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), 1000);
  const offset = Math.max(Number(body.offset ?? 0) || 0, 0);
  const search = typeof body.search === "string" ? body.search : "";
  const column =
    typeof body.sortBy?.column === "string" && SORT_COLUMNS.has(body.sortBy.column) ? body.sortBy.column : "name";
  const order = body.sortBy?.order === "desc" ? "desc" : "asc";
  return asCaller(env, caller, (tx) => listLevel(tx, { bucket, prefix, limit, offset, search, column, order }));
}

async function listLevel(
  tx: Queryable,
  q: { bucket: string; prefix: string; limit: number; offset: number; search: string; column: string; order: string },
) {
  const { rows } = await tx.query<ObjectRow & { entry: string; folder: boolean }>(
    `with level as (
       select o.*, split_part(substr(o.name, $3 + 1), '/', 1) as entry,
              strpos(substr(o.name, $3 + 1), '/') > 0 as folder
         from storage.objects o
        where o.bucket_id = $1 and o.name like $2 escape '\\' and substr(o.name, $3 + 1) ilike $4 escape '\\'
     ), entries as (
       select distinct on (entry) entry, folder,
              case when folder then null else id end as id,
              case when folder then null else updated_at end as updated_at,
              case when folder then null else created_at end as created_at,
              case when folder then null else last_accessed_at end as last_accessed_at,
              case when folder then null else metadata end as metadata
         from level order by entry, folder
     )
     select entry as name, id, updated_at, created_at, last_accessed_at, metadata from entries
      order by ${q.column === "name" ? "entry" : `${q.column} nulls first, entry`} ${q.order}
      limit $5 offset $6`,
    [q.bucket, `${likeEscape(q.prefix)}%`, q.prefix.length, `${likeEscape(q.search)}%`, q.limit, q.offset],
  );
  return rows;
}
