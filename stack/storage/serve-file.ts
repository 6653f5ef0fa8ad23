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

/** How a download was asked for, read from the request at the edge. */
export interface ServeOptions {
  head: boolean;
  range: string | null;
  ifNoneMatch: string | null;
  /** the `download` query: absent (inline), "" (attachment) or a file name */
  download: string | undefined;
  /** a signed URL's expiry (HTTP date): sent instead of the object's cache-control */
  expires?: string;
}

/**
 * What object responses carry so that stored bytes never run as a page of
 * the stack's origin (where the inbox and, with the app on the same host,
 * its session cookie live): hosted Storage serves HTML as text/plain and
 * sends `X-Robots-Tag: none`; on top of that the stack forbids sniffing and
 * puts the document in a sandbox with nothing allowed, so an SVG or XML file
 * opened directly runs no script and loads nothing (images still show, in a
 * tab or an `<img>`). PDFs are left out of the sandbox: Chromium's viewer
 * refuses to open in one, and a PDF's scripts never run in the page's origin.
 */
export function securityHeaders(contentType: string): Record<string, string> {
  const headers: Record<string, string> = { "x-content-type-options": "nosniff", "x-robots-tag": "none" };
  if (!/^application\/pdf\b/i.test(contentType)) headers["content-security-policy"] = "default-src 'none'; sandbox";
  return headers;
}

/** Hosted's rule: any HTML type is served as text/plain. */
export function servedContentType(mimetype: string | undefined): string {
  if (!mimetype) return "application/octet-stream";
  return mimetype.toLowerCase().includes("text/html") ? "text/plain" : mimetype;
}

/** Hosted's disposition: `?download` alone makes an attachment with no name; `?download=x` names it. */
export function disposition(download: string | undefined): string | null {
  if (download === undefined) return null;
  if (download === "") return "attachment;";
  const name = encodeURIComponent(download);
  return `attachment; filename=${name}; filename*=UTF-8''${name}`;
}

/**
 * Streams an object's file as hosted Storage answers a download: its type,
 * cache-control (or Expires for a signed URL), ETag and Last-Modified; 304
 * for a matching If-None-Match; one `bytes=` range as 206 (Storage passes
 * ranges through to S3); the disposition `download` asks for.
 */
export async function serveObject(store: FileStore, row: ObjectRow, options: ServeOptions): Promise<Response> {
  const meta = row.metadata;
  const stat = row.version ? await store.stat(row.bucket_id, row.version) : null;
  if (!meta || !stat || !row.version) throw storageErrors.noSuchKey();

  const contentType = servedContentType(meta.mimetype);
  const headers = new Headers({
    ...securityHeaders(contentType),
    "content-type": contentType,
    etag: meta.eTag,
    "last-modified": new Date(meta.lastModified || row.updated_at).toUTCString(),
    "accept-ranges": "bytes",
  });
  if (options.expires) headers.set("expires", options.expires);
  else headers.set("cache-control", meta.cacheControl || "no-cache");
  const attachment = disposition(options.download);
  if (attachment) headers.set("content-disposition", attachment);

  const ifNoneMatch = options.ifNoneMatch;
  if (ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim() === meta.eTag || t.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }

  const size = stat.size;
  const range = parseRange(options.range, size);
  const file = store.pathOf(row.bucket_id, row.version);
  if (range) {
    headers.set("content-range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("content-length", String(range.end - range.start + 1));
    const body = options.head ? null : toWeb(fs.createReadStream(file, { start: range.start, end: range.end }));
    return new Response(body, { status: 206, headers });
  }
  headers.set("content-length", String(size));
  return new Response(options.head ? null : toWeb(fs.createReadStream(file)), { status: 200, headers });
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
