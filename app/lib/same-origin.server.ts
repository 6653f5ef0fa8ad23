import type { IncomingMessage } from "node:http";
import { loggedPath } from "./log-redaction";

/**
 * Cross-site request forgery: a form on another site — or on another port of
 * this host, which the browser counts as the same *site*, so SameSite=Lax
 * cookies travel with it — could post to us with the person's session
 * (issue 22 L8). Remix refuses such posts to page routes itself, before any
 * action, as a bare 500; resource routes (/logout, /api/attachments) it lets
 * through. So the servers refuse them first, in one place for every route:
 * where they open the request scope (request-scope.server.ts,
 * `serveInRequestScope` / `handleInRequestScope`), before Remix runs.
 *
 * A browser sends Origin with every POST; when it names another host (or
 * port) than the one the request came to, or is "null" (a sandboxed frame, a
 * redirect from elsewhere), the request gets 403. Without Origin,
 * Sec-Fetch-Site ("cross-site", "same-site") says the same. A request with
 * neither comes from something that is not a browser, which holds no one's
 * cookies unless given them.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_MESSAGE =
  "This form was sent from another site, so Teamboard ignored it. Open Teamboard itself and try again.";

/** The headers that decide, as a server of any kind reads them. */
export interface PostSource {
  method: string;
  origin: string | null | undefined;
  secFetchSite: string | null | undefined;
  /** the host the request was sent to: a proxy's X-Forwarded-Host (as Remix reads it), else Host */
  host: string | null | undefined;
}

export function isCrossSite({ method, origin, secFetchSite, host }: PostSource): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  if (origin !== null && origin !== undefined) return origin === "null" || hostOf(origin) !== host;
  return secFetchSite === "cross-site" || secFetchSite === "same-site";
}

/** The 403 to answer instead of handling the request (logged as a refusal), or null. */
export function crossSiteRefusal(
  source: PostSource,
  path: string,
): { status: 403; headers: Record<string, string>; body: string } | null {
  if (!isCrossSite(source)) return null;
  console.warn(
    `[csrf] refused ${source.method} ${loggedPath(path)} from ${source.origin ?? `a ${source.secFetchSite} page`}`,
  );
  return {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    body: CROSS_SITE_MESSAGE,
  };
}

export function nodeSource(req: IncomingMessage): PostSource {
  const forwarded = header(req.headers["x-forwarded-host"])?.split(",")[0]?.trim();
  return {
    method: req.method ?? "GET",
    origin: header(req.headers.origin),
    secFetchSite: header(req.headers["sec-fetch-site"]),
    host: forwarded || header(req.headers.host),
  };
}

export function fetchSource(request: Request): PostSource {
  const forwarded = request.headers.get("X-Forwarded-Host")?.split(",")[0]?.trim();
  return {
    method: request.method,
    origin: request.headers.get("Origin"),
    secFetchSite: request.headers.get("Sec-Fetch-Site"),
    host: forwarded || request.headers.get("Host") || new URL(request.url).host,
  };
}

/** Remix's own refusal of a cross-site post to a page route (thrown before any action, answered 500). */
export function isRemixCsrfRefusal(error: unknown): boolean {
  return (
    error instanceof Error && /does not match `origin` header|needed to compare the `origin` header/.test(error.message)
  );
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
