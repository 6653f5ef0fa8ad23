import type { AppLoadContext } from "@remix-run/node";
import {
  createServerClient as createSupabaseServerClient,
  parseCookieHeader,
  serializeCookieHeader,
} from "@supabase/ssr";
import type { Database, SupabaseClient } from "./supabase-types";
import WebSocket from "ws";
import { isShed } from "./admission.server";
import { env } from "./env.server";
import { crossSiteRefusal } from "./same-origin.server";

export interface RequestClient {
  supabase: SupabaseClient;
  /** Set-Cookie and cache headers the client produced; every response of this request carries them. */
  headers: Headers;
  /** the production server shed this request, which carries a session (see createServerClient) */
  shed?: boolean;
}

/**
 * One client per incoming request, shared by the action and every loader that
 * runs for it. Remix hands each loader its own copy of the Request (it strips
 * `?index` / `?_routes`), so the Request cannot be the key; the load context
 * is one object per request (the server adapter's default `{}` when the
 * server passes none), so it is. Sharing means the parallel loaders of a
 * nested page await one token refresh instead of racing three with the same
 * refresh token, and they all return the same `headers`.
 *
 * Every action starts here, resource routes included, so a post sent from
 * another site (or another port of this host) is refused here with 403,
 * before anything reads the session (same-origin.server.ts).
 */
const clients = new WeakMap<object, RequestClient>();

export function createServerClient({ request, context }: { request: Request; context: AppLoadContext }): RequestClient {
  const refused = crossSiteRefusal(request);
  if (refused) throw refused;
  const key = (context ?? request) as object;
  const existing = clients.get(key);
  if (existing) return existing;
  // signed out, a shed request needs nothing from the backend to say so (its pages may render)
  const client = isShed(context)
    ? { ...createRequestClient(request, { fetch: notSent }), shed: hasAuthCookie(request) }
    : createRequestClient(request);
  clients.set(key, client);
  return client;
}

/** The client itself, without memoisation (tests use it directly). */
export function createRequestClient(
  request: Request,
  options: { url?: string; anonKey?: string; fetch?: typeof fetch } = {},
): RequestClient {
  const headers = new Headers();
  // the last value set for each cookie (a session may be written more than once per request)
  const setCookies = new Map<string, string>();
  const supabase = createSupabaseServerClient<Database>(
    options.url ?? env.SUPABASE_URL,
    options.anonKey ?? env.SUPABASE_ANON_KEY,
    {
      cookies: {
        getAll() {
          return parseCookieHeader(request.headers.get("Cookie") ?? "").map(({ name, value }) => ({
            name,
            value: value ?? "",
          }));
        },
        setAll(cookies, cacheHeaders) {
          for (const { name, value, options } of cookies)
            setCookies.set(name, serializeCookieHeader(name, value, options));
          headers.delete("Set-Cookie");
          for (const cookie of setCookies.values()) headers.append("Set-Cookie", cookie);
          for (const [name, value] of Object.entries(cacheHeaders ?? {})) headers.set(name, value);
        },
      },
      global: { fetch: refreshOncePerRequest(options.fetch ?? fetch) },
      // Node 20 has no global WebSocket; the browser uses its own.
      realtime: { transport: WebSocket as never },
    },
  );
  return { supabase, headers };
}

/** The fetch of a shed request's client: fails at once, as fetch does when the backend is unreachable. */
const notSent: typeof fetch = async () => {
  throw new TypeError("fetch failed", {
    cause: new Error("not sent: this server is over its limit of requests in flight"),
  });
};

/**
 * auth-js counts a session as expiring 90 s before its access token ends and
 * refreshes it before every backend call in that window: with tokens shorter
 * than 90 s that is every call, and a page with five queries refreshed five
 * times, one after another (rotating the refresh token each time). Within one
 * request the first successful refresh is the answer: later refresh calls of
 * the same client get the same session back without a round trip, while that
 * session has at least half its life left. A failed refresh is not kept.
 */
export function refreshOncePerRequest(baseFetch: typeof fetch): typeof fetch {
  type Answer = { status: number; statusText: string; headers: [string, string][]; body: string; usableUntil: number };
  let refreshed: Promise<Answer> | null = null;
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!/\/auth\/v1\/token\?(.*&)?grant_type=refresh_token/.test(url)) return baseFetch(input, init);
    if (refreshed) {
      // a request slower than half its fresh token's life refreshes again rather than send an expired token
      const previous = await refreshed.catch(() => null);
      if (!previous || previous.status !== 200 || Date.now() > previous.usableUntil) refreshed = null;
    }
    if (!refreshed) {
      const obtained = Date.now();
      refreshed = baseFetch(input, init).then(async (r) => {
        const body = await r.text();
        let expiresIn = 0;
        try {
          expiresIn = Number((JSON.parse(body) as { expires_in?: number }).expires_in ?? 0);
        } catch {
          /* not a session: never reused */
        }
        return {
          status: r.status,
          statusText: r.statusText,
          headers: [...r.headers],
          body,
          usableUntil: obtained + (expiresIn * 1000) / 2,
        };
      });
    }
    const answer = await refreshed;
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  };
}

function hasAuthCookie(request: Request) {
  return parseCookieHeader(request.headers.get("Cookie") ?? "").some(({ name }) => AUTH_COOKIE.test(name));
}

const AUTH_COOKIE = /^sb-.+-auth-token(\.\d+)?$/;

/** Expires this browser's auth cookies (all chunks), for when the backend can't be told about a sign-out. */
export function clearAuthCookies(request: Request, headers: Headers) {
  for (const { name } of parseCookieHeader(request.headers.get("Cookie") ?? "")) {
    if (/^sb-.+-auth-token(-code-verifier)?(\.\d+)?$/.test(name)) {
      headers.append("Set-Cookie", serializeCookieHeader(name, "", { path: "/", maxAge: 0, sameSite: "lax" }));
    }
  }
}
