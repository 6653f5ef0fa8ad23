import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import onHeaders from "on-headers";
import { notAFormRefusal } from "./form-bodies.server";
import { crossSiteRefusal, fetchSource, nodeSource } from "./same-origin.server";

/**
 * One request's scope: what the app knows and owes about the request it is
 * handling, shared by the action and every loader that run for it. The
 * server opens it once per request (server.mjs and the Vite dev server
 * through `serveInRequestScope`, in-process callers such as the route tests
 * and the benchmarks through `handleInRequestScope`); app code reaches it with
 * `requestScope()`, never through arguments. It holds
 * - the request's id, and whether the production server shed it;
 * - the lookups memoised for the request (`remember`): the backend client
 *   (supabase.server), the signed-in person's claims (auth.server), the team
 *   and project behind the URL (teams.server, projects.server);
 * - the outgoing headers: every Set-Cookie the request produced (a refreshed
 *   session, a flash message) and the no-cache headers that come with them.
 *
 * The outgoing headers leave through one door: `writeInto`, called by the
 * server's hook just before a response's head is sent, whatever the app
 * answered (a page, a single-fetch data response, an action's answer, a
 * redirect returned or thrown, an error page, a 404, a resource route).
 * Route code never carries cookie headers. docs/decisions/0025-request-scope.md
 * says why this is a server hook and not entry.server's. The same two
 * functions refuse posts from another origin before anything else runs
 * (same-origin.server.ts).
 */
export class RequestScope {
  /** the server's id for the request (the access log's, X-Request-Id's, the 500 page's), or a fresh one */
  readonly id: string;
  /** the production server shed the request (too many in flight): answered without calling the backend */
  readonly shed: boolean;
  /** the Cookie header the browser sent */
  readonly cookie: string;
  /**
   * the address the request counts against for per-address limits (server.mjs's, as far as
   * TRUST_PROXY believes X-Forwarded-For); undefined for this machine itself and in-process callers
   */
  readonly client: string | undefined;
  /** set once an unexpected error was logged (entry.server's handleError): the 500 page shows it */
  errorId: string | null = null;
  /**
   * What a form sent, kept when its action found the backend unreachable
   * (http.server's `keepingTheForm`): the loaders of the same request fail
   * as well, and their 503 page shows the form again with these values.
   */
  keptForm: { fields: Record<string, string>; files: string[] } | null = null;
  /** Set-Cookie lines by cookie name: the last one written wins (a session may be written more than once) */
  private readonly cookies = new Map<string, string>();
  /** the headers that come with them (@supabase/ssr's no-cache headers) */
  private readonly headers = new Map<string, string>();
  private readonly memo = new Map<string, unknown>();
  private sent = false;
  /** aborted once the request's answer has gone out: its backend reads still in flight are cancelled */
  private readonly reads = new AbortController();

  constructor({ cookie, id, shed, client }: ScopeInit = {}) {
    this.id = id || crypto.randomUUID().slice(0, 8);
    this.shed = shed === true;
    this.cookie = cookie ?? "";
    this.client = client || undefined;
  }

  /**
   * The signal the request's backend client sends every fetch with
   * (supabase.server): a read still in flight when the answer is decided —
   * a sibling loader's, after another one threw a 404 — is cancelled, and
   * logs nothing for a request that is over.
   */
  get signal(): AbortSignal {
    return this.reads.signal;
  }

  /** The answer has gone out (or the browser went away): cancel what the request still waits for. */
  end() {
    if (!this.reads.signal.aborted) this.reads.abort(new DOMException("The request was answered", "AbortError"));
  }

  /** Adds (or replaces) a cookie every response of this request sets. */
  setCookie(name: string, line: string) {
    if (this.sent) console.error(`[scope ${this.id}] cookie ${name} set after the response's head was sent: lost`);
    this.cookies.set(name, line);
  }

  /** A header that goes with the cookies (cache headers). */
  setHeader(name: string, value: string) {
    this.headers.set(name, value);
  }

  /** The Set-Cookie lines so far. */
  setCookies(): string[] {
    return [...this.cookies.values()];
  }

  /**
   * The request's one `make()` for `key`: the first caller makes it, later
   * callers (other loaders of the same request) get the same value. A
   * promise is kept as it is, so callers share one round trip.
   */
  remember<T>(key: string, make: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const made = make();
    this.memo.set(key, made);
    return made;
  }

  /**
   * The door: the request's cookies and their headers, written over a
   * response's own. A Set-Cookie the response already has for one of the
   * request's cookies is replaced (the request's is the latest); others stay.
   */
  writeInto(target: HeaderTarget) {
    this.sent = true;
    if (this.cookies.size === 0 && this.headers.size === 0) return;
    const own = target.getSetCookies().filter((line) => !this.cookies.has(cookieName(line)));
    target.setSetCookies([...own, ...this.cookies.values()]);
    for (const [name, value] of this.headers) target.set(name, value);
  }
}

export interface ScopeInit {
  cookie?: string | null;
  id?: string;
  shed?: boolean;
  client?: string;
}

/** What the door writes into: a fetch `Headers` or a Node response, through `headersTarget` / `nodeTarget`. */
export interface HeaderTarget {
  getSetCookies(): string[];
  setSetCookies(lines: string[]): void;
  set(name: string, value: string): void;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** The scope of the request being handled; outside one (a server that didn't open it) a loud error. */
export function requestScope(): RequestScope {
  const scope = scopes.getStore();
  if (!scope) {
    throw new Error(
      "No request scope: the server must handle every request through serveInRequestScope or handleInRequestScope (app/lib/request-scope.server.ts)",
    );
  }
  return scope;
}

/** The scope, or null outside one (for code that also runs outside requests: logging an error). */
export function currentScope(): RequestScope | null {
  return scopes.getStore() ?? null;
}

/**
 * The id an unexpected error is logged under: the request's (server.mjs: its
 * access log line and X-Request-Id carry the same id), so an operator finds
 * the request a person quotes from the 500 page; a fresh one outside requests.
 */
export function errorIdForThisRequest(): string {
  return currentScope()?.id ?? crypto.randomUUID().slice(0, 8);
}

/** Runs `handle` inside `scope` (the route tests; the servers go through the two functions below). */
export function runInRequestScope<T>(scope: RequestScope, handle: () => T): T {
  return scopes.run(scope, handle);
}

/**
 * For Node servers (server.mjs, the Vite dev server): handles one request
 * inside a new scope (`next` passes it on to Remix), and writes the scope's
 * outgoing headers into the response just before its head is sent.
 */
export function serveInRequestScope(
  req: IncomingMessage,
  res: ServerResponse,
  init: Omit<ScopeInit, "cookie">,
  next: () => unknown,
): void {
  // a post from another site or port, or one whose body isn't a form, is refused before Remix or any route
  // sees it (same-origin.server, form-bodies.server)
  const refusal =
    crossSiteRefusal(nodeSource(req), req.url ?? "/") ??
    notAFormRefusal(req.method ?? "GET", req.headers["content-type"]);
  if (refusal) {
    res.writeHead(refusal.status, refusal.headers);
    res.end(refusal.body);
    return;
  }
  const scope = new RequestScope({ ...init, cookie: req.headers.cookie });
  onHeaders(res, () => scope.writeInto(nodeTarget(res)));
  // sent in full, or the connection went away: nothing the request still reads can matter
  res.on("close", () => scope.end());
  scopes.run(scope, next);
}

/**
 * For in-process callers of the built app's fetch handler (the page
 * benchmarks): the same scope and door, around a `Request → Response`.
 */
export async function handleInRequestScope(
  request: Request,
  init: Omit<ScopeInit, "cookie">,
  handle: () => Promise<Response>,
): Promise<Response> {
  const refusal =
    crossSiteRefusal(fetchSource(request), new URL(request.url).pathname) ??
    notAFormRefusal(request.method, request.headers.get("Content-Type"));
  if (refusal) return new Response(refusal.body, { status: refusal.status, headers: refusal.headers });
  const scope = new RequestScope({ ...init, cookie: request.headers.get("Cookie") });
  const response = await scopes.run(scope, handle);
  // a response's own headers may be immutable (one passed through from fetch)
  const headers = new Headers(response.headers);
  scope.writeInto(headersTarget(headers));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function headersTarget(headers: Headers): HeaderTarget {
  return {
    getSetCookies: () => headers.getSetCookie(),
    setSetCookies(lines) {
      headers.delete("Set-Cookie");
      for (const line of lines) headers.append("Set-Cookie", line);
    },
    set: (name, value) => headers.set(name, value),
  };
}

function nodeTarget(res: ServerResponse): HeaderTarget {
  return {
    getSetCookies() {
      const value = res.getHeader("Set-Cookie");
      return value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
    },
    setSetCookies: (lines) => void res.setHeader("Set-Cookie", lines),
    set: (name, value) => void res.setHeader(name, value),
  };
}

function cookieName(setCookie: string): string {
  return setCookie.slice(0, setCookie.indexOf("=")).trim();
}
