/**
 * The stack's own pages and tools (the inbox, /_stack) are for the developer
 * at this machine, not for web pages: the API's open CORS lets any site call
 * /auth and /rest as Supabase's gateway does, but a page that could read the
 * inbox could sign in as anyone. So services marked `access: "local"` send no
 * CORS headers and refuse requests a browser marks as coming from another site
 * (the gateway applies this to every request it resolves to such a service).
 *
 * Allowed: requests without browser markers (curl, tests, tools), requests
 * the browser marks same-origin or user-initiated (`Sec-Fetch-Site: none`),
 * and top-level GET navigations (a link to the inbox; the linking site cannot
 * read the page). Refused: other cross-site or same-site requests, an Origin
 * that is not ours, and a Host that is not this machine's (DNS rebinding).
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function hostOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.replace(/:\d*$/, "");
}

/** Why a request to a local-only service is refused, or null when it may proceed. */
export function crossSiteRefusal(request: Request, ownHosts: readonly string[]): string | null {
  const headers = request.headers;
  const host = headers.get("host");
  if (host !== null) {
    const name = hostOf(host);
    if (!LOOPBACK.has(name) && !ownHosts.includes(name) && !name.endsWith(".localhost")) return "unknown host";
  }
  const method = request.method;
  const site = headers.get("sec-fetch-site");
  if (site !== null) {
    if (site === "same-origin" || site === "none") return null;
    const navigation = headers.get("sec-fetch-mode") === "navigate" && (method === "GET" || method === "HEAD");
    return navigation ? null : "cross-site request";
  }
  const origin = headers.get("origin");
  if (origin !== null && !isOwnOrigin(request, origin)) return "cross-origin request";
  return null;
}

/** The request's Origin is this server's own (same scheme, host and port as the Host header). */
export function isOwnOrigin(request: Request, origin: string): boolean {
  const host = request.headers.get("host");
  if (!host) return false;
  try {
    const o = new URL(origin);
    const scheme = new URL(request.url).protocol;
    return o.protocol === scheme && o.host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** A browser says this request came from one of our own pages (a form on the inbox page). */
export function isSameOriginBrowserRequest(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  const origin = request.headers.get("origin");
  return origin !== null && isOwnOrigin(request, origin);
}
