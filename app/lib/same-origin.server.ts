/**
 * Cross-site request forgery: a form on another site — or on another port of
 * this host, which the browser counts as the same *site*, so SameSite=Lax
 * cookies travel with it — could post to us with the person's session.
 * Remix refuses such posts to page routes (before any action runs, as a 500);
 * resource routes (/api/attachments, /logout) it lets through. Every action
 * makes its backend client with createServerClient (supabase.server.ts), so
 * that one place asks this first, for every method that changes something.
 *
 * A browser sends Origin with every POST; when it names another host (or
 * port) than the one the request came to, or is "null" (a sandboxed frame, a
 * redirect from elsewhere), the request is refused. Without Origin,
 * Sec-Fetch-Site ("cross-site", "same-site") says the same. A request with
 * neither comes from something that is not a browser, which holds no one's
 * cookies unless given them.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_SITE_MESSAGE =
  "This form was sent from another site, so Teamboard ignored it. Open Teamboard itself and try again.";

/** The headers that decide, as a server of any kind reads them (server.mjs gives Express's). */
export interface PostSource {
  method: string;
  origin: string | null | undefined;
  secFetchSite: string | null | undefined;
  /** the host the request was sent to: a trusted proxy's X-Forwarded-Host, else Host */
  host: string | null | undefined;
}

export function isCrossSite({ method, origin, secFetchSite, host }: PostSource): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  if (origin !== null && origin !== undefined) return origin === "null" || hostOf(origin) !== host;
  return secFetchSite === "cross-site" || secFetchSite === "same-site";
}

/** For a Fetch API request (the app's actions): the 403 to answer with, or null. */
export function crossSiteRefusal(request: Request): Response | null {
  const origin = request.headers.get("Origin");
  const secFetchSite = request.headers.get("Sec-Fetch-Site");
  if (!isCrossSite({ method: request.method, origin, secFetchSite, host: ownHost(request) })) return null;
  console.warn(
    `[csrf] refused ${request.method} ${new URL(request.url).pathname} from ${origin ?? `a ${secFetchSite} page`}`,
  );
  return new Response(CROSS_SITE_MESSAGE, {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** Remix's own refusal of a cross-site post to a page route (thrown before any action, answered 500). */
export function isRemixCsrfRefusal(error: unknown): boolean {
  return (
    error instanceof Error && /does not match `origin` header|needed to compare the `origin` header/.test(error.message)
  );
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** The host the request was sent to, as Remix's own check reads it (a proxy's X-Forwarded-Host first). */
function ownHost(request: Request): string {
  const forwarded = request.headers.get("X-Forwarded-Host")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("Host") || new URL(request.url).host;
}
