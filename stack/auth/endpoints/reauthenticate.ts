/** GET /reauthenticate: a code by email that a password change can be confirmed with. */
import { checkHourlyEmailLimit, checkSendInterval, generateOtp, tokenHash } from "../emails.ts";
import { badRequest, unprocessable } from "../errors.ts";
import { callerOf, json, type Handler } from "../router.ts";
import { isConfirmed } from "../users.ts";

export const reauthenticate: Handler = async (c, state, { ctx }) => {
  const cfg = ctx.config.auth;
  const { user } = callerOf(state);
  if (!user.email && !user.phone) {
    throw badRequest("validation_failed", "Reauthentication requires the user to have an email or a phone number");
  }
  if (!user.email) throw badRequest("phone_provider_disabled", "Unsupported phone provider");
  if (!isConfirmed(user)) throw unprocessable("email_not_confirmed", "Please verify your email first.");
  const email = user.email;
  const otp = generateOtp(cfg.otpLength);
  await ctx.db.transaction(async (tx) => {
    await checkHourlyEmailLimit(tx, cfg.emailsPerHour);
    checkSendInterval(user.reauthentication_sent_at ?? null, cfg.emailSendInterval);
    await tx.query(
      "update auth.users set reauthentication_token = $2, reauthentication_sent_at = now() where id = $1",
      [user.id, tokenHash(email, otp)],
    );
  });
  await ctx.mailer.send({
    to: email,
    subject: "Confirm reauthentication",
    html: `<h2>Confirm reauthentication</h2>\n<p>Enter the code: <strong>${otp}</strong></p>`,
  });
  return json(c, {});
};
