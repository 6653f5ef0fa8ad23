import crypto from "node:crypto";
import type { ServiceContext } from "../context.ts";
import type { OutgoingMail } from "../mail/mailer.ts";
import { prepareEmail, sendAll, type PkceChallenge } from "./emails.ts";
import { badRequest, unprocessable } from "./errors.ts";
import { validateEmail } from "./params.ts";
import { checkPasswordStrength, hashPassword } from "./passwords.ts";
import { validatePkceParams } from "./pkce.ts";
import { issueSession, type RequestMeta } from "./sessions.ts";
import {
  confirmUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isConfirmed,
  userJson,
  type UserRow,
} from "./users.ts";

/**
 * Making an account for an email address, as GoTrue's Signup does: a user
 * with a confirmation email, or a session at once when sign-ups
 * autoconfirm. /signup makes one with the password given; /otp and
 * /magiclink make one for an address they don't know, with a password
 * nobody is told.
 */
export interface EmailSignup extends PkceChallenge {
  email: string;
  phone: string;
  password: string;
  data: Record<string, unknown> | null;
}

/** Returns the JSON body GoTrue answers: the user, a session, or an obfuscated user for a taken address. */
export async function signUpWithEmail(
  ctx: ServiceContext,
  p: EmailSignup,
  from: { redirectTo: string; meta: RequestMeta },
): Promise<unknown> {
  const cfg = ctx.config.auth;
  if (cfg.disableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
  if (p.password === "") throw badRequest("validation_failed", "Signup requires a valid password");
  checkPasswordStrength(p.password, cfg);
  if (p.email !== "" && p.phone !== "") {
    throw badRequest("validation_failed", "Only an email address or phone number should be provided on signup.");
  }
  validatePkceParams(p.code_challenge_method, p.code_challenge);
  if (p.phone !== "") throw badRequest("phone_provider_disabled", "Phone signups are disabled");
  if (p.email === "") throw badRequest("validation_failed", "Sign up only available with email provider");
  const email = validateEmail(p.email);
  const data = p.data ?? {};
  const existing = await findUserByEmail(ctx.db, email);
  if (existing && isConfirmed(existing)) {
    if (cfg.autoconfirm) throw unprocessable("user_already_exists", "User already registered");
    return obfuscatedUser(existing, email, data);
  }
  const passwordHash = existing ? null : await hashPassword(p.password, cfg.bcryptCost);
  const mails: OutgoingMail[] = [];
  const result = await ctx.db.transaction(async (tx) => {
    const userId = existing
      ? existing.id
      : await insertUser(tx, { email, passwordHash, userMetadata: data, provider: "email" });
    let user = (await findUserById(tx, userId)) as UserRow;
    if (cfg.autoconfirm) {
      await confirmUser(tx, userId);
      user = (await findUserById(tx, userId)) as UserRow;
      return issueSession(ctx, tx, user, "password", from.meta);
    }
    const prepared = await prepareEmail(ctx, tx, user, "signup", { challenge: p, redirectTo: from.redirectTo });
    mails.push(prepared.mail);
    return userJson((await findUserById(tx, userId)) as UserRow);
  });
  await sendAll(ctx, mails);
  return result;
}

/** What GoTrue answers for an already-confirmed address: a user-shaped body that reveals nothing. */
function obfuscatedUser(existing: UserRow, email: string, data: Record<string, unknown>) {
  const now = new Date().toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
  const body: Record<string, unknown> = {
    id: crypto.randomUUID(),
    aud: "authenticated",
    role: "",
    email,
    phone: "",
    confirmation_sent_at: now,
  };
  if (existing.recovery_sent_at) body.recovery_sent_at = existing.recovery_sent_at.replace(/\+00(:00)?$/, "Z");
  Object.assign(body, {
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  });
  return body;
}
