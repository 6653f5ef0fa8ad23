/** POST /magiclink: a sign-in link by email, signing up an address it doesn't know. */
import { prepareAndSend } from "../emails.ts";
import { unprocessable } from "../errors.ts";
import { requestMeta } from "../guards.ts";
import { readParams, validateEmail } from "../params.ts";
import { randomPassword } from "../passwords.ts";
import { redirectFor } from "../redirects.ts";
import { signUpWithEmail } from "../registration.ts";
import { json, type Handler } from "../router.ts";
import { findUserByEmail, isConfirmed } from "../users.ts";

export const magicLink: Handler = async (c, _state, { ctx }) => {
  const p = await readParams(c, ctx.config.maxBodyBytes, "MagicLinkParams", { email: "string", data: "object" });
  if (p.email === "") throw unprocessable("validation_failed", "Password recovery requires an email");
  const email = validateEmail(p.email);
  const user = await findUserByEmail(ctx.db, email);
  const redirectTo = redirectFor(ctx, c);
  if (!user || !isConfirmed(user)) {
    const signup = {
      email,
      phone: "",
      password: randomPassword(),
      data: p.data,
      code_challenge: "",
      code_challenge_method: "",
    };
    await signUpWithEmail(ctx, signup, { redirectTo, meta: requestMeta(ctx, c) });
    return json(c, {});
  }
  await prepareAndSend(ctx, user, "magiclink", { redirectTo });
  return json(c, {});
};
