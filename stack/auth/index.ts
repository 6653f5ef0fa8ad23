import { Hono } from "hono";
import type { ServiceContext, StackService } from "../context.ts";
import { API } from "./api.ts";
import { AuthError, badRequest, errorResponse, OAuthStyleError } from "./errors.ts";
import { FailureCounter, SlidingWindowLimiter, TokenBucketLimiter } from "./rate-limit.ts";
import { mountRoutes, type AuthDeps } from "./router.ts";
import { UsedSteps } from "./totp.ts";

/**
 * Supabase Auth (GoTrue) compatible service, mounted at /auth/v1.
 *
 *   api.ts          the route table: every endpoint with its middleware, as GoTrue's api.go
 *   middleware.ts   who may call, what the path names, rate limits per IP, feature switches
 *   router.ts       what a route is, and mounting the table
 *   endpoints/      one file per endpoint, named after it; endpoints never import each other
 *
 * and what the endpoints share:
 *
 *   users.ts        auth.users rows, identities, the user JSON
 *   sessions.ts     sessions, access and refresh tokens
 *   registration.ts making an account for an email address (/signup, /otp, /magiclink)
 *   emails.ts       one-time codes, token hashes and the emails that carry them (templates.ts)
 *   redeem.ts       checking and applying emailed tokens (/verify)
 *   pkce.ts         PKCE flow state
 *   redirects.ts    where links and redirects may send people back to
 *   mfa.ts          MFA factors and challenges (totp.ts: the codes)
 *   passkey-store.ts  passkey credentials and ceremonies' challenges (webauthn.ts: the ceremonies)
 *   oauth-flow.ts   sign-in with an external provider: state, identities
 *   oauth-server.ts the OAuth 2.1 server's client registry
 *   guards.ts       Bearer tokens: who is calling
 *   params.ts       request bodies as GoTrue reads them
 *   passwords.ts    password rules and hashes
 *   rate-limit.ts   in-memory limits per IP, per address, per challenge
 *   errors.ts       GoTrue's error shapes (both API versions) and its error codes (ErrorCode)
 */
export function createAuthService(ctx: ServiceContext): StackService {
  const app = new Hono();
  app.onError((error, c) => {
    // a character Postgres can't store that got past the body's checks (a NUL in a query parameter, say) is the client's error
    const sqlState = (error as { code?: unknown }).code;
    if (sqlState === "22021" || sqlState === "22P05") {
      return errorResponse(c, badRequest("validation_failed", "The request contains a character that is not accepted"));
    }
    if (!(error instanceof AuthError) && !(error instanceof OAuthStyleError)) {
      ctx.log(
        "auth",
        `unexpected error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? error.stack : String(error)}`,
      );
    }
    return errorResponse(c, error);
  });
  mountRoutes(app, authDeps(ctx), API);
  return { name: "auth", http: { mount: "/auth/v1", app, access: "api", maxBodyBytes: ctx.config.maxBodyBytes } };
}

/** The limits and counters the service keeps in memory (the stack is one process). */
function authDeps(ctx: ServiceContext): AuthDeps {
  const auth = ctx.config.auth;
  return {
    ctx,
    tokenLimiter: new SlidingWindowLimiter(auth.tokenRequestsPerMinute, 60_000),
    otpFailures: new FailureCounter(auth.maxOtpAttempts, auth.otpExpiry * 1000),
    passwordFailures: new FailureCounter(auth.maxPasswordFailures, auth.passwordFailureWindow * 1000),
    // hosted GoTrue's burst of 30 on each
    mfaChallengeLimiter: new TokenBucketLimiter(auth.mfaRequestsPerMinute, 30),
    mfaVerifyLimiter: new TokenBucketLimiter(auth.mfaRequestsPerMinute, 30),
    mfaChallengeAttempts: new FailureCounter(auth.maxMfaAttemptsPerChallenge, auth.mfa.challengeExpiry * 1000),
    usedTotpSteps: new UsedSteps(),
  };
}
