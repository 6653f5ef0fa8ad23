import crypto from "node:crypto";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import type { StackConfig } from "../config.ts";
import type { Database } from "../db/types.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text?: string;
}

export interface StoredMail {
  id: string;
  messageId: string;
  createdAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  read: boolean;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<StoredMail>;
}

/** Plain text from an HTML body, for the Text part of a message. */
export function htmlToText(html: string): string {
  return html
    .replace(
      /<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi,
      (_m, href: string, label: string) => `${label.trim()} (${href})`,
    )
    .replace(/<(br|\/p|\/h\d|\/li|\/div)\s*\/?>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export interface InboxMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** without angle brackets; a new one when absent */
  messageId?: string;
  /** the message's source as it was sent (RFC 5322), which Mailpit's /raw and /headers serve */
  raw: Buffer;
}

/** Puts a message into the local inbox (what the mailer and the SMTP listener both do). */
export async function storeInInbox(db: Database, mail: InboxMessage): Promise<StoredMail> {
  const id = crypto.randomBytes(11).toString("base64url");
  const messageId = mail.messageId || `${id}@teamboard.local`;
  const { rows } = await db.query<{ created_at: string }>(
    `insert into _stack.mail_messages (id, message_id, from_address, to_addresses, subject, text_body, html_body, raw)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning to_json(created_at)#>>'{}' as created_at`,
    [id, messageId, mail.from, mail.to, mail.subject, mail.text, mail.html, mail.raw],
  );
  return {
    id,
    messageId,
    createdAt: rows[0].created_at,
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    read: false,
  };
}

/**
 * Every email lands in the local inbox (a table of the stack's own schema),
 * as Supabase's local setup catches mail with Mailpit. With SMTP settings it
 * is also sent through that server.
 */
export function createMailer(db: Database, config: StackConfig): Mailer {
  let transport: { sendMail(m: object): Promise<unknown> } | null = null;
  const from = `${config.auth.mailerSenderName} <${config.auth.mailerSenderEmail}>`;
  return {
    async send(mail) {
      const text = mail.text ?? htmlToText(mail.html);
      const messageId = `${crypto.randomBytes(11).toString("base64url")}@teamboard.local`;
      const message = { from, to: mail.to, subject: mail.subject, html: mail.html, text, messageId };
      const raw = await new MailComposer(message).compile().build();
      const stored = await storeInInbox(db, {
        from,
        to: [mail.to],
        subject: mail.subject,
        text,
        html: mail.html,
        messageId,
        raw,
      });
      if (config.auth.smtp) {
        if (!transport) {
          const nodemailer = await import("nodemailer");
          const smtp = config.auth.smtp;
          transport = nodemailer.createTransport({
            host: smtp.host,
            port: smtp.port,
            secure: smtp.secure ?? smtp.port === 465,
            auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
          });
        }
        // the same source the inbox kept
        await transport.sendMail({ envelope: { from: config.auth.mailerSenderEmail, to: mail.to }, raw });
      }
      return stored;
    },
  };
}
