import type { Context, Hono } from "hono";
import type { ServiceContext } from "../context.ts";
import { clientIp } from "../http/client-ip.ts";
import { AuthError, forbidden, tooManyRequests } from "./errors.ts";
import { requireAdmin, requireUser, type Caller } from "./guards.ts";
import type { FailureCounter, SlidingWindowLimiter, TokenBucketLimiter } from "./rate-limit.ts";
import type { UsedSteps } from "./totp.ts";

/**
 * The auth service's routes as a table: each endpoint family (a module)
 * lists its routes with the middleware that runs before the handler, in
 * GoTrue's order (its chi router applies `requireAuthentication`,
 * `requireAdminCredentials`, `requireXEnabled` and `limitHandler` in a
 * per-route order that decides which error a caller sees first).
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What the middleware found out, handed to the handler. */
export interface RouteState {
  /** set by the `user` middleware */
  caller?: Caller;
  /** set by the `admin` middleware */
  adminClaims?: Record<string, unknown>;
}

export interface AuthDeps {
  ctx: ServiceContext;
  /** token requests per IP (GOTRUE_RATE_LIMIT_TOKEN_PER_MINUTE) */
  tokenLimiter: SlidingWindowLimiter;
  /** wrong one-time codes per address: too many void its codes and links */
  otpFailures: FailureCounter;
  /** wrong passwords per address: too many lock it for a while */
  passwordFailures: FailureCounter;
  /** MFA challenges and verifications per IP (GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY), one bucket each */
  mfaChallengeLimiter: TokenBucketLimiter;
  mfaVerifyLimiter: TokenBucketLimiter;
  /** codes checked per MFA challenge: past the limit the challenge is void */
  mfaChallengeAttempts: FailureCounter;
  /** the last TOTP step each factor took a code for */
  usedTotpSteps: UsedSteps;
}

export type Middleware = (c: Context, state: RouteState, deps: AuthDeps) => void | Promise<void>;

export interface Route {
  method: Method | Method[];
  path: string;
  use?: Middleware[];
  handler: (c: Context, state: RouteState, deps: AuthDeps) => Response | Promise<Response>;
}

/** A signed-in user's Bearer token (GoTrue's requireAuthentication). */
export const user: Middleware = async (c, state, { ctx }) => {
  state.caller = await requireUser(ctx, c);
};

/** Not an anonymous user (GoTrue's requireNotAnonymous); after `user`. */
export const notAnonymous: Middleware = (_c, state) => {
  if (state.caller?.claims.is_anonymous === true)
    throw forbidden("no_authorization", "Anonymous user not allowed to perform these actions");
};

/** The service role (GoTrue's requireAdminCredentials). */
export const admin: Middleware = async (c, state, { ctx }) => {
  state.adminClaims = await requireAdmin(ctx, c);
};

/** Token requests per IP (GoTrue's limitHandler on /token and /verify). */
export const tokenRateLimit: Middleware = (c, _state, { ctx, tokenLimiter }) => {
  if (!tokenLimiter.allow(clientIp(c, ctx.config.trustedProxies)))
    throw tooManyRequests("over_request_rate_limit", "Request rate limit reached");
};

/** A feature switch: answers `error()` when `enabled(ctx)` is false (GoTrue's requireXEnabled). */
export function feature(enabled: (ctx: ServiceContext) => boolean, error: () => AuthError): Middleware {
  return (_c, _state, { ctx }) => {
    if (!enabled(ctx)) throw error();
  };
}

/** The caller the `user` middleware found (a handler behind it may rely on it). */
export function callerOf(state: RouteState): Caller {
  if (!state.caller) throw new Error("route has no `user` middleware");
  return state.caller;
}

/** Mounts a table on the app, each route running its middleware in order, then the handler. */
export function mountRoutes(app: Hono, deps: AuthDeps, routes: Route[]) {
  for (const route of routes) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    app.on(methods, route.path, async (c) => {
      const state: RouteState = {};
      for (const m of route.use ?? []) await m(c, state, deps);
      return route.handler(c, state, deps);
    });
  }
}

export const json = (c: Context, body: unknown, status = 200) => c.json(body as object, status as 200);
