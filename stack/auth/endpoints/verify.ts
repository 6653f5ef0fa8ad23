/**
 * /verify: redeeming an emailed code or link (redeem.ts). POST with a code
 * (and the address) or a token hash answers a session; GET, from a link in
 * an email, redirects back to the app with a session, a PKCE code or an
 * error. Wrong codes count per address: after too many, the address's codes
 * and links are void (the answer stays the same, so guessing on learns
 * nothing).
 */
import type { Context } from "hono";
import type { ServiceContext } from "../../context.ts";
import { AuthError, badRequest, unprocessable } from "../errors.ts";
import { requestMeta } from "../guards.ts";
import { readParams, validateEmail } from "../params.ts";
import { issueAuthCode, PKCE_PREFIX } from "../pkce.ts";
import {
  applyVerification,
  authMethodForType,
  invalidateCodes,
  SINGLE_CONFIRMATION_ACCEPTED,
  verifyEmailAndCode,
  verifyTokenHash,
  VERIFY_TYPES,
} from "../redeem.ts";
import { errorRedirect, messageRedirect, redirectFor, sessionRedirect } from "../redirects.ts";
import { json, type Handler } from "../router.ts";
import { issueSession, type SessionResponse } from "../sessions.ts";

/** POST /verify */
export const verify: Handler = async (c, _state, { ctx, otpFailures }) => {
  const p = await readVerifyParams(ctx, c);
  const redeem = () =>
    ctx.db.transaction(async (tx) => {
      const found = p.tokenHash
        ? await verifyTokenHash(ctx, tx, p.type, p.tokenHash)
        : await verifyEmailAndCode(ctx, tx, p.type, p.email, p.token);
      const user = await applyVerification(tx, found, { secureEmailChange: ctx.config.auth.secureEmailChange });
      return user && issueSession(ctx, tx, user, "otp", requestMeta(ctx, c));
    });
  const session = await redeem().catch(async (error: unknown) => {
    // a wrong code counts against the address; after too many, its codes and links are void
    const wrongCode = p.email && error instanceof AuthError && error.code === "otp_expired";
    if (wrongCode && otpFailures.record(p.email) >= otpFailures.limit && otpFailures.limit > 0) {
      await invalidateCodes(ctx.db, p.email);
      otpFailures.reset(p.email);
    }
    throw error;
  });
  if (p.email) otpFailures.reset(p.email);
  // the first link of a secure email change: GoTrue's answer, no session yet
  if (!session) return json(c, { msg: SINGLE_CONFIRMATION_ACCEPTED, code: "200" });
  return json(c, session);
};

/** The body of POST /verify, checked in GoTrue's order: a code with an email, or a token hash alone. */
async function readVerifyParams(ctx: ServiceContext, c: Context) {
  const p = await readParams(c, ctx.config.maxBodyBytes, "VerifyParams", {
    type: "string",
    token: "string",
    token_hash: "string",
    email: "string",
    phone: "string",
    redirect_to: "string",
  });
  if (p.type === "") throw badRequest("validation_failed", "Verify requires a verification type");
  if ((p.token === "" && p.token_hash === "") || (p.token !== "" && p.token_hash !== "")) {
    throw badRequest("validation_failed", "Verify requires either a token or a token hash");
  }
  let email = "";
  if (p.token !== "") {
    if (p.phone !== "" && p.email === "") phoneCode(p.phone, p.type);
    if (!(p.phone === "" && p.email !== "")) {
      throw badRequest("validation_failed", "Only an email address or phone number should be provided on verify");
    }
    try {
      email = validateEmail(p.email);
    } catch {
      throw unprocessable("validation_failed", "Invalid email format");
    }
  } else if (p.email !== "" || p.phone !== "" || p.redirect_to !== "") {
    throw badRequest("validation_failed", "Only the token_hash and type should be provided");
  }
  if (!(VERIFY_TYPES as readonly string[]).includes(p.type)) {
    throw badRequest(
      "validation_failed",
      p.token_hash ? "Invalid email verification type" : "Unsupported verification type",
    );
  }
  return { type: p.type, token: p.token, tokenHash: p.token_hash, email };
}

/** GoTrue checks the number's format, then looks for the code: none was ever sent to a phone here. */
function phoneCode(phone: string, type: string): never {
  if (!/^[1-9][0-9]{1,14}$/.test(phone.replace(/^\+/, "").replaceAll(" ", "")))
    throw badRequest("validation_failed", "Invalid phone number format (E.164 required)");
  if (!["sms", "phone_change", ...VERIFY_TYPES].includes(type))
    throw badRequest("validation_failed", "Unsupported verification type");
  throw new AuthError(403, "otp_expired", "Token has expired or is invalid");
}

/** GET /verify: an emailed link. */
export const verifyLink: Handler = async (c, _state, { ctx }) => {
  const token = c.req.query("token") ?? "";
  const type = c.req.query("type") ?? "";
  const redirectTo = redirectFor(ctx, c);
  if (type === "") throw badRequest("validation_failed", "Verify requires a verification type");
  if (token === "") throw badRequest("validation_failed", "Verify requires a token or a token hash");
  const pkce = token.startsWith(PKCE_PREFIX);
  try {
    const outcome: LinkOutcome = await ctx.db.transaction(async (tx): Promise<LinkOutcome> => {
      const found = await verifyTokenHash(ctx, tx, type, token);
      const user = await applyVerification(tx, found, { secureEmailChange: ctx.config.auth.secureEmailChange });
      if (!user) return { message: SINGLE_CONFIRMATION_ACCEPTED };
      if (pkce) return { code: await authCodeFor(tx, user.id, authMethodForType(found.type)) };
      return { session: await issueSession(ctx, tx, user, "otp", requestMeta(ctx, c)) };
    });
    if ("message" in outcome) return c.redirect(messageRedirect(redirectTo, outcome.message, pkce), 303);
    if ("code" in outcome) {
      const u = new URL(redirectTo);
      u.searchParams.set("code", outcome.code);
      return c.redirect(u.toString(), 303);
    }
    return c.redirect(sessionRedirect(redirectTo, outcome.session, { type }), 303);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    return c.redirect(errorRedirect(redirectTo, error, pkce), 303);
  }
};

/** Where a link sends the browser: a message (first half of a secure email change), a PKCE code, or a session. */
type LinkOutcome = { message: string } | { code: string } | { session: SessionResponse };

async function authCodeFor(...args: Parameters<typeof issueAuthCode>): Promise<string> {
  try {
    return await issueAuthCode(...args);
  } catch (e) {
    throw badRequest(
      "flow_state_not_found",
      `No associated flow state found. ${e instanceof Error ? e.message : ""}`.trim(),
    );
  }
}
