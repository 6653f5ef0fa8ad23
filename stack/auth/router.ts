import type { Context, Hono } from "hono";
import type { ServiceContext } from "../context.ts";
import { AuthError } from "./errors.ts";
import type { Caller } from "./guards.ts";
import type { FactorWithSecret } from "./mfa.ts";
import type { FailureCounter, SlidingWindowLimiter, TokenBucketLimiter } from "./rate-limit.ts";
import type { UsedSteps } from "./totp.ts";
import type { UserRow } from "./users.ts";

/**
 * What a route of the table (api.ts) is: a method and path, the middleware
 * that runs before its handler, in order (middleware.ts), and the handler.
 * Middleware hands what it found to the handler in the route's state.
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "ALL";

/** What the middleware found out, handed to the handler. */
export interface RouteState {
  /** set by `user` */
  caller?: Caller;
  /** set by `admin` */
  adminClaims?: Record<string, unknown>;
  /** set by `loadUser`: the user the admin API's path names */
  user?: UserRow;
  /** set by `loadFactor` */
  factor?: FactorWithSecret;
}

/** What the service keeps for all requests: its context and the in-memory limits. */
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
export type Handler = (c: Context, state: RouteState, deps: AuthDeps) => Response | Promise<Response>;

export interface Route {
  method: Method | Method[];
  path: string | string[];
  use: Middleware[];
  handler: Handler;
}

export function route(method: Method | Method[], path: string | string[], use: Middleware[], handler: Handler): Route {
  return { method, path, use, handler };
}

/** Mounts a table on the app, each route running its middleware in order, then the handler. */
export function mountRoutes(app: Hono, deps: AuthDeps, routes: Route[]) {
  for (const r of routes) {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    app.on(methods, Array.isArray(r.path) ? r.path : [r.path], async (c) => {
      const state: RouteState = {};
      for (const m of r.use) await m(c, state, deps);
      return r.handler(c, state, deps);
    });
  }
}

/** The answer for a path no route serves (GoTrue's chi router: "404 page not found"). */
export const pageNotFound: Handler = () => {
  throw new AuthError(404, "not_found", "404 page not found");
};

/** The caller the `user` middleware found (a handler behind it may rely on it). */
export function callerOf(state: RouteState): Caller {
  if (!state.caller) throw new Error("route has no `user` middleware");
  return state.caller;
}

/** The user the `loadUser` middleware found. */
export function userOf(state: RouteState): UserRow {
  if (!state.user) throw new Error("route has no `loadUser` middleware");
  return state.user;
}

/** The factor the `loadFactor` middleware found. */
export function factorOf(state: RouteState): FactorWithSecret {
  if (!state.factor) throw new Error("route has no `loadFactor` middleware");
  return state.factor;
}

export const json = (c: Context, body: unknown, status = 200) => c.json(body as object, status as 200);
