/**
 * POST /otp: a sign-in code and link by email (the same email as
 * /magiclink), signing up an address it doesn't know unless told not to.
 */
import { prepareAndSend } from "../emails.ts";
import { badRequest, unprocessable } from "../errors.ts";
import { requestMeta } from "../guards.ts";
import { readParams, validateEmail } from "../params.ts";
import { randomPassword } from "../passwords.ts";
import { validatePkceParams } from "../pkce.ts";
import { redirectFor } from "../redirects.ts";
import { signUpWithEmail } from "../registration.ts";
import { json, type Handler } from "../router.ts";
import { findUserByEmail, isConfirmed, type UserRow } from "../users.ts";

export const otp: Handler = async (c, _state, { ctx }) => {
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
  const redirectTo = redirectFor(ctx, c);
  let user = await findUserByEmail(ctx.db, email);
  if (!user && (!createUser || cfg.disableSignup)) throw unprocessable("otp_disabled", "Signups not allowed for otp");
  if (!user || !isConfirmed(user)) {
    const { code_challenge, code_challenge_method } = p;
    const signup = {
      email,
      phone: "",
      password: randomPassword(),
      data: p.data ?? {},
      code_challenge,
      code_challenge_method,
    };
    await signUpWithEmail(ctx, signup, { redirectTo, meta: requestMeta(ctx, c) });
    if (!cfg.autoconfirm) return json(c, {});
    user = (await findUserByEmail(ctx.db, email)) as UserRow;
  }
  await prepareAndSend(ctx, user, "magiclink", { challenge: p, redirectTo });
  return json(c, {});
};
