import type { IncomingMessage } from "node:http";
import { Hono } from "hono";
import type { ServiceHttp, StackService } from "../context.ts";
import { preciseNow, type RequestLog } from "../request-log.ts";
import { boundBody } from "./limits.ts";
import { canonicalPath } from "./path.ts";
import { crossSiteRefusal } from "./same-origin.ts";

/**
 * The stack's gateway, in front of every service as Supabase's API gateway
 * is in front of theirs. For each request, in this order:
 *
 *  1. the path is made canonical (stack/http/path.ts) and the request carries
 *     that path from here on, so the service it resolves to, its guard and
 *     its router all read the same one;
 *  2. the service is the one whose mount the path is or is under (the longest);
 *  3. the latency setting delays it (a hosted backend's round trip);
 *  4. a local-only service (the inbox, /_stack) refuses cross-site requests and
 *     sends no CORS; every other answer carries open CORS, and preflights are
 *     answered here, unless the service answers CORS itself (functions);
 *  5. the body can't be read past the service's `maxBodyBytes`;
 *  6. the service answers; what the client still sends of a body the service
 *     did not read (a refusal before reading an upload) is read and thrown
 *     away first, up to the service's limit and for up to 30 s, as a proxy's
 *     lingering close does, so the client finishes its request and reads the
 *     answer instead of a reset connection (issue 35); an answer given before
 *     the body was read whole still closes the connection; the request log
 *     records it.
 *
 * Until `open` is called (every service built), requests get 503.
 */
export interface Gateway {
  /** the HTTP server's handler (env: what @hono/node-server passes, { incoming, outgoing }) */
  fetch(request: Request, env?: unknown): Promise<Response>;
  /** from now on, requests reach these services; `index` is what GET / answers */
  open(services: readonly StackService[], index: object): void;
  setLatency(ms: number): void;
}

export interface GatewayOptions {
  /** this machine's names besides the loopback ones (the configured host), accepted in a local-only request's Host */
  ownHosts: readonly string[];
  latencyMs: number;
  requests: RequestLog;
}

const CORS_ALLOW_HEADERS =
  "authorization, x-client-info, apikey, content-type, accept, accept-profile, content-profile, prefer, range, " +
  "x-supabase-api-version, x-upsert, x-metadata, cache-control, if-none-match, x-retry-count, x-region";
const CORS_EXPOSE_HEADERS =
  "content-range, content-location, location, x-supabase-api-version, x-sb-error-code, preference-applied, retry-after, x-total-count, etag, content-disposition, accept-ranges";
const NO_ROUTE = { message: "no Route matched with those values" };

interface Route {
  http: ServiceHttp;
  fetch(request: Request, env: unknown): Response | Promise<Response>;
}

function routeTo(http: ServiceHttp): Route {
  const root = new Hono();
  root.route(http.mount, http.app);
  root.notFound((c) => c.json(NO_ROUTE, 404));
  root.onError((error, c) => {
    console.error("[stack] unhandled error:", error);
    return c.json({ message: "An unexpected error occurred" }, 500);
  });
  return { http, fetch: (request, env) => root.fetch(request, env) };
}

export function createGateway(options: GatewayOptions): Gateway {
  let routes: Route[] | null = null;
  let index: object = {};
  let latencyMs = options.latencyMs;

  async function answer(route: Route | undefined, path: string, request: Request, env: unknown): Promise<Response> {
    if (route?.http.access === "local") {
      const refused =
        request.method === "OPTIONS" ? "cross-site preflight" : crossSiteRefusal(request, options.ownHosts);
      if (refused) {
        const message = `Refused: ${refused}. The local inbox and /_stack answer this machine's own tools and pages only.`;
        return Response.json({ message }, { status: 403 });
      }
    } else if (request.method === "OPTIONS" && !route?.http.ownCors) return preflight(request);
    if (route) {
      const forwarded = boundBody(request, route.http.maxBodyBytes);
      const response = await route.fetch(forwarded, env);
      await drainUnread(forwarded, env, route.http.maxBodyBytes);
      return response;
    }
    if (path === "/" && (request.method === "GET" || request.method === "HEAD")) return Response.json(index);
    return Response.json(NO_ROUTE, { status: 404 });
  }

  return {
    open(services, serviceIndex) {
      index = serviceIndex;
      routes = services
        .flatMap((s) => (s.http ? [routeTo(s.http)] : []))
        .sort((a, b) => b.http.mount.length - a.http.mount.length);
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    async fetch(request, env) {
      // Hono builds a router on its first request and refuses routes added after: nothing is served half-built
      if (!routes) return new Response("starting", { status: 503, headers: { "retry-after": "1" } });
      const start = preciseNow();
      const url = new URL(request.url);
      const path = canonicalPath(url.pathname);
      if (path !== url.pathname) {
        url.pathname = path;
        request = new Request(url.href, request);
      }
      const route = routes.find((r) => path === r.http.mount || path.startsWith(`${r.http.mount}/`));
      const measured = route?.http.measured !== false;
      if (measured && latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      let response: Response;
      try {
        response = await answer(route, path, request, env);
      } catch (error) {
        console.error("[stack] unhandled error:", error);
        response = Response.json({ message: "An unexpected error occurred" }, { status: 500 });
      }
      response = finish(response, request, env, route?.http.access !== "local" && !route?.http.ownCors);
      if (measured) {
        const end = preciseNow();
        options.requests.record({
          at: Date.now(),
          start,
          end,
          method: request.method,
          path,
          search: url.search,
          status: response.status,
          ms: end - start,
          errorCode: response.headers.get("x-sb-error-code") ?? undefined,
        });
      }
      return response;
    },
  };
}

function preflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": request.headers.get("origin") ?? "*",
      "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
      "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? CORS_ALLOW_HEADERS,
      "access-control-max-age": "3600",
      vary: "origin",
    },
  });
}

/** How long a refused body is read for, at most (nginx's lingering_time). */
const DRAIN_MS = 30_000;

/**
 * Reads and discards what is left of a body the service did not read (or
 * not whole), up to `limit` bytes and DRAIN_MS. A body declared larger than
 * the limit, or one the service holds a reader of, is left to the closing
 * connection.
 */
async function drainUnread(request: Request, env: unknown, limit: number): Promise<void> {
  if (!bodyUnread(env) || !request.body || request.body.locked) return;
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return;
  const reader = request.body.getReader();
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), DRAIN_MS);
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
      if (seen > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // the client went away, or the body passed the limit: the connection is closed after the answer
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the request (as the node adapter hands it over) still has body bytes nobody read. */
function bodyUnread(env: unknown): boolean {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return !!incoming && incoming.method !== "GET" && incoming.method !== "HEAD" && !incoming.complete;
}

function finish(response: Response, request: Request, env: unknown, cors: boolean): Response {
  // An answer sent before the request's body was read whole (a refusal: 400, 401, 413…) closes the
  // connection and says so (RFC 9112 §9.6). The node adapter gives up on draining an unread body
  // after 500 ms and drops the socket; a client not told that would send its next request down it
  // and get a reset (seen in edge-fuzz on a busy machine: a 1.1 MB body refused early, then the
  // next request on that connection failed with "other side closed").
  const close = response.status === 413 || bodyUnread(env);
  if (!close && !cors) return response;
  const origin = request.headers.get("origin");
  return withHeaders(response, (headers) => {
    if (close) headers.set("connection", "close");
    if (cors) {
      headers.set("access-control-allow-origin", origin ?? "*");
      headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS);
      if (origin) headers.append("vary", "origin");
    }
  });
}

/** Sets headers on a response, copying it first when its headers can't be changed (a fetch() response passed on). */
function withHeaders(response: Response, set: (headers: Headers) => void): Response {
  try {
    set(response.headers);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    set(copy.headers);
    return copy;
  }
}
