/**
 * POST /signup: with an email and a password (registration.ts: a
 * confirmation email, or a session at once when sign-ups autoconfirm), or
 * with neither (an anonymous user, when the project allows them).
 */
import crypto from "node:crypto";
import type { ServiceContext } from "../../context.ts";
import { unprocessable } from "../errors.ts";
import { requestMeta } from "../guards.ts";
import { readParams } from "../params.ts";
import { redirectFor } from "../redirects.ts";
import { signUpWithEmail } from "../registration.ts";
import { json, type Handler } from "../router.ts";
import { issueSession, type RequestMeta, type SessionResponse } from "../sessions.ts";
import { findUserById, type UserRow } from "../users.ts";

export const signup: Handler = async (c, _state, { ctx }) => {
  const p = await readParams(c, ctx.config.maxBodyBytes, "SignupParams", {
    email: "string",
    phone: "string",
    password: "string",
    data: "object",
    code_challenge: "string",
    code_challenge_method: "string",
    channel: "string",
  });
  const meta = requestMeta(ctx, c);
  if (p.email === "" && p.phone === "") return json(c, await anonymousSignup(ctx, p.data ?? {}, meta));
  return json(c, await signUpWithEmail(ctx, p, { redirectTo: redirectFor(ctx, c), meta }));
};

/** An anonymous user and a session, when the project allows them. */
async function anonymousSignup(
  ctx: ServiceContext,
  data: Record<string, unknown>,
  meta: RequestMeta,
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
    return issueSession(ctx, tx, (await findUserById(tx, id)) as UserRow, "anonymous", meta);
  });
}
