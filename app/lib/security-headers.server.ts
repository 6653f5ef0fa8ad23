/**
 * Headers every response of the app carries. The CSP lets scripts run only
 * from this origin or with this response's nonce (Remix's inline hydration
 * scripts), and lets the browser talk only to this origin and the backend
 * (HTTP and the realtime WebSocket).
 */
export function contentSecurityPolicy({ nonce, backendUrl, dev }: { nonce: string; backendUrl: string; dev: boolean }): string {
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

export function applySecurityHeaders(headers: Headers, options: { nonce: string; backendUrl: string; dev: boolean }) {
  headers.set("Content-Security-Policy", contentSecurityPolicy(options));
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Content-Type-Options", "nosniff");
  // Pages depend on who is signed in and may set session cookies: never cache them in shared caches.
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-store");
}
