/**
 * The inbox's SMTP listener (as Supabase's local Mailpit listens on 54325):
 * a message sent with an ordinary SMTP client lands in the same inbox as the
 * stack's own mail, read back through the Mailpit API.
 */
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestMessage } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

describe("SMTP into the inbox", () => {
  it("delivers a multipart message with its subject, sender, recipients and both bodies", async () => {
    const { hostname, port } = new URL(stack.smtpUrl);
    expect(stack.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    const transport = nodemailer.createTransport({
      host: hostname,
      port: Number(port),
      secure: false,
      auth: { user: "any", pass: "thing" },
    });
    await transport.sendMail({
      from: "Sender Name <sender@example.test>",
      to: ["first@example.test", "Second <second@example.test>"],
      subject: "Grüße über SMTP",
      text: "Plain words, über the wire.",
      html: "<p>Plain <b>words</b>, über the wire.</p>",
    });
    const message = await latestMessage(stack.url, "second@example.test");
    expect(message.Subject).toBe("Grüße über SMTP");
    expect(message.To.map((t) => t.Address)).toEqual(["first@example.test", "second@example.test"]);
    expect(message.Text.trim()).toBe("Plain words, über the wire.");
    expect(message.HTML).toContain("<b>words</b>");
    const list = (await (await fetch(`${stack.url}/inbox/api/v1/messages`)).json()) as {
      messages: Array<{ From: { Address: string } }>;
    };
    expect(list.messages[0].From.Address).toBe("sender@example.test");
  });
});
