/** POST /resend: a sign-up or email-change confirmation again (nothing, and the same answer, when none is pending). */
import { prepareEmail, sendAll } from "../emails.ts";
import { badRequest } from "../errors.ts";
import { readParams, validateEmail } from "../params.ts";
import { validatePkceParams } from "../pkce.ts";
import { redirectFor } from "../redirects.ts";
import { json, type Handler } from "../router.ts";
import { findUserByEmail, isConfirmed } from "../users.ts";

export const resend: Handler = async (c, _state, { ctx }) => {
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
  const kind = p.type === "signup" ? "signup" : "email_change";
  const mails = await ctx.db.transaction(
    async (tx) =>
      (await prepareEmail(ctx, tx, user, kind, { challenge: p, redirectTo, newEmail: user.email_change ?? undefined }))
        .mails,
  );
  await sendAll(ctx, mails);
  return json(c, {});
};
