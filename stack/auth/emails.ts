import crypto from "node:crypto";
import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import type { OutgoingMail } from "../mail/mailer.ts";
import { tooManyRequests } from "./errors.ts";
import { createFlowState, PKCE_PREFIX } from "./pkce.ts";
import { renderEmail, type TemplateKind } from "./templates.ts";
import { epochMs, saveOneTimeToken, type UserRow } from "./users.ts";

/**
 * The emails of the auth flows. Each carries a one-time code and the hash of
 * email + code (sha224, as GoTrue stores it; prefixed `pkce_` for PKCE
 * flows). Only the hash is kept, on the user row and in auth.one_time_tokens.
 *
 * The database work happens in the caller's transaction; the mail itself is
 * returned and sent after the commit (the mailer writes through its own
 * connection).
 */
export function generateOtp(length: number): string {
  const max = 10 ** length;
  return String(crypto.randomInt(0, max)).padStart(length, "0");
}

export function tokenHash(emailOrPhone: string, otp: string): string {
  return crypto
    .createHash("sha224")
    .update(emailOrPhone + otp)
    .digest("hex");
}

/** 429 over_email_send_rate_limit when the last email of this kind went out too recently. */
export function checkSendInterval(sentAt: string | null, intervalSeconds: number) {
  const sent = epochMs(sentAt);
  if (sent === null) return;
  const until = sent + intervalSeconds * 1000;
  const left = until - Date.now();
  if (left > 0) {
    throw tooManyRequests(
      "over_email_send_rate_limit",
      `For security purposes, you can only request this after ${Math.trunc(left / 1000)} seconds.`,
    );
  }
}

/**
 * The project-wide cap on emails per hour (GoTrue's RATE_LIMIT_EMAIL_SENT),
 * counted over what the stack's mailer actually sent in the last hour.
 */
export async function checkHourlyEmailLimit(q: Queryable, perHour: number) {
  const { rows } = await q.query<{ sent: number }>(
    "select count(*)::int as sent from _stack.mail_messages where created_at > now() - interval '1 hour'",
  );
  if (rows[0].sent >= perHour) throw tooManyRequests("over_email_send_rate_limit", "Email rate limit exceeded");
}

export function verifyUrl(ctx: ServiceContext, token: string, type: string, redirectTo: string): string {
  const q = new URLSearchParams({ token, type, redirect_to: redirectTo });
  return `${ctx.apiUrl}/auth/v1/verify?${q.toString()}`;
}

export type EmailKind = "signup" | "magiclink" | "recovery" | "invite" | "email_change";

const TEMPLATE: Record<EmailKind, TemplateKind> = {
  signup: "confirmation",
  magiclink: "magic_link",
  recovery: "recovery",
  invite: "invite",
  email_change: "email_change",
};

export interface PreparedEmail {
  mail: OutgoingMail;
  /** every email to send: `mail`, and for a secure email change also the one to the current address */
  mails: OutgoingMail[];
  otp: string;
  hashedToken: string;
  actionLink: string;
}

/** The client's PKCE challenge, as sent with the request (empty when it uses the implicit flow). */
export interface PkceChallenge {
  code_challenge: string;
  code_challenge_method: string;
}

/** The flow state a PKCE link of each kind starts, named as GoTrue names them. */
const FLOW_OF: Record<Exclude<EmailKind, "invite">, { providerType: string; authenticationMethod: string }> = {
  signup: { providerType: "email", authenticationMethod: "email/signup" },
  magiclink: { providerType: "magiclink", authenticationMethod: "magiclink" },
  recovery: { providerType: "recovery", authenticationMethod: "recovery" },
  email_change: { providerType: "email_change", authenticationMethod: "email_change" },
};

export interface EmailOptions {
  challenge?: PkceChallenge | null;
  redirectTo: string;
  newEmail?: string;
  /** off for the admin API (generate_link), as in GoTrue */
  enforceInterval?: boolean;
  /** the admin API's generate_link makes one email change link at a time, as GoTrue does */
  emailChangeLink?: "new" | "current";
}

/**
 * Stores the email's token (and, for a PKCE client, the flow state its link
 * will complete), then renders the email. Runs inside the caller's transaction.
 */
export async function prepareEmail(
  ctx: ServiceContext,
  q: Queryable,
  user: UserRow,
  kind: EmailKind,
  opts: EmailOptions,
): Promise<PreparedEmail> {
  const cfg = ctx.config.auth;
  const enforce = opts.enforceInterval ?? true;
  const email = user.email ?? "";
  const otp = generateOtp(cfg.otpLength);
  if (enforce) await checkHourlyEmailLimit(q, cfg.emailsPerHour);
  const pkce = Boolean(opts.challenge?.code_challenge) && kind !== "invite";
  if (pkce) {
    await createFlowState(q, {
      ...FLOW_OF[kind as Exclude<EmailKind, "invite">],
      codeChallenge: opts.challenge!.code_challenge,
      codeChallengeMethod: opts.challenge!.code_challenge_method,
      userId: user.id,
    });
  }
  const prefix = pkce ? PKCE_PREFIX : "";
  if (kind === "email_change") return prepareEmailChange(ctx, q, user, { ...opts, enforce, prefix, otp });
  const stored = prefix + tokenHash(email, otp);
  if (kind === "signup" || kind === "invite") {
    if (enforce && kind === "signup") checkSendInterval(user.confirmation_sent_at, cfg.emailSendInterval);
    await q.query(
      `update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now()
         ${kind === "invite" ? ", invited_at = now()" : ""} where id = $1`,
      [user.id, stored],
    );
    await saveOneTimeToken(q, user.id, "confirmation_token", stored, email);
  } else {
    if (enforce) checkSendInterval(user.recovery_sent_at, cfg.emailSendInterval);
    await q.query(
      "update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1",
      [user.id, stored],
    );
    await saveOneTimeToken(q, user.id, "recovery_token", stored, email);
  }
  return compose(ctx, user, TEMPLATE[kind], { kind, to: email, code: otp, hash: stored, redirectTo: opts.redirectTo });
}

/**
 * An email change: a code and link to the new address and, with secure
 * email change (on by default, as hosted), its own code and link to the
 * current address too.
 */
async function prepareEmailChange(
  ctx: ServiceContext,
  q: Queryable,
  user: UserRow,
  opts: EmailOptions & { enforce: boolean; prefix: string; otp: string },
): Promise<PreparedEmail> {
  const cfg = ctx.config.auth;
  const { prefix, otp } = opts;
  const email = user.email ?? "";
  if (opts.enforce) checkSendInterval(user.email_change_sent_at, cfg.emailSendInterval);
  const newEmail = (opts.newEmail ?? "").toLowerCase();
  const secure = cfg.secureEmailChange && email !== "";
  const only = opts.emailChangeLink;
  const tokenNew = only === "current" ? null : prefix + tokenHash(newEmail, otp);
  const otpCurrent = only === "current" ? otp : generateOtp(cfg.otpLength);
  const tokenCurrent = secure && only !== "new" ? prefix + tokenHash(email, otpCurrent) : null;
  await q.query(
    `update auth.users set email_change = $2, email_change_token_new = coalesce($3, email_change_token_new),
       email_change_token_current = ${only ? "coalesce($4, email_change_token_current)" : "coalesce($4, '')"},
       email_change_confirm_status = 0, email_change_sent_at = now(), updated_at = now() where id = $1`,
    [user.id, newEmail, tokenNew, tokenCurrent],
  );
  if (tokenNew) await saveOneTimeToken(q, user.id, "email_change_token_new", tokenNew, newEmail);
  if (tokenCurrent) await saveOneTimeToken(q, user.id, "email_change_token_current", tokenCurrent, email);
  const mail = (to: string, code: string, hash: string) =>
    compose(ctx, user, "email_change", { kind: "email_change", to, code, hash, redirectTo: opts.redirectTo, newEmail });
  if (only === "current") return mail(email, otpCurrent, tokenCurrent ?? "");
  const toNew = mail(newEmail, otp, tokenNew!);
  if (tokenCurrent && !only) toNew.mails.push(mail(email, otpCurrent, tokenCurrent).mail);
  return toNew;
}

/** Renders one email: its link to /verify, and the template's subject and body. */
function compose(
  ctx: ServiceContext,
  user: UserRow,
  template: TemplateKind,
  m: { kind: EmailKind; to: string; code: string; hash: string; redirectTo: string; newEmail?: string },
): PreparedEmail {
  const cfg = ctx.config.auth;
  const link = verifyUrl(ctx, m.hash, m.kind, m.redirectTo);
  const { subject, html } = renderEmail(template, cfg.templates, {
    ConfirmationURL: link,
    Token: m.code,
    TokenHash: m.hash,
    SiteURL: cfg.siteUrl.replace(/\/+$/, ""),
    RedirectTo: m.redirectTo,
    Email: user.email ?? "",
    NewEmail: m.newEmail,
    Data: user.raw_user_meta_data ?? {},
  });
  const mail = { to: m.to, subject, html };
  return { mail, mails: [mail], otp: m.code, hashedToken: m.hash, actionLink: link };
}

/** Sends mails prepared in a transaction, after its commit. */
export async function sendAll(ctx: ServiceContext, mails: OutgoingMail[]) {
  for (const m of mails) await ctx.mailer.send(m);
}

/** One email to one user: prepared (limits checked, token stored) in its own transaction, then sent. */
export async function prepareAndSend(ctx: ServiceContext, user: UserRow, kind: EmailKind, opts: EmailOptions) {
  const mail = await ctx.db.transaction(async (tx) => (await prepareEmail(ctx, tx, user, kind, opts)).mail);
  await sendAll(ctx, [mail]);
}
