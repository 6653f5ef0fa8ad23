import type { Context } from "hono";

/**
 * The stack's own pages and tools (the inbox, /_stack) are for the developer
 * at this machine, not for web pages: the API's open CORS lets any site call
 * /auth and /rest as Supabase's gateway does, but a page that could read the
 * inbox could sign in as anyone. So these paths send no CORS headers and
 * refuse requests a browser marks as coming from another site.
 *
 * Allowed: requests without browser markers (curl, tests, tools), requests
 * the browser marks same-origin or user-initiated (`Sec-Fetch-Site: none`),
 * and top-level GET navigations (a link to the inbox; the linking site cannot
 * read the page). Refused: other cross-site or same-site requests, an Origin
 * that is not ours, and a Host that is not this machine's (DNS rebinding).
 */
export const LOCAL_ONLY_PREFIXES = ["/inbox", "/_stack"];

export function isLocalOnlyPath(pathname: string): boolean {
  return LOCAL_ONLY_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function hostOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.replace(/:\d*$/, "");
}

/** Why a request to a local-only path is refused, or null when it may proceed. */
export function crossSiteRefusal(c: Context, ownHosts: readonly string[]): string | null {
  const host = c.req.header("host");
  if (host !== undefined) {
    const name = hostOf(host);
    if (!LOOPBACK.has(name) && !ownHosts.includes(name) && !name.endsWith(".localhost")) return "unknown host";
  }
  const method = c.req.method;
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined) {
    if (site === "same-origin" || site === "none") return null;
    const navigation = c.req.header("sec-fetch-mode") === "navigate" && (method === "GET" || method === "HEAD");
    return navigation ? null : "cross-site request";
  }
  const origin = c.req.header("origin");
  if (origin !== undefined && !isOwnOrigin(c, origin)) return "cross-origin request";
  return null;
}

/** The request's Origin is this server's own (same scheme, host and port as the Host header). */
export function isOwnOrigin(c: Context, origin: string): boolean {
  const host = c.req.header("host");
  if (!host) return false;
  try {
    const o = new URL(origin);
    const scheme = new URL(c.req.url).protocol;
    return o.protocol === scheme && o.host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** A browser says this request came from one of our own pages (a form on the inbox page). */
export function isSameOriginBrowserRequest(c: Context): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined) return site === "same-origin";
  const origin = c.req.header("origin");
  return origin !== undefined && isOwnOrigin(c, origin);
}
