import fs from "node:fs";
import { Readable } from "node:stream";
import { storageErrors } from "./errors.ts";
import type { FileStore } from "./files.ts";

/** An object row as the download paths need it. */
export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  version: string | null;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

/**
 * Streams an object's file as hosted Storage answers a download: its type,
 * cache-control, ETag and Last-Modified; 304 for a matching If-None-Match;
 * one `bytes=` range as 206 (Storage passes ranges through to S3); a
 * `download` query turns it into an attachment with that file name.
 */
export async function serveObject(
  request: Request,
  store: FileStore,
  row: ObjectRow,
  extra: { download?: string | null; expires?: string } = {},
): Promise<Response> {
  const meta = row.metadata;
  const stat = row.version ? await store.stat(row.bucket_id, row.version) : null;
  if (!meta || !stat || !row.version) throw storageErrors.noSuchKey();

  const headers = new Headers({
    "content-type": meta.mimetype || "application/octet-stream",
    "cache-control": meta.cacheControl || "no-cache",
    etag: meta.eTag,
    "last-modified": new Date(meta.lastModified || row.updated_at).toUTCString(),
    "accept-ranges": "bytes",
  });
  if (extra.expires) headers.set("expires", extra.expires);
  if (extra.download !== undefined && extra.download !== null) {
    const fileName = extra.download || row.name.split("/").pop() || "download";
    headers.set(
      "content-disposition",
      `attachment; filename=${encodeURIComponent(fileName)}; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    );
  }

  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim() === meta.eTag || t.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }

  const size = stat.size;
  const range = parseRange(request.headers.get("range"), size);
  const head = request.method === "HEAD";
  const file = store.pathOf(row.bucket_id, row.version);
  if (range) {
    headers.set("content-range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("content-length", String(range.end - range.start + 1));
    const body = head ? null : toWeb(fs.createReadStream(file, { start: range.start, end: range.end }));
    return new Response(body, { status: 206, headers });
  }
  headers.set("content-length", String(size));
  return new Response(head ? null : toWeb(fs.createReadStream(file)), { status: 200, headers });
}

function toWeb(stream: fs.ReadStream): ReadableStream<Uint8Array> {
  return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; anything else is ignored (the whole file). */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) throw storageErrors.invalidRange();
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || end < start) throw storageErrors.invalidRange();
  return { start, end };
}
