/**
 * Signing up (POST /signup): with an email and a password (a confirmation
 * email, or a session straight away when sign-ups autoconfirm), or with
 * neither (an anonymous user, when the project allows them). /otp and
 * /magiclink sign up an unknown address through `signup` too.
 */
import crypto from "node:crypto";
import type { Context } from "hono";
import type { ServiceContext } from "../context.ts";
import type { OutgoingMail } from "../mail/mailer.ts";
import { prepareEmail, sendAll } from "./emails.ts";
import { badRequest, unprocessable } from "./errors.ts";
import { requestMeta } from "./guards.ts";
import { readParams, validateEmail } from "./params.ts";
import { checkPasswordStrength, hashPassword } from "./passwords.ts";
import { validatePkceParams } from "./pkce.ts";
import { redirectFor } from "./redirects.ts";
import { json, type Route } from "./router.ts";
import { issueSession, type SessionResponse } from "./sessions.ts";
import {
  confirmUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isConfirmed,
  userJson,
  type UserRow,
} from "./users.ts";

export const signupRoutes: Route[] = [
  {
    method: "POST",
    path: "/signup",
    handler: async (c, _state, { ctx }) => {
      const p = await readParams(c, ctx.config.maxBodyBytes, "SignupParams", {
        email: "string",
        phone: "string",
        password: "string",
        data: "object",
        code_challenge: "string",
        code_challenge_method: "string",
        channel: "string",
      });
      if (p.email === "" && p.phone === "") return json(c, await anonymousSignup(ctx, c, p.data ?? {}));
      return json(c, await signup(ctx, c, p));
    },
  },
];

/** The password users made by magic links get (never told to anyone). */
export function randomPassword() {
  return `${crypto.randomBytes(24).toString("base64url")}aA1`;
}

export interface SignupInput {
  email: string;
  phone: string;
  password: string;
  data: Record<string, unknown> | null;
  code_challenge: string;
  code_challenge_method: string;
}

/** GoTrue's Signup; returns the JSON body (user, session, or the obfuscated user). */
export async function signup(ctx: ServiceContext, c: Context, p: SignupInput): Promise<unknown> {
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
  const redirectTo = redirectFor(ctx, c);
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
      return issueSession(ctx, tx, user, "password", requestMeta(ctx, c));
    }
    const prepared = await prepareEmail(ctx, tx, user, "signup", { challenge: p, redirectTo });
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

/** POST /signup without an email or phone: an anonymous user and a session, when the project allows them. */
async function anonymousSignup(
  ctx: ServiceContext,
  c: Context,
  data: Record<string, unknown>,
): Promise<SessionResponse> {
  const cfg = ctx.config.auth;
  if (!cfg.anonymousSignIns) throw unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled");
  if (cfg.disableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
  return ctx.db.transaction(async (tx) => {
    const id = crypto.randomUUID();
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data,
         created_at, updated_at, is_sso_user, is_anonymous, confirmation_token, recovery_token, email_change_token_new, email_change)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', null, '', '{}'::jsonb, $2,
         now(), now(), false, true, '', '', '', '')`,
      [id, JSON.stringify(data)],
    );
    return issueSession(ctx, tx, (await findUserById(tx, id)) as UserRow, "anonymous", requestMeta(ctx, c));
  });
}
