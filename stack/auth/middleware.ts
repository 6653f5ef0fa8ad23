/**
 * The middleware of the route table, as GoTrue's middleware.go names it:
 * who may call (`user`, `notAnonymous`, `admin`), what the path names
 * (`loadUser`, `loadFactor`), rate limits per client IP, and feature
 * switches. The table lists them per route in GoTrue's order, which decides
 * the error a caller sees first.
 */
import { localProviderEnabled } from "../config.ts";
import type { ServiceContext } from "../context.ts";
import { clientIp } from "../http/client-ip.ts";
import { badRequest, forbidden, notFound, tooManyRequests, type AuthError } from "./errors.ts";
import { requireAdmin, requireUser } from "./guards.ts";
import { findFactor } from "./mfa.ts";
import type { SlidingWindowLimiter, TokenBucketLimiter } from "./rate-limit.ts";
import { callerOf, type AuthDeps, type Middleware } from "./router.ts";
import { findUserById, isUuid } from "./users.ts";

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

/** The user of the admin API's `:id` (GoTrue's loadUser); after `admin`. */
export const loadUser: Middleware = async (c, state, { ctx }) => {
  const id = c.req.param("id") ?? "";
  if (!isUuid(id)) throw notFound("validation_failed", "user_id must be an UUID");
  const found = await findUserById(ctx.db, id);
  if (!found) throw notFound("user_not_found", "User not found");
  state.user = found;
};

/** The `:factor_id` of the user `loadUser` found, or else of the caller (GoTrue's loadFactor). */
export const loadFactor: Middleware = async (c, state, { ctx }) => {
  const owner = state.user ?? callerOf(state).user;
  state.factor = await findFactor(ctx.db, owner, c.req.param("factor_id") ?? "");
};

/** GoTrue's limitHandler: one request from the client's IP, or 429. */
function limitHandler(pick: (deps: AuthDeps) => SlidingWindowLimiter | TokenBucketLimiter): Middleware {
  return (c, _state, deps) => {
    if (!pick(deps).allow(clientIp(c, deps.ctx.config.trustedProxies)))
      throw tooManyRequests("over_request_rate_limit", "Request rate limit reached");
  };
}

/** Token requests per IP (GoTrue's limitHandler on /token and /verify). */
export const tokenRateLimit = limitHandler((deps) => deps.tokenLimiter);
/** MFA challenges per IP (GoTrue's FactorChallenge limiter). */
export const challengeRateLimit = limitHandler((deps) => deps.mfaChallengeLimiter);
/** MFA verifications per IP (GoTrue's FactorVerify limiter). */
export const verifyFactorRateLimit = limitHandler((deps) => deps.mfaVerifyLimiter);

/** A feature switch: answers `error()` when `enabled(ctx)` is false (GoTrue's requireXEnabled). */
export function feature(enabled: (ctx: ServiceContext) => boolean, error: () => AuthError): Middleware {
  return (_c, _state, { ctx }) => {
    if (!enabled(ctx)) throw error();
  };
}

/** Passkey sign-in (GOTRUE_PASSKEY_ENABLED; hosted default: off). */
export const passkeys = feature(
  (ctx) => ctx.config.auth.passkey.enabled,
  () => notFound("passkey_disabled", "Passkeys are disabled"),
);

/** The OAuth 2.1 server's client registry (GOTRUE_OAUTH_SERVER_ENABLED; hosted default: off). */
export const oauthServer = feature(
  (ctx) => ctx.config.auth.oauthServer.enabled,
  () => notFound("feature_disabled", "OAuth server is disabled"),
);

/** SAML SSO: never on here (docs/decisions/0013), so it answers as a GoTrue with it off. */
export const saml = feature(
  () => false,
  () => notFound("saml_provider_disabled", "SAML 2.0 is disabled"),
);

/** Manual identity linking: never on here, as above. */
export const manualLinking = feature(
  () => false,
  () => notFound("manual_linking_disabled", "Manual linking is disabled"),
);

/** The built-in `local` OAuth provider's consent page (on for a local site URL). */
export const localProvider = feature(
  (ctx) => localProviderEnabled(ctx.config.auth),
  () => badRequest("validation_failed", "Unsupported provider: provider local could not be found"),
);
