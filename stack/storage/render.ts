import fs from "node:fs";
import { Readable } from "node:stream";
import { findBucket, findObject, type Caller, type ObjectTarget, type StorageEnv } from "./env.ts";
import { storageErrors } from "./errors.ts";
import { renderImage } from "./images.ts";
import { readRow } from "./objects-read.ts";
import { disposition, securityHeaders, type ObjectRow, type ServeOptions } from "./serve-file.ts";
import { verifyDownloadToken } from "./signing.ts";
import { transformFromSigned, transformSegments, type TransformOptions } from "./transform.ts";

/**
 * `/render/image/…`: an object's image, transformed (images.ts). The object
 * is found exactly as its plain download finds it, so the same policies and
 * signed-URL checks decide: `public` for public buckets only, with the stack's
 * rights; `authenticated` as the caller; `sign` with a download token, whose
 * transformations come from the token and not from the query.
 */
export interface RenderRequest {
  transform: TransformOptions;
  /** the client's Accept header: WebP when it is accepted and no format was asked for */
  accept: string | null;
  serve: ServeOptions;
  /** aborts when the client goes away: the render is stopped */
  signal?: AbortSignal;
}

export async function renderPublic(env: StorageEnv, target: ObjectTarget, request: RenderRequest) {
  const bucket = await findBucket(env, target.bucket);
  if (!bucket.public) throw storageErrors.noSuchBucket();
  return render(env, await findObject(env.ctx.db, target.bucket, target.name), request);
}

export async function renderAuthenticated(
  env: StorageEnv,
  caller: Caller,
  target: ObjectTarget,
  request: RenderRequest,
) {
  return render(env, await readRow(env, caller, target), request);
}

export async function renderSigned(env: StorageEnv, token: string, target: ObjectTarget, request: RenderRequest) {
  const { expires, transformations } = await verifyDownloadToken(env, token, target);
  const row = await findObject(env.ctx.db, target.bucket, target.name);
  const transform = transformFromSigned(transformations);
  return render(env, row, { ...request, transform, serve: { ...request.serve, expires } });
}

/** The rendered file with hosted's renderer headers (the object's ETag, cache-control or Expires, X-Transformations). */
async function render(env: StorageEnv, row: ObjectRow, { transform, accept, serve, signal }: RenderRequest) {
  const meta = row.metadata;
  if (!meta || !row.version) throw storageErrors.noSuchKey();
  // the bucket's MIME rules decide what its bytes may be (images.ts reads them)
  const bucket = await findBucket(env, row.bucket_id);
  // the ETag is the object's (as hosted): a client holding this URL's answer for this version needs nothing new
  if (serve.ifNoneMatch?.split(",").some((t) => t.trim() === meta.eTag || t.trim() === "*"))
    return new Response(null, { status: 304, headers: { etag: meta.eTag } });
  const image = await renderImage(
    env.store,
    { bucket: row.bucket_id, version: row.version, allowedMimeTypes: bucket.allowed_mime_types },
    transform,
    accept,
    { deadlineMs: env.ctx.config.storage.renderDeadlineMs, signal },
  );

  const headers = new Headers({
    ...securityHeaders(image.contentType),
    "content-type": image.contentType,
    etag: meta.eTag,
    "last-modified": new Date(meta.lastModified || row.updated_at).toUTCString(),
    "accept-ranges": "bytes",
    "content-length": String(image.size),
  });
  // the answer depends on Accept when no format was asked for
  if (!transform.format) headers.set("vary", "Accept");
  if (serve.expires) headers.set("expires", serve.expires);
  else headers.set("cache-control", meta.cacheControl || "no-cache");
  const segments = transformSegments(transform);
  if (segments.length) headers.set("x-transformations", segments.join(","));
  const attachment = disposition(serve.download);
  if (attachment) headers.set("content-disposition", attachment);
  // the stack's own: whether the transformed file came from the disk cache (hosted's CDN says so in its own header)
  headers.set("x-render-cache", image.cached ? "hit" : "miss");

  const body = serve.head ? null : (Readable.toWeb(fs.createReadStream(image.file)) as ReadableStream<Uint8Array>);
  return new Response(body, { status: 200, headers });
}
