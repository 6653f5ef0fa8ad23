/**
 * The signed-in user's own account: reading it (GET /user), changing it (PUT
 * /user: password, metadata, or an email change confirmed by email), a
 * reauthentication code (GET /reauthenticate) and signing out (POST /logout,
 * this session, the others, or all).
 */
import type { OutgoingMail } from "../mail/mailer.ts";
import { checkHourlyEmailLimit, checkSendInterval, generateOtp, prepareEmail, sendAll, tokenHash } from "./emails.ts";
import { badRequest, forbidden, unprocessable } from "./errors.ts";
import { readParams, validateEmail } from "./params.ts";
import { checkPasswordStrength, comparePassword, hashPassword } from "./passwords.ts";
import { validatePkceParams } from "./pkce.ts";
import { redirectFor } from "./redirects.ts";
import { callerOf, json, user, type Route } from "./router.ts";
import { logout, type LogoutScope } from "./sessions.ts";
import {
  clearOneTimeTokens,
  findUserByEmail,
  findUserById,
  isConfirmed,
  updateUserMetadata,
  userJson,
  type UserRow,
} from "./users.ts";

export const accountRoutes: Route[] = [
  {
    method: "GET",
    path: "/user",
    use: [user],
    handler: (c, state) => {
      const { user } = callerOf(state);
      return json(c, userJson(user));
    },
  },
  {
    method: "PUT",
    path: "/user",
    use: [user],
    handler: async (c, state, { ctx }) => {
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
        if (other && other.id !== user.id)
          throw unprocessable("email_exists", "A user with this email address has already been registered");
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
      const updated = await ctx.db.transaction(async (tx) => {
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
      });
      await sendAll(ctx, mails);
      return json(c, userJson(updated));
    },
  },
  {
    method: "GET",
    path: "/reauthenticate",
    use: [user],
    handler: async (c, state, { ctx }) => {
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
    },
  },
  {
    method: "POST",
    path: "/logout",
    use: [user],
    handler: async (c, state, { ctx }) => {
      const caller = callerOf(state);
      const raw = c.req.query("scope") ?? "";
      const scope: LogoutScope | null =
        raw === "" || raw === "global" ? "global" : raw === "local" || raw === "others" ? raw : null;
      if (!scope) throw badRequest("validation_failed", `Unsupported logout scope "${raw}"`);
      await ctx.db.transaction((tx) => logout(tx, caller.user.id, caller.sessionId, scope));
      return c.body(null, 204);
    },
  },
];
