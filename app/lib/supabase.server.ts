import type { AppLoadContext } from "@remix-run/node";
import { createServerClient as createSupabaseServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { env } from "./env.server";

export interface RequestClient {
  supabase: SupabaseClient;
  /** Set-Cookie and cache headers the client produced; every response of this request carries them. */
  headers: Headers;
}

/**
 * One client per incoming request, shared by the action and every loader that
 * runs for it. Remix hands each loader its own copy of the Request (it strips
 * `?index` / `?_routes`), so the Request cannot be the key; the load context
 * is one object per request (the server adapter's default `{}` when the
 * server passes none), so it is. Sharing means the parallel loaders of a
 * nested page await one token refresh instead of racing three with the same
 * refresh token, and they all return the same `headers`.
 */
const clients = new WeakMap<object, RequestClient>();

export function createServerClient({ request, context }: { request: Request; context: AppLoadContext }): RequestClient {
  const key = (context ?? request) as object;
  const existing = clients.get(key);
  if (existing) return existing;
  const client = createRequestClient(request);
  clients.set(key, client);
  return client;
}

/** The client itself, without memoisation (tests use it directly). */
export function createRequestClient(
  request: Request,
  options: { url?: string; anonKey?: string; fetch?: typeof fetch } = {},
): RequestClient {
  const headers = new Headers();
  const supabase = createSupabaseServerClient(options.url ?? env.SUPABASE_URL, options.anonKey ?? env.SUPABASE_ANON_KEY, {
    cookies: {
      getAll() {
        return parseCookieHeader(request.headers.get("Cookie") ?? "").map(({ name, value }) => ({ name, value: value ?? "" }));
      },
      setAll(cookies, cacheHeaders) {
        for (const { name, value, options } of cookies) {
          headers.append("Set-Cookie", serializeCookieHeader(name, value, options));
        }
        for (const [name, value] of Object.entries(cacheHeaders ?? {})) headers.set(name, value);
      },
    },
    global: options.fetch ? { fetch: options.fetch } : undefined,
    // Node 20 has no global WebSocket; the browser uses its own.
    realtime: { transport: WebSocket as never },
  });
  return { supabase, headers };
}

/** Expires this browser's auth cookies (all chunks), for when the backend can't be told about a sign-out. */
export function clearAuthCookies(request: Request, headers: Headers) {
  for (const { name } of parseCookieHeader(request.headers.get("Cookie") ?? "")) {
    if (/^sb-.+-auth-token(-code-verifier)?(\.\d+)?$/.test(name)) {
      headers.append("Set-Cookie", serializeCookieHeader(name, "", { path: "/", maxAge: 0, sameSite: "lax" }));
    }
  }
}
