/**
 * POST /token: a session for a password, a refresh token or a PKCE code
 * (GoTrue's grant types; id_token and web3 answer as disabled.ts says).
 * Token requests are rate limited per IP, and wrong passwords per address.
 */
import type { Context } from "hono";
import { idTokenGrant, web3Grant } from "./disabled.ts";
import { AuthError, badRequest, tooManyRequests, unprocessable } from "./errors.ts";
import { requestMeta } from "./guards.ts";
import { readParams } from "./params.ts";
import { checkPasswordStrength, comparePassword, hashPassword } from "./passwords.ts";
import { pkceGrant } from "./pkce.ts";
import { json, tokenRateLimit, type AuthDeps, type Route } from "./router.ts";
import { issueSession, refreshGrant, type SessionResponse } from "./sessions.ts";
import { randomPassword } from "./signup.ts";
import { findUserByEmail, isBanned, isConfirmed } from "./users.ts";

export const tokenRoutes: Route[] = [
  {
    method: "POST",
    path: "/token",
    handler: async (c, state, deps) => {
      const { ctx } = deps;
      const grantType = c.req.query("grant_type") ?? "";
      if (grantType === "web3") web3Grant();
      if (grantType === "id_token") return idTokenGrant(ctx, c);
      if (!["password", "refresh_token", "pkce"].includes(grantType)) {
        throw badRequest("invalid_credentials", "unsupported_grant_type");
      }
      // the rate limit comes after the grant type's checks, as in GoTrue
      await tokenRateLimit(c, state, deps);
      let session: SessionResponse;
      if (grantType === "password") {
        const p = await readParams(c, ctx.config.maxBodyBytes, "PasswordGrantParams", {
          email: "string",
          phone: "string",
          password: "string",
        });
        session = await passwordGrant(deps, c, p);
      } else if (grantType === "refresh_token") {
        const p = await readParams(c, ctx.config.maxBodyBytes, "RefreshTokenGrantParams", { refresh_token: "string" });
        session = await refreshGrant(ctx, p.refresh_token);
      } else {
        const p = await readParams(c, ctx.config.maxBodyBytes, "PKCEGrantParams", {
          auth_code: "string",
          code_verifier: "string",
        });
        session = await pkceGrant(ctx, p.auth_code, p.code_verifier, requestMeta(ctx, c));
      }
      return json(c, session);
    },
  },
];

/**
 * Compared against when the address has no password, so both cases take one
 * bcrypt comparison (one hash per cost, made on first use).
 */
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = hashPassword(randomPassword(), cost)));
  return hash;
}

async function passwordGrant(
  { ctx, passwordFailures }: AuthDeps,
  c: Context,
  p: { email: string; phone: string; password: string },
): Promise<SessionResponse> {
  const cfg = ctx.config.auth;
  if (p.email !== "" && p.phone !== "") {
    throw badRequest("validation_failed", "Only an email address or phone number should be provided on login.");
  }
  if (p.phone !== "") throw unprocessable("phone_provider_disabled", "Phone logins are disabled");
  if (p.email === "") throw badRequest("validation_failed", "missing email or phone");
  const account = p.email.toLowerCase();
  if (passwordFailures.reached(account)) throw tooManyRequests("over_request_rate_limit", "Request rate limit reached");
  const user = await findUserByEmail(ctx.db, p.email);
  const hash = user?.encrypted_password || (await dummyHash(cfg.bcryptCost));
  const ok = (await comparePassword(p.password, hash)) && !!user?.encrypted_password;
  if (!user || !ok) {
    passwordFailures.record(account);
    throw badRequest("invalid_credentials", "Invalid login credentials");
  }
  passwordFailures.reset(account);
  // only someone who knows the password learns that the account is banned
  if (isBanned(user)) throw badRequest("user_banned", "User is banned");
  let weak: { message: string; reasons: string[] } | undefined;
  try {
    checkPasswordStrength(p.password, cfg);
  } catch (e) {
    if (e instanceof AuthError && e.extra.weakPasswordReasons)
      weak = { message: e.message, reasons: e.extra.weakPasswordReasons };
  }
  if (!isConfirmed(user)) throw badRequest("email_not_confirmed", "Email not confirmed");
  const session = await ctx.db.transaction((tx) => issueSession(ctx, tx, user, "password", requestMeta(ctx, c)));
  if (weak) session.weak_password = weak;
  return session;
}
