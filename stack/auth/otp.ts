/**
 * One-time codes and links by email: asking for them (/otp and /magiclink
 * sign in, signing up an unknown address; /recover resets a password;
 * /resend sends a sign-up or email-change confirmation again) and redeeming
 * them (/verify: POST with a code or a token hash answers a session, GET
 * from an emailed link redirects back to the app). Wrong codes count per
 * address: after too many, the address's codes and links are void.
 */
import { prepareAndSend, prepareEmail, sendAll } from "./emails.ts";
import { AuthError, badRequest, unprocessable } from "./errors.ts";
import { requestMeta } from "./guards.ts";
import { readParams, validateEmail } from "./params.ts";
import { issueAuthCode, PKCE_PREFIX, validatePkceParams } from "./pkce.ts";
import { errorRedirect, messageRedirect, redirectFor, sessionRedirect } from "./redirects.ts";
import { json, tokenRateLimit, type Route } from "./router.ts";
import { issueSession, type SessionResponse } from "./sessions.ts";
import { randomPassword, signup } from "./signup.ts";
import { findUserByEmail, isConfirmed, type UserRow } from "./users.ts";
import {
  applyVerification,
  authMethodForType,
  invalidateCodes,
  SINGLE_CONFIRMATION_ACCEPTED,
  verifyEmailAndCode,
  verifyTokenHash,
  VERIFY_TYPES,
} from "./verify.ts";

export const otpRoutes: Route[] = [
  {
    method: "POST",
    path: "/otp",
    handler: async (c, _state, { ctx }) => {
      const cfg = ctx.config.auth;
      const p = await readParams(c, ctx.config.maxBodyBytes, "OtpParams", {
        email: "string",
        phone: "string",
        create_user: "bool",
        data: "object",
        channel: "string",
        code_challenge: "string",
        code_challenge_method: "string",
      });
      const createUser = p.create_user ?? true;
      if (p.email !== "" && p.phone !== "")
        throw badRequest("validation_failed", "Only an email address or phone number should be provided");
      if (p.email !== "" && p.channel !== "")
        throw badRequest("validation_failed", "Channel should only be specified with Phone OTP");
      validatePkceParams(p.code_challenge_method, p.code_challenge);
      if (p.phone !== "") throw badRequest("phone_provider_disabled", "Unsupported phone provider");
      if (p.email === "") throw badRequest("validation_failed", "One of email or phone must be set");
      const email = validateEmail(p.email);
      let user = await findUserByEmail(ctx.db, email);
      if (!user && (!createUser || cfg.disableSignup))
        throw unprocessable("otp_disabled", "Signups not allowed for otp");
      if (!user || !isConfirmed(user)) {
        await signup(ctx, c, {
          email,
          phone: "",
          password: randomPassword(),
          data: p.data ?? {},
          code_challenge: p.code_challenge,
          code_challenge_method: p.code_challenge_method,
        });
        if (!cfg.autoconfirm) return json(c, {});
        user = (await findUserByEmail(ctx.db, email)) as UserRow;
      }
      const redirectTo = redirectFor(ctx, c);
      await prepareAndSend(ctx, user, "magiclink", { challenge: p, redirectTo });
      return json(c, {});
    },
  },
  {
    method: "POST",
    path: "/magiclink",
    handler: async (c, _state, { ctx }) => {
      const p = await readParams(c, ctx.config.maxBodyBytes, "MagicLinkParams", { email: "string", data: "object" });
      if (p.email === "") throw unprocessable("validation_failed", "Password recovery requires an email");
      const email = validateEmail(p.email);
      const user = await findUserByEmail(ctx.db, email);
      if (!user || !isConfirmed(user)) {
        await signup(ctx, c, {
          email,
          phone: "",
          password: randomPassword(),
          data: p.data,
          code_challenge: "",
          code_challenge_method: "",
        });
        return json(c, {});
      }
      const redirectTo = redirectFor(ctx, c);
      await prepareAndSend(ctx, user, "magiclink", { redirectTo });
      return json(c, {});
    },
  },
  {
    method: "POST",
    path: "/verify",
    use: [tokenRateLimit],
    handler: async (c, _state, { ctx, otpFailures }) => {
      const cfg = ctx.config.auth;
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
        if (p.phone !== "" && p.email === "") {
          // GoTrue checks the number's format, then looks for the code: none was ever sent to a phone here
          if (!/^[1-9][0-9]{1,14}$/.test(p.phone.replace(/^\+/, "").replaceAll(" ", "")))
            throw badRequest("validation_failed", "Invalid phone number format (E.164 required)");
          if (!["sms", "phone_change", ...VERIFY_TYPES].includes(p.type))
            throw badRequest("validation_failed", "Unsupported verification type");
          throw new AuthError(403, "otp_expired", "Token has expired or is invalid");
        }
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
      let session: SessionResponse | null;
      try {
        session = await ctx.db.transaction(async (tx) => {
          const found = p.token_hash
            ? await verifyTokenHash(ctx, tx, p.type, p.token_hash)
            : await verifyEmailAndCode(ctx, tx, p.type, email, p.token);
          const user = await applyVerification(tx, found, { secureEmailChange: cfg.secureEmailChange });
          return user && issueSession(ctx, tx, user, "otp", requestMeta(ctx, c));
        });
      } catch (error) {
        // A wrong code counts against the address; after too many, its codes
        // and links are void (the answer stays the same, so guessing on learns nothing).
        if (
          email &&
          error instanceof AuthError &&
          error.code === "otp_expired" &&
          otpFailures.record(email) >= otpFailures.limit &&
          otpFailures.limit > 0
        ) {
          await invalidateCodes(ctx.db, email);
          otpFailures.reset(email);
        }
        throw error;
      }
      if (email) otpFailures.reset(email);
      // the first link of a secure email change: GoTrue's answer, no session yet
      if (!session) return json(c, { msg: SINGLE_CONFIRMATION_ACCEPTED, code: "200" });
      return json(c, session);
    },
  },
  {
    method: "GET",
    path: "/verify",
    use: [tokenRateLimit],
    handler: async (c, _state, { ctx }) => {
      const cfg = ctx.config.auth;
      const token = c.req.query("token") ?? "";
      const type = c.req.query("type") ?? "";
      const redirectTo = redirectFor(ctx, c);
      if (type === "") throw badRequest("validation_failed", "Verify requires a verification type");
      if (token === "") throw badRequest("validation_failed", "Verify requires a token or a token hash");
      const pkce = token.startsWith(PKCE_PREFIX);
      try {
        const outcome = await ctx.db.transaction(async (tx) => {
          const found = await verifyTokenHash(ctx, tx, type, token);
          const user = await applyVerification(tx, found, { secureEmailChange: cfg.secureEmailChange });
          if (!user) return { message: SINGLE_CONFIRMATION_ACCEPTED };
          if (pkce) {
            try {
              return { code: await issueAuthCode(tx, user.id, authMethodForType(found.type)) };
            } catch (e) {
              throw badRequest(
                "flow_state_not_found",
                `No associated flow state found. ${e instanceof Error ? e.message : ""}`.trim(),
              );
            }
          }
          return { session: await issueSession(ctx, tx, user, "otp", requestMeta(ctx, c)), type: found.type };
        });
        if ("message" in outcome) return c.redirect(messageRedirect(redirectTo, outcome.message as string, pkce), 303);
        if ("code" in outcome) {
          const u = new URL(redirectTo);
          u.searchParams.set("code", outcome.code as string);
          return c.redirect(u.toString(), 303);
        }
        return c.redirect(sessionRedirect(redirectTo, outcome.session as SessionResponse, { type }), 303);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        return c.redirect(errorRedirect(redirectTo, error, pkce), 303);
      }
    },
  },
  {
    method: "POST",
    path: "/recover",
    handler: async (c, _state, { ctx }) => {
      const p = await readParams(c, ctx.config.maxBodyBytes, "RecoverParams", {
        email: "string",
        code_challenge: "string",
        code_challenge_method: "string",
      });
      if (p.email === "") throw unprocessable("validation_failed", "Password recovery requires an email");
      const email = validateEmail(p.email);
      validatePkceParams(p.code_challenge_method, p.code_challenge);
      const user = await findUserByEmail(ctx.db, email);
      if (!user) return json(c, {});
      const redirectTo = redirectFor(ctx, c);
      await prepareAndSend(ctx, user, "recovery", { challenge: p, redirectTo });
      return json(c, {});
    },
  },
  {
    method: "POST",
    path: "/resend",
    handler: async (c, _state, { ctx }) => {
      const p = await readParams(c, ctx.config.maxBodyBytes, "ResendConfirmationParams", {
        type: "string",
        email: "string",
        phone: "string",
        code_challenge: "string",
        code_challenge_method: "string",
      });
      if (!["signup", "email_change", "sms", "phone_change"].includes(p.type)) {
        throw badRequest("validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
      }
      if (p.type === "sms" || p.type === "phone_change")
        throw badRequest("phone_provider_disabled", "SMS Provider could not be found");
      validatePkceParams(p.code_challenge_method, p.code_challenge);
      if (p.email === "") throw badRequest("validation_failed", "Type provided requires an email address");
      const email = validateEmail(p.email);
      const user = await findUserByEmail(ctx.db, email);
      if (!user) return json(c, {});
      if (p.type === "signup" && isConfirmed(user)) return json(c, {});
      if (p.type === "email_change" && !user.email_change) return json(c, {});
      const redirectTo = redirectFor(ctx, c);
      const mails = await ctx.db.transaction(async (tx) => {
        const kind = p.type === "signup" ? "signup" : "email_change";
        return (
          await prepareEmail(ctx, tx, user, kind, {
            challenge: p,
            redirectTo,
            newEmail: user.email_change ?? undefined,
          })
        ).mails;
      });
      await sendAll(ctx, mails);
      return json(c, {});
    },
  },
];
