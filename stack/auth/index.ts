import { Hono } from "hono";
import type { ServiceContext, StackService } from "../context.ts";
import { mountAdminRoutes } from "./admin.ts";
import { AuthError, badRequest, errorResponse, OAuthStyleError } from "./errors.ts";
import { mountDisabledFeatureRoutes } from "./disabled.ts";
import { mountMfaRoutes } from "./mfa.ts";
import { mountOAuthRoutes } from "./oauth.ts";
import { FailureCounter, SlidingWindowLimiter } from "./rate-limit.ts";
import { mountRoutes, type AuthDeps } from "./router.ts";
import { oauthServerRoutes } from "./oauth-server.ts";
import { passkeyRoutes } from "./passkeys.ts";
import { accountRoutes } from "./account.ts";
import { otpRoutes } from "./otp.ts";
import { settingsRoutes } from "./settings.ts";
import { signupRoutes } from "./signup.ts";
import { tokenRoutes } from "./token.ts";

/**
 * Supabase Auth (GoTrue) compatible service, mounted at /auth/v1.
 *
 *   router.ts     the route table: routes with their middleware (user, admin, feature switches, rate limit)
 *   passkeys.ts   /passkeys and /admin/users/:id/passkeys (on the route table; webauthn.ts checks the ceremonies)
 *   oauth-server.ts  /admin/oauth/clients and dynamic client registration (on the route table)
 *   signup.ts     /signup (email and password, or anonymous)
 *   token.ts      /token (password, refresh token and PKCE grants)
 *   otp.ts        /otp, /magiclink, /recover, /resend (codes and links by email) and /verify
 *   account.ts    the signed-in user: /user, /reauthenticate, /logout
 *   settings.ts   /settings
 *   admin.ts      /admin/users, /admin/generate_link, /invite (service role only)
 *   mfa.ts        /factors (TOTP enroll, challenge, verify, unenroll) and /admin/users/:id/factors
 *   oauth.ts      /authorize, /callback and the built-in `local` provider's consent page
 *   sessions.ts   sessions, access and refresh tokens
 *   pkce.ts       PKCE flow state
 *   emails.ts     one-time codes, token hashes and the emails that carry them
 *   verify.ts     checking and applying emailed tokens
 *   templates.ts  email templates
 *   errors.ts     GoTrue's error shapes (both API versions) and its error codes (ErrorCode)
 */
export function createAuthService(ctx: ServiceContext): StackService {
  const app = new Hono();
  const limiter = new SlidingWindowLimiter(ctx.config.auth.tokenRequestsPerMinute, 60_000);

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

  app.get("/health", (c) =>
    c.json({
      version: "teamboard-local",
      name: "GoTrue",
      description: "GoTrue is a user registration and authentication API",
    }),
  );
  app.get("/.well-known/jwks.json", (c) => {
    c.header("cache-control", "public, max-age=600");
    return c.json(ctx.keys.jwks);
  });

  const auth = ctx.config.auth;
  const deps: AuthDeps = {
    ctx,
    tokenLimiter: limiter,
    otpFailures: new FailureCounter(auth.maxOtpAttempts, auth.otpExpiry * 1000),
    passwordFailures: new FailureCounter(auth.maxPasswordFailures, auth.passwordFailureWindow * 1000),
  };
  mountRoutes(app, deps, [...oauthServerRoutes, ...passkeyRoutes]);
  mountDisabledFeatureRoutes(app, ctx);
  mountMfaRoutes(app, ctx);
  mountAdminRoutes(app, ctx);
  mountRoutes(app, deps, [...signupRoutes, ...tokenRoutes, ...otpRoutes, ...accountRoutes, ...settingsRoutes]);
  mountOAuthRoutes(app, ctx);

  app.all("*", (c) => errorResponse(c, new AuthError(404, "not_found", "404 page not found")));
  return { name: "auth", http: { mount: "/auth/v1", app, access: "api", maxBodyBytes: ctx.config.maxBodyBytes } };
}
