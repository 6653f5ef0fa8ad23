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

/**
 * Stores a fresh token for `kind` on the user and builds the email.
 * `enforceInterval` is off for the admin API (generate_link), as in GoTrue.
 */
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

/**
 * Stores the email's token (and, for a PKCE client, the flow state its link
 * will complete), then renders the email. Runs inside the caller's transaction.
 */
export async function prepareEmail(
  ctx: ServiceContext,
  q: Queryable,
  user: UserRow,
  kind: EmailKind,
  opts: {
    challenge?: PkceChallenge | null;
    redirectTo: string;
    newEmail?: string;
    enforceInterval?: boolean;
    /** the admin API's generate_link makes one email change link at a time, as GoTrue does */
    emailChangeLink?: "new" | "current";
  },
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
  let stored: string;
  const to = email;
  switch (kind) {
    case "signup":
    case "invite": {
      if (enforce && kind === "signup") checkSendInterval(user.confirmation_sent_at, cfg.emailSendInterval);
      stored = prefix + tokenHash(email, otp);
      await q.query(
        `update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now()
           ${kind === "invite" ? ", invited_at = now()" : ""} where id = $1`,
        [user.id, stored],
      );
      await saveOneTimeToken(q, user.id, "confirmation_token", stored, email);
      break;
    }
    case "magiclink":
    case "recovery": {
      if (enforce) checkSendInterval(user.recovery_sent_at, cfg.emailSendInterval);
      stored = prefix + tokenHash(email, otp);
      await q.query(
        "update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1",
        [user.id, stored],
      );
      await saveOneTimeToken(q, user.id, "recovery_token", stored, email);
      break;
    }
    case "email_change": {
      if (enforce) checkSendInterval(user.email_change_sent_at, cfg.emailSendInterval);
      const newEmail = (opts.newEmail ?? "").toLowerCase();
      // Secure email change (on by default, as hosted): the current address confirms too, with its own code.
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
      const render = (to: string, code: string, hash: string): PreparedEmail => {
        const link = verifyUrl(ctx, hash, kind, opts.redirectTo);
        const { subject, html } = renderEmail("email_change", cfg.templates, {
          ConfirmationURL: link,
          Token: code,
          TokenHash: hash,
          SiteURL: cfg.siteUrl.replace(/\/+$/, ""),
          RedirectTo: opts.redirectTo,
          Email: email,
          NewEmail: newEmail,
          Data: user.raw_user_meta_data ?? {},
        });
        const mail = { to, subject, html };
        return { mail, mails: [mail], otp: code, hashedToken: hash, actionLink: link };
      };
      if (only === "current") return render(email, otpCurrent, tokenCurrent ?? "");
      const toNew = render(newEmail, otp, tokenNew!);
      if (tokenCurrent && !only) toNew.mails.push(render(email, otpCurrent, tokenCurrent).mail);
      return toNew;
    }
  }
  const actionLink = verifyUrl(ctx, stored, kind, opts.redirectTo);
  const { subject, html } = renderEmail(TEMPLATE[kind], cfg.templates, {
    ConfirmationURL: actionLink,
    Token: otp,
    TokenHash: stored,
    SiteURL: cfg.siteUrl.replace(/\/+$/, ""),
    RedirectTo: opts.redirectTo,
    Email: email,
    Data: user.raw_user_meta_data ?? {},
  });
  const mail = { to, subject, html };
  return { mail, mails: [mail], otp, hashedToken: stored, actionLink };
}

/** Sends mails prepared in a transaction, after its commit. */
export async function sendAll(ctx: ServiceContext, mails: OutgoingMail[]) {
  for (const m of mails) await ctx.mailer.send(m);
}

/** One email to one user: prepared (limits checked, token stored) in its own transaction, then sent. */
export async function prepareAndSend(
  ctx: ServiceContext,
  user: UserRow,
  kind: EmailKind,
  opts: Parameters<typeof prepareEmail>[4],
) {
  const mail = await ctx.db.transaction(async (tx) => (await prepareEmail(ctx, tx, user, kind, opts)).mail);
  await sendAll(ctx, [mail]);
}
