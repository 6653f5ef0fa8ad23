/**
 * POST /token: a session for a password, a refresh token or a PKCE code
 * (GoTrue's grant types). id_token and web3 answer as a GoTrue with no such
 * provider does. Token requests are rate limited per IP (after the grant
 * type's checks, as in GoTrue), and wrong passwords per address.
 */
import type { Context } from "hono";
import type { ServiceContext } from "../../context.ts";
import { AuthError, badRequest, tooManyRequests, unprocessable } from "../errors.ts";
import { requestMeta } from "../guards.ts";
import { tokenRateLimit } from "../middleware.ts";
import { readParams } from "../params.ts";
import { checkPasswordStrength, comparePassword, hashPassword, randomPassword } from "../passwords.ts";
import { pkceGrant } from "../pkce.ts";
import { json, type AuthDeps, type Handler } from "../router.ts";
import { issueSession, refreshGrant, type SessionResponse } from "../sessions.ts";
import { findUserByEmail, isBanned, isConfirmed } from "../users.ts";

export const token: Handler = async (c, state, deps) => {
  const { ctx } = deps;
  const grantType = c.req.query("grant_type") ?? "";
  if (grantType === "web3") throw unprocessable("web3_provider_disabled", "Web3 provider is disabled");
  if (grantType === "id_token") return idTokenGrant(ctx, c);
  if (!["password", "refresh_token", "pkce"].includes(grantType)) {
    throw badRequest("invalid_credentials", "unsupported_grant_type");
  }
  await tokenRateLimit(c, state, deps);
  const maxBody = ctx.config.maxBodyBytes;
  let session: SessionResponse;
  if (grantType === "password") {
    const p = await readParams(c, maxBody, "PasswordGrantParams", {
      email: "string",
      phone: "string",
      password: "string",
    });
    session = await passwordGrant(deps, c, p);
  } else if (grantType === "refresh_token") {
    const p = await readParams(c, maxBody, "RefreshTokenGrantParams", { refresh_token: "string" });
    session = await refreshGrant(ctx, p.refresh_token);
  } else {
    const p = await readParams(c, maxBody, "PKCEGrantParams", { auth_code: "string", code_verifier: "string" });
    session = await pkceGrant(ctx, p.auth_code, p.code_verifier, requestMeta(ctx, c));
  }
  return json(c, session);
};

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

/** The issuer GoTrue names for an ID-token provider. */
const ISSUERS: Record<string, string> = {
  google: "https://accounts.google.com",
  apple: "https://appleid.apple.com",
  azure: "https://login.microsoftonline.com/common/v2.0",
  facebook: "https://www.facebook.com",
  keycloak: "",
  kakao: "https://kauth.kakao.com",
};

/**
 * grant_type=id_token: ID tokens can't be checked offline (the provider's
 * keys are fetched by OIDC discovery), so a configured provider answers as a
 * token that failed verification, and any other as not enabled.
 */
async function idTokenGrant(ctx: ServiceContext, c: Context): Promise<never> {
  const p = await readParams(c, ctx.config.maxBodyBytes, "IdTokenGrantParams", {
    id_token: "string",
    access_token: "string",
    nonce: "string",
    provider: "string",
    client_id: "string",
    issuer: "string",
    link_identity: "bool",
  });
  const provider = p.provider;
  if (provider === "" && p.issuer === "") {
    throw badRequest("validation_failed", "provider or client_id and issuer required");
  }
  if (p.id_token === "") throw badRequest("validation_failed", "id_token required");
  if (provider && ctx.config.auth.externalProviders[provider]) {
    throw badRequest("validation_failed", "Bad ID token");
  }
  const issuer = p.issuer || ISSUERS[provider] || provider;
  throw badRequest("provider_disabled", `Provider (issuer ${JSON.stringify(issuer)}) is not enabled`);
}
