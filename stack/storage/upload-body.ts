import { Readable } from "node:stream";
import busboy from "busboy";
import { storageErrors } from "./errors.ts";
import type { FileStore, StoredFile } from "./files.ts";

/**
 * Reads an upload's body as storage-js sends it: either multipart form data
 * (`cacheControl`, `metadata` fields, then one file part whose type is the
 * object's type) or the raw bytes with `content-type`, `cache-control` and
 * `x-metadata` (base64 JSON) headers. Bytes stream to the file store.
 */
/** An upload as it arrives: the body and the headers that describe it (read at the edge). */
export interface UploadBody {
  stream: ReadableStream<Uint8Array> | null;
  contentType: string;
  contentLength: number | null;
  cacheControl: string | null;
  /** `x-metadata`: base64 JSON of the user's metadata (raw uploads) */
  metadata: string | null;
}

export interface ReceivedUpload extends StoredFile {
  contentType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

export interface UploadRules {
  /** largest size in bytes (the bucket's limit or the global one, whichever is lower) */
  limit: number;
  /** throws Storage's 415 when the bucket does not take this type */
  checkType: (contentType: string) => void;
}

const MAX_METADATA_CHARS = 64 * 1024;

function chunksOf(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  // preventCancel: a rejected upload leaves the rest of the body for the server to drain
  const iterable = body as unknown as { values(options: { preventCancel: boolean }): AsyncIterable<Uint8Array> };
  return iterable.values({ preventCancel: true });
}

function parseMetadata(text: string | undefined | null): Record<string, unknown> | null {
  if (!text) return null;
  if (text.length > MAX_METADATA_CHARS) throw storageErrors.invalidRequest("Metadata is too large");
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw storageErrors.invalidRequest("Invalid metadata");
}

function cacheControlOf(value: string | undefined | null): string {
  const v = (value ?? "").trim();
  if (!v) return "no-cache";
  return /^\d+$/.test(v) ? `max-age=${v}` : v;
}

/**
 * Receives an upload; when it is refused midway (too large, wrong type), the
 * rest of the body is read and thrown away (up to `drainLimit` bytes) before
 * the answer goes out, so the client sees Storage's error rather than a reset
 * connection. A body larger than that is cut off.
 */
export async function receiveUpload(
  upload: UploadBody,
  store: FileStore,
  rules: UploadRules & { drainLimit: number },
): Promise<ReceivedUpload> {
  try {
    return await receive(upload, store, rules);
  } catch (error) {
    if (upload.stream) await discardRest(upload.stream, rules.drainLimit);
    throw error;
  }
}

async function discardRest(body: ReadableStream<Uint8Array>, limit: number): Promise<void> {
  if (body.locked) return;
  let seen = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.length;
      if (seen > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    /* the client went away */
  } finally {
    reader.releaseLock();
  }
}

async function receive(
  upload: UploadBody,
  store: FileStore,
  rules: UploadRules & { drainLimit: number },
): Promise<ReceivedUpload> {
  const { stream, contentType } = upload;
  if (!stream) throw storageErrors.noContent();
  if (/^multipart\/form-data/i.test(contentType)) return receiveMultipart(stream, contentType, store, rules);

  const type = contentType.trim() || "application/octet-stream";
  rules.checkType(type);
  if (upload.contentLength !== null && upload.contentLength > rules.limit) throw storageErrors.tooLarge();
  const userMetadata = upload.metadata ? parseMetadata(Buffer.from(upload.metadata, "base64").toString("utf8")) : null;
  const file = await store.receive(chunksOf(stream), rules.limit);
  return { ...file, contentType: type, cacheControl: cacheControlOf(upload.cacheControl), userMetadata };
}

async function receiveMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  store: FileStore,
  rules: UploadRules & { drainLimit: number },
): Promise<ReceivedUpload> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { files: 1, fields: 10, fieldSize: MAX_METADATA_CHARS },
    });
  } catch {
    throw storageErrors.invalidRequest("Invalid multipart body");
  }
  const fields: Record<string, string> = {};
  let upload: Promise<ReceivedUpload> | null = null;
  let settled = () => {};
  const fileSettled = new Promise<void>((resolve) => (settled = resolve));
  parser.on("field", (name, value) => {
    fields[name] = value;
  });
  parser.on("file", (_name, stream, info) => {
    if (upload) {
      stream.resume();
      return;
    }
    const type = info.mimeType || "application/octet-stream";
    upload = (async () => {
      rules.checkType(type);
      const file = await store.receive(stream, rules.limit);
      return {
        ...file,
        contentType: type,
        cacheControl: cacheControlOf(fields.cacheControl),
        userMetadata: parseMetadata(fields.metadata),
      };
    })();
    upload.then(settled, settled);
  });
  const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", reject);
    source.on("error", reject);
  });
  source.pipe(parser);

  // either the whole body is parsed, or the file was refused midway
  let failure: unknown = null;
  await Promise.race([parsed, fileSettled]).catch((error: unknown) => {
    failure = storageErrors.invalidRequest(`Invalid multipart body: ${(error as Error).message}`);
  });
  const done = upload
    ? await (upload as Promise<ReceivedUpload>).catch((error: unknown) => {
        failure ??= error;
        return null;
      })
    : null;
  if (failure || !done) {
    source.unpipe(parser);
    await drain(source, rules.drainLimit);
    if (done) await store.discard(done.tmp);
    throw failure ?? storageErrors.noContent();
  }
  await parsed.catch(() => {});
  return done;
}

/** Reads and throws away what is left of a refused body, up to `limit` bytes; beyond that the connection is cut. */
async function drain(source: Readable, limit: number): Promise<void> {
  let seen = 0;
  try {
    for await (const chunk of source) {
      seen += (chunk as Buffer).length;
      if (seen > limit) {
        source.destroy();
        return;
      }
    }
  } catch {
    /* the client went away */
  }
}
