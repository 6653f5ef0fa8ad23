/**
 * Headers every response of the app carries. The CSP lets scripts run only
 * from this origin or with this response's nonce (Remix's inline hydration
 * scripts), and lets the browser talk only to this origin and the backend
 * (HTTP and the realtime WebSocket).
 */
export function contentSecurityPolicy({
  nonce,
  backendUrl,
  dev,
}: {
  nonce: string;
  backendUrl: string;
  dev: boolean;
}): string {
  const backend = new URL(backendUrl);
  const backendWs = `${backend.protocol === "https:" ? "wss:" : "ws:"}//${backend.host}`;
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    // Vite's dev server injects <style> tags; the built app only links stylesheets.
    "style-src": dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    "img-src": ["'self'", "data:", "blob:", backend.origin],
    "font-src": ["'self'"],
    "connect-src": ["'self'", backend.origin, backendWs, ...(dev ? ["ws://localhost:*", "ws://127.0.0.1:*"] : [])],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    // the OAuth button posts here and is redirected to the backend's authorize page
    "form-action": ["'self'", backend.origin],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** What every response carries, pages or not (the production server sets them on redirects and static files too). */
export const BASELINE_HEADERS = {
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Content-Type-Options": "nosniff",
} as const;

/** Static files (scripts, styles, images): nothing they could run or embed when opened on their own. */
export const STATIC_FILE_HEADERS = {
  ...BASELINE_HEADERS,
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
} as const;

export function applySecurityHeaders(headers: Headers, options: { nonce: string; backendUrl: string; dev: boolean }) {
  headers.set("Content-Security-Policy", contentSecurityPolicy(options));
  for (const [name, value] of Object.entries(BASELINE_HEADERS)) headers.set(name, value);
  // Pages depend on who is signed in and may set session cookies: never cache them in shared caches.
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-store");
}
