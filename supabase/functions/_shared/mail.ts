// Sending mail from the functions: through the SMTP server the function is
// given (locally the stack's inbox listener, SMTP_HOST / SMTP_PORT; on hosted,
// the SMTP_* secrets, docs/deploy.md). Short timeouts, so a mail server that
// doesn't answer can't hold a function past its own time limit.
import nodemailer from "npm:nodemailer@7";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** One connection for one email, or a small pool for a run that sends many. */
export function createMailer({ pool = false }: { pool?: boolean } = {}): Mailer {
  const port = Number(Deno.env.get("SMTP_PORT") ?? 465);
  const user = Deno.env.get("SMTP_USER");
  const transport = nodemailer.createTransport({
    host: Deno.env.get("SMTP_HOST") ?? "localhost",
    port,
    secure: port === 465,
    auth: user ? { user, pass: Deno.env.get("SMTP_PASS") ?? "" } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    ...(pool ? { pool: true, maxConnections: 4, maxMessages: 500 } : {}),
  });
  const from = Deno.env.get("SMTP_FROM") ?? "Teamboard <no-reply@teamboard.local>";
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Whether a failure was the server refusing this one message (it answered
 * with a status: a bad address, a full mailbox), as opposed to not reaching
 * the server at all, which every other message would run into as well.
 */
export function refusedByServer(error: unknown): boolean {
  const code = (error as { responseCode?: number } | null)?.responseCode;
  return typeof code === "number" && code >= 400;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
