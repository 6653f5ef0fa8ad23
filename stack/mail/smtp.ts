import type { AddressInfo } from "node:net";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Database } from "../db/types.ts";
import { htmlToText, storeInInbox } from "./mailer.ts";

export interface SmtpListener {
  port: number;
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a) => a.value.map((v) => v.address ?? "")).filter(Boolean);
}

/**
 * A real SMTP server in front of the local inbox, as Supabase's local Mailpit
 * listens on 54325: anything that speaks SMTP (edge functions through
 * nodemailer, a mail client) delivers into the same inbox the stack's own
 * emails land in. Plain SMTP on the loopback address; any login is accepted.
 */
export async function startSmtpListener(
  db: Database,
  options: { host: string; port: number; log: (message: string) => void },
): Promise<SmtpListener> {
  const server = new SMTPServer({
    name: "teamboard.local",
    banner: "Teamboard local inbox",
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "local" });
    },
    onData(stream, session, callback) {
      // kept whole (the server refuses more than MAX_MESSAGE_BYTES): the inbox serves the source as it came
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk);
      });
      new Promise<Buffer>((resolve, reject) => {
        stream.once("end", () => resolve(Buffer.concat(chunks)));
        stream.once("error", reject);
      })
        .then(async (raw) => {
          if (size > MAX_MESSAGE_BYTES) throw new Error("message too large");
          const parsed = await simpleParser(raw);
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
          const headerTo = addresses(parsed.to);
          const html = typeof parsed.html === "string" ? parsed.html : "";
          const text = parsed.text ?? htmlToText(html);
          const from = parsed.from?.text || (session.envelope.mailFrom ? session.envelope.mailFrom.address : "");
          await storeInInbox(db, {
            from,
            to: headerTo.length ? headerTo : envelopeTo,
            subject: parsed.subject ?? "",
            text,
            html:
              html || `<pre>${text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!)}</pre>`,
            messageId: parsed.messageId?.replace(/^<|>$/g, ""),
            raw,
          });
          options.log(`SMTP: delivered "${parsed.subject ?? ""}" to ${envelopeTo.join(", ")}`);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.on("error", (error) => options.log(`SMTP error: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
