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

  it("keeps each message's source and serves its headers and raw text as Mailpit does", async () => {
    const { hostname, port } = new URL(stack.smtpUrl);
    const transport = nodemailer.createTransport({ host: hostname, port: Number(port), secure: false });
    const unsubscribe = "<https://app.example.test/unsubscribe/t0ken>, <mailto:unsubscribe@example.test?subject=stop>";
    await transport.sendMail({
      from: "Teamboard <notify@example.test>",
      to: "watcher@example.test",
      subject: "Ana commented on TB-12",
      text: "A comment.",
      html: "<p>A comment.</p>",
      headers: {
        "List-Unsubscribe": unsubscribe,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "X-Teamboard-Event": "comment",
      },
    });
    const message = (await latestMessage(stack.url, "watcher@example.test")) as unknown as {
      ID: string;
      ListUnsubscribe: { Header: string; Links: string[]; Errors: string; HeaderPost: string };
    };
    expect(message.ListUnsubscribe).toEqual({
      Header: unsubscribe,
      Links: ["https://app.example.test/unsubscribe/t0ken", "mailto:unsubscribe@example.test?subject=stop"],
      Errors: "",
      HeaderPost: "List-Unsubscribe=One-Click",
    });

    const headers = await fetch(`${stack.url}/inbox/api/v1/message/${message.ID}/headers`);
    expect(headers.status).toBe(200);
    const h = (await headers.json()) as Record<string, string[]>;
    expect(h["List-Unsubscribe"]).toEqual([unsubscribe]);
    expect(h["List-Unsubscribe-Post"]).toEqual(["List-Unsubscribe=One-Click"]);
    expect(h["X-Teamboard-Event"]).toEqual(["comment"]);
    expect(h.Subject).toEqual(["Ana commented on TB-12"]);
    expect(h["Message-Id"]?.[0]).toMatch(/^<.+@.+>$/);
    // names in alphabetical order, as Go's JSON encoder writes a map
    expect(Object.keys(h)).toEqual([...Object.keys(h)].sort());

    const raw = await fetch(`${stack.url}/inbox/api/v1/message/${message.ID}/raw`);
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const source = await raw.text();
    expect(source).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    expect(source).toContain("X-Teamboard-Event: comment");
    expect(source).toMatch(/\r\n\r\n[\s\S]*A comment\./);
    const download = await fetch(`${stack.url}/inbox/api/v1/message/latest/raw?dl=1`);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${message.ID}.eml"`);
    expect(await download.text()).toBe(source);
    expect((await fetch(`${stack.url}/inbox/api/v1/message/nope/headers`)).status).toBe(404);
  });

  it("keeps the source of the stack's own mail too", async () => {
    await stack.anonClient().auth.signInWithOtp({ email: "own-mail@example.test" });
    const message = (await latestMessage(stack.url, "own-mail@example.test")) as unknown as {
      ID: string;
      MessageID: string;
    };
    const h = (await (await fetch(`${stack.url}/inbox/api/v1/message/${message.ID}/headers`)).json()) as Record<
      string,
      string[]
    >;
    expect(h.To).toEqual(["own-mail@example.test"]);
    expect(h.From).toEqual(["Teamboard <no-reply@teamboard.local>"]);
    expect(h["Content-Type"]?.[0]).toMatch(/^multipart\/alternative;/);
    const source = await (await fetch(`${stack.url}/inbox/api/v1/message/${message.ID}/raw`)).text();
    expect(source).toContain(`Message-ID: <${message.MessageID}>`);
  });
});
