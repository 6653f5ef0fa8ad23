import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { tokenHash } from "./emails.ts";
import { badRequest, emailExists, forbidden } from "./errors.ts";
import { PKCE_PREFIX } from "./pkce.ts";
import {
  clearOneTimeTokens,
  confirmUser,
  epochMs,
  findUserById,
  isBanned,
  isConfirmed,
  type UserRow,
} from "./users.ts";

/**
 * Redeeming an emailed token: finding its user by the token hash of a link
 * or by email + code, and applying what it confirms (the sign-up, a sign-in
 * link, a recovery, an email change), as GoTrue's verify.go does. The
 * endpoint is endpoints/verify.ts.
 */
export const VERIFY_TYPES = ["signup", "invite", "magiclink", "recovery", "email_change", "email"] as const;
export type VerifyType = (typeof VERIFY_TYPES)[number];

const LINK_INVALID = "Email link is invalid or has expired";
const TOKEN_INVALID = "Token has expired or is invalid";

function expired(sentAt: string | null, otpExpiry: number): boolean {
  const sent = epochMs(sentAt);
  return sent === null || Date.now() > sent + otpExpiry * 1000;
}

async function userWhere(q: Queryable, where: string, params: unknown[]): Promise<UserRow | null> {
  const { rows } = await q.query<{ id: string }>(`select id from auth.users where ${where} limit 1 for update`, params);
  return rows[0] ? findUserById(q, rows[0].id) : null;
}

/** A user by the token hash of a link. Returns the type the token turned out to be (for `email`). */
export async function verifyTokenHash(
  ctx: ServiceContext,
  q: Queryable,
  type: string,
  hash: string,
): Promise<Verified> {
  let user: UserRow | null;
  // a NUL can be in no stored hash (and Postgres refuses it as a parameter): simply no such link
  if (hash.includes("\u0000")) throw forbidden("otp_expired", LINK_INVALID);
  switch (type) {
    case "email":
      user = await userWhere(q, "(confirmation_token = $1 or recovery_token = $1)", [hash]);
      break;
    case "signup":
    case "invite":
      user = await userWhere(q, "confirmation_token = $1", [hash]);
      break;
    case "recovery":
    case "magiclink":
      user = await userWhere(q, "recovery_token = $1", [hash]);
      break;
    case "email_change":
      user = await userWhere(q, "(email_change_token_new = $1 or email_change_token_current = $1)", [hash]);
      break;
    default:
      throw badRequest("validation_failed", "Invalid email verification type");
  }
  if (!user) throw forbidden("otp_expired", LINK_INVALID);
  if (isBanned(user)) throw forbidden("user_banned", "User is banned");
  let resolved = type as VerifyType;
  let sentAt: string | null;
  if (type === "email") {
    resolved = user.recovery_token === hash ? "magiclink" : "signup";
    sentAt = resolved === "magiclink" ? user.recovery_sent_at : user.confirmation_sent_at;
  } else if (type === "signup" || type === "invite") sentAt = user.confirmation_sent_at;
  else if (type === "recovery" || type === "magiclink") sentAt = user.recovery_sent_at;
  else sentAt = user.email_change_sent_at;
  if (expired(sentAt, ctx.config.auth.otpExpiry)) throw forbidden("otp_expired", LINK_INVALID);
  if (type === "email_change")
    return { user, type: resolved, matched: user.email_change_token_current === hash ? "current" : "new" };
  return { user, type: resolved };
}

function otpMatches(hash: string, expected: string | null, sentAt: string | null, otpExpiry: number) {
  if (!expected || !sentAt || expired(sentAt, otpExpiry)) return false;
  return expected === hash || expected === PKCE_PREFIX + hash;
}

/** A user by email + the code from the email. */
export async function verifyEmailAndCode(
  ctx: ServiceContext,
  q: Queryable,
  type: string,
  email: string,
  code: string,
): Promise<Verified> {
  const hash = tokenHash(email, code);
  const user =
    type === "email_change"
      ? await userWhere(q, "lower(email_change) = $1 or lower(email) = $1", [email])
      : await userWhere(q, "lower(email) = $1 and aud = 'authenticated'", [email]);
  if (!user) throw forbidden("otp_expired", TOKEN_INVALID);
  if (isBanned(user)) throw forbidden("user_banned", "User is banned");
  const exp = ctx.config.auth.otpExpiry;
  let resolved = type as VerifyType;
  let valid = false;
  let matched: "current" | "new" | undefined;
  switch (type) {
    case "email":
      if (otpMatches(hash, user.confirmation_token, user.confirmation_sent_at, exp)) {
        valid = true;
        resolved = "signup";
      } else if (otpMatches(hash, user.recovery_token, user.recovery_sent_at, exp)) {
        valid = true;
        resolved = "magiclink";
      }
      break;
    case "signup":
    case "invite":
      valid = otpMatches(hash, user.confirmation_token, user.confirmation_sent_at, exp);
      break;
    case "recovery":
    case "magiclink":
      valid = otpMatches(hash, user.recovery_token, user.recovery_sent_at, exp);
      break;
    case "email_change":
      if (otpMatches(hash, user.email_change_token_new, user.email_change_sent_at, exp)) {
        valid = true;
        matched = "new";
      } else if (otpMatches(hash, user.email_change_token_current, user.email_change_sent_at, exp)) {
        valid = true;
        matched = "current";
      }
      break;
    default:
      throw badRequest("validation_failed", "Unsupported verification type");
  }
  if (!valid) throw forbidden("otp_expired", TOKEN_INVALID);
  return { user, type: resolved, matched };
}

/** Voids every code and link outstanding for an address (after too many wrong codes). */
export async function invalidateCodes(q: Queryable, email: string): Promise<void> {
  const { rows } = await q.query<{ id: string }>(
    `update auth.users set confirmation_token = '', recovery_token = '', email_change_token_new = '', email_change_token_current = '',
       updated_at = now()
     where lower(email) = $1 or lower(email_change) = $1 returning id`,
    [email],
  );
  for (const { id } of rows) await clearOneTimeTokens(q, id);
}

/** A user found by an emailed token; for an email change, which of its two links it was. */
export interface Verified {
  user: UserRow;
  type: VerifyType;
  matched?: "current" | "new";
}

/** What GoTrue answers for the first of the two links of a secure email change. */
export const SINGLE_CONFIRMATION_ACCEPTED =
  "Confirmation link accepted. Please proceed to confirm link sent to the other email";

/**
 * Applies a verified token; returns the user as it now is, or null for the
 * first confirmation of a secure email change (the other address must
 * confirm too, as GoTrue's emailChangeVerify does).
 */
export async function applyVerification(
  q: Queryable,
  found: Verified,
  opts: { secureEmailChange: boolean },
): Promise<UserRow | null> {
  const { user, type } = found;
  if (
    type === "email_change" &&
    opts.secureEmailChange &&
    (user.email_change_confirm_status ?? 0) === 0 &&
    (user.email ?? "") !== ""
  ) {
    const column = found.matched === "current" ? "email_change_token_current" : "email_change_token_new";
    await q.query(
      `update auth.users set email_change_confirm_status = 1, ${column} = '', updated_at = now() where id = $1`,
      [user.id],
    );
    await q.query("delete from auth.one_time_tokens where user_id = $1 and token_type = $2", [user.id, column]);
    return null;
  }
  switch (type) {
    case "signup":
    case "invite":
      await confirmUser(q, user.id);
      break;
    case "magiclink":
    case "recovery":
      await q.query("update auth.users set recovery_token = '', updated_at = now() where id = $1", [user.id]);
      await clearOneTimeTokens(q, user.id);
      if (!isConfirmed(user)) await confirmUser(q, user.id);
      break;
    case "email_change": {
      const newEmail = user.email_change ?? "";
      // someone may have registered the new address since the change was asked for
      const { rows: taken } = await q.query(
        "select 1 from auth.users where lower(email) = lower($2) and id <> $1 and is_sso_user = false limit 1",
        [user.id, newEmail],
      );
      if (taken.length) throw emailExists();
      await q.query(
        `update auth.users set email = $2, email_change = '', email_change_token_new = '', email_change_token_current = '',
           email_change_confirm_status = 0, is_anonymous = false, updated_at = now() where id = $1`,
        [user.id, newEmail],
      );
      await clearOneTimeTokens(q, user.id);
      const { rowCount } = await q.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
           updated_at = now() where user_id = $1 and provider = 'email'`,
        [user.id, newEmail],
      );
      if (rowCount === 0) {
        await q.query(
          `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
           values (gen_random_uuid(), $1, $1, jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', true), 'email', now(), now(), now())`,
          [user.id, newEmail],
        );
      }
      if (!isConfirmed(user)) await confirmUser(q, user.id);
      break;
    }
    default:
      throw badRequest("validation_failed", "Unsupported verification type");
  }
  return (await findUserById(q, user.id)) as UserRow;
}

/** The flow-state authentication method a verified link type continues. */
export function authMethodForType(type: VerifyType): string {
  switch (type) {
    case "signup":
    case "email":
      return "email/signup";
    default:
      return type;
  }
}
