import {
  createServerClient as createSupabaseServerClient,
  parseCookieHeader,
  serializeCookieHeader,
} from "@supabase/ssr";
import type { Database, SupabaseClient } from "./supabase-types";
import WebSocket from "ws";
import { env } from "./env.server";
import { requestScope, RequestScope } from "./request-scope.server";

/**
 * The request's backend client: one per request, shared by the action and
 * every loader that runs for it (kept in the request scope), so the parallel
 * loaders of a nested page await one token refresh instead of racing three
 * with the same refresh token. The cookies it writes (a refreshed session)
 * are the scope's: every response of the request carries them. Never shared
 * between requests.
 *
 * A request the production server shed gets a client that never reaches the
 * backend: signed out, its pages need nothing from it (auth.server answers a
 * signed-in one 503 before any call).
 */
export function requestClient(): SupabaseClient {
  const scope = requestScope();
  return scope.remember("backend client", () => createRequestClient(scope, scope.shed ? { fetch: notSent } : {}));
}

/**
 * A client reading the session from `scope`'s Cookie header and writing
 * cookies into its outgoing headers. Without memoisation: `requestClient()`
 * is the app's; tests use this one for a stack at another address.
 */
export function createRequestClient(
  scope: RequestScope,
  options: { url?: string; anonKey?: string; fetch?: typeof fetch } = {},
): SupabaseClient {
  return createSupabaseServerClient<Database>(
    options.url ?? env.SUPABASE_URL,
    options.anonKey ?? env.SUPABASE_ANON_KEY,
    {
      cookies: {
        getAll() {
          return parseCookieHeader(scope.cookie).map(({ name, value }) => ({ name, value: value ?? "" }));
        },
        setAll(cookies, cacheHeaders) {
          for (const { name, value, options } of cookies)
            scope.setCookie(name, serializeCookieHeader(name, value, options));
          for (const [name, value] of Object.entries(cacheHeaders ?? {})) scope.setHeader(name, value);
        },
      },
      global: { fetch: refreshOncePerRequest(failFastWhenUnreachable(endingWith(scope, options.fetch ?? fetch))) },
      // Node 20 has no global WebSocket; the browser uses its own.
      realtime: { transport: WebSocket as never },
    },
  );
}

/** A fetch cancelled when the request's answer has gone out (RequestScope.end), beside its own signal if it has one. */
export function endingWith(scope: RequestScope, baseFetch: typeof fetch): typeof fetch {
  return (input, init) =>
    baseFetch(input, {
      ...init,
      signal: init?.signal ? AbortSignal.any([init.signal, scope.signal]) : scope.signal,
    });
}

/** The fetch of a shed request's client: fails at once, as fetch does when the backend is unreachable. */
const notSent: typeof fetch = async () => {
  throw new TypeError("fetch failed", {
    cause: new Error("not sent: this server is over its limit of requests in flight"),
  });
};

/**
 * Once the backend has refused a connection (or not answered one within the
 * server's connect timeout: server.mjs), the rest of the request doesn't
 * wait for it: every later call fails at once (a connection that was reset
 * or closed after it was made does not count: the backend was there). The error is named
 * AbortError because that is what postgrest-js doesn't retry: it retries a
 * failed read three times, 1 s, 2 s and 4 s apart, and a page with the
 * backend down took 7.6 s to say so. Its message keeps "fetch failed", which
 * is how the app tells an unreachable backend (auth-errors.server).
 */
const LOST_AFTER_CONNECTING = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

export function failFastWhenUnreachable(baseFetch: typeof fetch): typeof fetch {
  let unreachable: Error | null = null;
  return async (input, init) => {
    if (unreachable) throw unreachable;
    try {
      return await baseFetch(input, init);
    } catch (error) {
      // fetch rejects with a TypeError when no answer came (refused, reset, timed out, unknown host)
      if (!(error instanceof TypeError)) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const failure = Object.assign(
        new Error(`fetch failed: ${cause?.code ?? cause?.message ?? error.message}`, { cause: error }),
        {
          name: "AbortError",
        },
      );
      // a connection that was made and then lost reached the backend: later calls may still be answered
      // (a backend that refused an upload before reading it could close the connection: issue 35)
      if (!LOST_AFTER_CONNECTING.has(cause?.code ?? "")) unreachable = failure;
      throw failure;
    }
  };
}

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

/** Whether the browser sent a session (a shed request that carries one is answered 503: auth.server). */
export function hasAuthCookie(scope: RequestScope): boolean {
  return parseCookieHeader(scope.cookie).some(({ name }) => AUTH_COOKIE.test(name));
}

const AUTH_COOKIE = /^sb-.+-auth-token(\.\d+)?$/;

/** Expires this browser's auth cookies (all chunks), for when the backend can't be told about a sign-out. */
export function clearAuthCookies() {
  const scope = requestScope();
  for (const { name } of parseCookieHeader(scope.cookie)) {
    if (/^sb-.+-auth-token(-code-verifier)?(\.\d+)?$/.test(name)) {
      scope.setCookie(name, serializeCookieHeader(name, "", { path: "/", maxAge: 0, sameSite: "lax" }));
    }
  }
}
