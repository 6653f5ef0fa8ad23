import { asCaller, findBucket, findObject, type Caller, type ObjectTarget, type StorageEnv } from "./env.ts";
import { storageErrors } from "./errors.ts";
import { serveObject, type ObjectRow, type ServeOptions } from "./serve-file.ts";
import { verifyDownloadToken } from "./signing.ts";

/**
 * Reading objects, as hosted's routes read them: the bucket is looked up
 * with the stack's rights; an object of a public bucket is read with them
 * too (anyone may read it), one of a private bucket as the caller, so the
 * policies decide. Without a (valid) token only public buckets answer.
 */
export async function readRow(env: StorageEnv, caller: Caller | null, target: ObjectTarget): Promise<ObjectRow> {
  const bucket = await findBucket(env, target.bucket).catch(() => null);
  if (!bucket || (!caller && !bucket.public)) throw storageErrors.noSuchBucket();
  if (bucket.public) return findObject(env.ctx.db, target.bucket, target.name);
  return asCaller(env, caller!, (tx) => findObject(tx, target.bucket, target.name));
}

/** `/object/<bucket>/<key>` and `/object/authenticated/…`. */
export async function download(env: StorageEnv, caller: Caller | null, target: ObjectTarget, serve: ServeOptions) {
  return serveObject(env.store, await readRow(env, caller, target), serve);
}

/** `/object/public/…`: public buckets only, no token needed. */
export async function downloadPublic(env: StorageEnv, target: ObjectTarget, serve: ServeOptions) {
  return download(env, null, target, serve);
}

/** `/object/sign/…?token=`: the token was checked when it was made; the stack serves it. */
export async function downloadSigned(env: StorageEnv, token: string, target: ObjectTarget, serve: ServeOptions) {
  const { expires } = await verifyDownloadToken(env, token, target);
  const row = await findObject(env.ctx.db, target.bucket, target.name);
  return serveObject(env.store, row, { ...serve, expires });
}

/** `/object/info/…`: hosted's info shape (the user's metadata as `metadata`). */
export async function objectInfo(env: StorageEnv, caller: Caller | null, target: ObjectTarget) {
  const row = await readRow(env, caller, target);
  const m = row.metadata;
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: m?.size ?? null,
    content_type: m?.mimetype ?? null,
    cache_control: m?.cacheControl ?? null,
    etag: m?.eTag ?? null,
    metadata: row.user_metadata,
    last_modified: row.updated_at,
    created_at: row.created_at,
  };
}
