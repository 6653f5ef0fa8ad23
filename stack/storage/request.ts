import type { Context } from "hono";
import { BodyTooLargeError, DEFAULT_LIMITS, parseJsonWithLimits, readBodyLimited } from "../http/limits.ts";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import type { Caller, ObjectTarget, StorageEnv } from "./env.ts";
import { StorageError, storageErrors } from "./errors.ts";
import { decodePathPart, mustBeValidBucketName, mustBeValidKey } from "./names.ts";
import type { RenderRequest } from "./render.ts";
import type { ServeOptions } from "./serve-file.ts";
import { parseTransform } from "./transform.ts";
import type { UploadBody } from "./upload-body.ts";

/**
 * The edge of the Storage API: everything a route reads from the HTTP request
 * (who calls, the bucket and object named by the path, query values, headers,
 * the JSON body) is read here, once, into typed values. Domain code never sees
 * the request.
 */

/**
 * The caller from its JWT (or the apikey header, as Supabase's gateway passes
 * it on). With neither header, hosted Storage's verifier reads an empty
 * token and answers jose's "Invalid Compact JWS".
 */
export async function requireCaller(env: StorageEnv, c: Context): Promise<Caller> {
  if (!c.req.header("authorization") && !c.req.header("apikey")) {
    throw storageErrors.accessDenied("Invalid Compact JWS");
  }
  const who = await resolveIdentity(c, env.ctx.keys);
  if (isIdentityError(who)) {
    if (who.reason === "role") throw storageErrors.accessDenied("Access denied: Invalid role", 403);
    throw storageErrors.invalidJwt(who.reason === "expired" ? "jwt expired" : "invalid signature");
  }
  return { role: who.role, claims: who.claims, ...requestLine(c) };
}

/**
 * Routes hosted serves with or without a valid token (downloads and info by
 * `/object/<bucket>/<key>`): no token, or one that does not verify, is an
 * unauthenticated caller, who can reach public buckets only.
 */
export async function optionalCaller(env: StorageEnv, c: Context): Promise<Caller | null> {
  if (!c.req.header("authorization") && !c.req.header("apikey")) return null;
  const who = await resolveIdentity(c, env.ctx.keys);
  return isIdentityError(who) ? null : { role: who.role, claims: who.claims, ...requestLine(c) };
}

/** The method and the path under /storage/v1, which the database sees as `request.method` / `request.path`. */
export function requestLine(c: Context): { method: string; path: string } {
  return { method: c.req.method, path: new URL(c.req.url).pathname.replace(/^.*\/storage\/v1/, "") || "/" };
}

/** A bucket id from one (still encoded) path segment. */
export function bucketParam(raw: string): string {
  return mustBeValidBucketName(decodePathPart(raw));
}

/** `bucket/some/key` from the (still encoded) path after a route's prefix. */
export function objectParam(rest: string): ObjectTarget {
  const slash = rest.indexOf("/");
  if (slash <= 0) throw storageErrors.invalidKey(decodePathPart(rest));
  return {
    bucket: mustBeValidBucketName(decodePathPart(rest.slice(0, slash))),
    name: mustBeValidKey(decodePathPart(rest.slice(slash + 1))),
  };
}

/** A JSON object body, read no further than 1 MiB (Fastify's default, which hosted keeps) and within the stack's nesting limits. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  let bytes: Uint8Array;
  try {
    bytes = await readBodyLimited(c.req.raw, 1024 * 1024);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      // Fastify's own error, which hosted answers with its status (413), not Storage's 400
      throw new StorageError(413, "EntityTooLarge", "Request body is too large", "Payload too large", 413);
    throw error;
  }
  const text = new TextDecoder().decode(bytes);
  const parsed = parseJsonWithLimits(text || "{}", DEFAULT_LIMITS);
  if (!parsed.ok)
    throw storageErrors.invalidRequest("violation" in parsed ? parsed.violation.message : "Body is not valid JSON");
  const value = parsed.value;
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw storageErrors.invalidRequest("Body is not valid JSON");
  return value as Record<string, unknown>;
}

/** How a download is asked for: method, conditional and range headers, and the `download` query. */
export function serveOptions(c: Context): ServeOptions {
  return {
    head: c.req.method === "HEAD",
    range: c.req.header("range") ?? null,
    ifNoneMatch: c.req.header("if-none-match") ?? null,
    download: c.req.query("download"),
  };
}

/** An upload's body and the headers that describe it (storage-js sends either multipart or the raw bytes). */
export function uploadBody(c: Context): UploadBody {
  const length = Number(c.req.header("content-length") ?? "NaN");
  return {
    stream: c.req.raw.body,
    contentType: c.req.header("content-type") ?? "",
    contentLength: Number.isFinite(length) ? length : null,
    cacheControl: c.req.header("cache-control") ?? null,
    metadata: c.req.header("x-metadata") ?? null,
  };
}

export function upsertHeader(c: Context): boolean {
  return c.req.header("x-upsert") === "true";
}

/** The `token` query of signed URLs; hosted's schema error when it is missing. */
export function tokenQuery(c: Context): string {
  const token = c.req.query("token");
  if (!token)
    throw new StorageError(400, "InvalidRequest", "querystring must have required property 'token'", "Bad Request");
  return token;
}

/** A render URL's transformation query (hosted's schema), the Accept header and the download options. */
export function renderRequest(c: Context): RenderRequest {
  return {
    transform: parseTransform(c.req.query(), "querystring"),
    accept: c.req.header("accept") ?? null,
    serve: serveOptions(c),
    signal: c.req.raw.signal,
  };
}

/** A signed render URL: its transformations are the token's, never the query's. */
export function signedRenderRequest(c: Context): RenderRequest {
  return { transform: {}, accept: c.req.header("accept") ?? null, serve: serveOptions(c), signal: c.req.raw.signal };
}
