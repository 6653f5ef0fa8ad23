/**
 * /user: the signed-in user's own account. GET reads it; PUT changes the
 * password (other sessions end), the metadata, or the email (confirmed by
 * email before it takes effect).
 */
import type { OutgoingMail } from "../../mail/mailer.ts";
import { prepareEmail, sendAll } from "../emails.ts";
import { badRequest, databaseFailure, emailExists, forbidden, unprocessable } from "../errors.ts";
import { readParams, validateEmail } from "../params.ts";
import { checkPasswordStrength, comparePassword, hashPassword } from "../passwords.ts";
import { validatePkceParams } from "../pkce.ts";
import { redirectFor } from "../redirects.ts";
import { callerOf, json, type Handler } from "../router.ts";
import { logout } from "../sessions.ts";
import {
  clearOneTimeTokens,
  findUserByEmail,
  findUserById,
  updateUserMetadata,
  userJson,
  type UserRow,
} from "../users.ts";

/** GET /user */
export const userGet: Handler = (c, state) => json(c, userJson(callerOf(state).user));

/** PUT /user */
export const userUpdate: Handler = async (c, state, { ctx }) => {
  const cfg = ctx.config.auth;
  const caller = callerOf(state);
  const p = await readParams(c, ctx.config.maxBodyBytes, "UserUpdateParams", {
    email: "string",
    password: "string?",
    data: "object",
    app_metadata: "object",
    phone: "string",
    nonce: "string",
    code_challenge: "string",
    code_challenge_method: "string",
  });
  const user = caller.user;
  if (p.password !== null && p.password !== "") checkPasswordStrength(p.password, cfg);
  const newEmail = p.email !== "" ? validateEmail(p.email) : "";
  validatePkceParams(p.code_challenge_method, p.code_challenge);
  if (p.app_metadata !== null) throw forbidden("not_admin", "Updating app_metadata requires admin privileges");
  if (p.phone !== "" && p.phone !== user.phone)
    throw badRequest("phone_provider_disabled", "Unsupported phone provider");
  if (newEmail !== "" && newEmail !== user.email) {
    const other = await findUserByEmail(ctx.db, newEmail);
    if (other && other.id !== user.id) throw emailExists();
  }
  let passwordHash: string | null = null;
  if (p.password !== null && p.password !== "") {
    if (user.encrypted_password && (await comparePassword(p.password, user.encrypted_password))) {
      throw unprocessable("same_password", "New password should be different from the old password.");
    }
    passwordHash = await hashPassword(p.password, cfg.bcryptCost);
  }
  const redirectTo = redirectFor(ctx, c);
  const mails: OutgoingMail[] = [];
  // a database refusal (a trigger on auth.users, say) is GoTrue's "Error updating user" (errors.ts)
  const updated = await ctx.db
    .transaction(async (tx) => {
      if (passwordHash !== null) {
        await tx.query(
          `update auth.users set encrypted_password = $2, confirmation_token = '', confirmation_sent_at = null, recovery_token = '',
           recovery_sent_at = null, email_change_token_current = '', email_change_token_new = '', email_change_sent_at = null,
           reauthentication_token = '', reauthentication_sent_at = null, updated_at = now() where id = $1`,
          [user.id, passwordHash],
        );
        await clearOneTimeTokens(tx, user.id);
        await logout(tx, user.id, caller.sessionId, "others");
      }
      let current = (await findUserById(tx, user.id)) as UserRow;
      if (p.data !== null) {
        await updateUserMetadata(tx, current, p.data);
        current = (await findUserById(tx, user.id)) as UserRow;
      }
      if (newEmail !== "" && newEmail !== current.email) {
        mails.push(
          ...(await prepareEmail(ctx, tx, current, "email_change", { challenge: p, redirectTo, newEmail })).mails,
        );
      }
      return (await findUserById(tx, user.id)) as UserRow;
    })
    .catch((error: unknown) => {
      throw databaseFailure("Error updating user", error);
    });
  await sendAll(ctx, mails);
  return json(c, userJson(updated));
};
