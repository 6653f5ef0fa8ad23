import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

describe("the local inbox", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  const send = (to: string, subject: string, html: string) =>
    // a message as the mailer stores it, with HTML that needs escaping on the page
    stack.db.query(
      `insert into _stack.mail_messages (id, message_id, created_at, from_address, to_addresses, subject, text_body, html_body)
       values ($1, $1 || '@teamboard.local', now() + ($5 || ' milliseconds')::interval, 'Teamboard <no-reply@teamboard.local>', $2, $3, $4, $4)`,
      [`m${Math.random().toString(36).slice(2, 10)}`, [to], subject, html, String(Math.floor(Math.random() * 10))],
    );

  it("lists messages newest first with Mailpit's fields, searches by recipient, and deletes all", async () => {
    await stack.db.query("delete from _stack.mail_messages");
    const r1 = await fetch(`${stack.url}/auth/v1/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "first@example.test", password: "correct-horse-1" }),
    });
    expect(r1.status).toBe(200);
    const r2 = await fetch(`${stack.url}/auth/v1/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "second@example.test", password: "correct-horse-1" }),
    });
    expect(r2.status).toBe(200);

    const list = (await (await fetch(`${stack.url}/inbox/api/v1/messages`)).json()) as {
      total: number;
      unread: number;
      messages: {
        ID: string;
        MessageID: string;
        From: { Name: string; Address: string };
        To: { Address: string }[];
        Subject: string;
        Created: string;
        Snippet: string;
        Read: boolean;
      }[];
    };
    expect(list.total).toBe(2);
    expect(list.unread).toBe(2);
    expect(list.messages.map((m) => m.To[0].Address)).toEqual(["second@example.test", "first@example.test"]);
    const [newest] = list.messages;
    expect(newest.From).toEqual({ Name: "Teamboard", Address: "no-reply@teamboard.local" });
    expect(newest.Subject).toBe("Confirm Your Signup");
    expect(newest.Read).toBe(false);
    expect(newest.Snippet).toContain("Confirm your signup");
    expect(Number.isNaN(Date.parse(newest.Created))).toBe(false);

    const search = (await (
      await fetch(`${stack.url}/inbox/api/v1/search?query=${encodeURIComponent('to:"first@example.test"')}`)
    ).json()) as {
      messages_count: number;
      messages: { ID: string }[];
    };
    expect(search.messages_count).toBe(1);
    const one = (await (await fetch(`${stack.url}/inbox/api/v1/message/${search.messages[0].ID}`)).json()) as Record<
      string,
      unknown
    >;
    expect(one).toMatchObject({
      ID: search.messages[0].ID,
      Subject: "Confirm Your Signup",
      To: [{ Name: "", Address: "first@example.test" }],
    });
    expect(String(one.HTML)).toContain("<a href=");
    expect(String(one.Text)).toMatch(/token_hash=/);
    expect(typeof one.Date).toBe("string");

    const after = (await (await fetch(`${stack.url}/inbox/api/v1/messages`)).json()) as { unread: number };
    expect(after.unread).toBe(1);

    expect((await fetch(`${stack.url}/inbox/api/v1/message/nope`)).status).toBe(404);
    // deleting needs the service role key
    expect((await fetch(`${stack.url}/inbox/api/v1/messages`, { method: "DELETE" })).status).toBe(401);
    expect(
      ((await (await fetch(`${stack.url}/inbox/api/v1/messages`)).json()) as { total: number }).total,
    ).toBeGreaterThan(0);
    expect(
      (
        await fetch(`${stack.url}/inbox/api/v1/messages`, {
          method: "DELETE",
          headers: { apikey: stack.serviceRoleKey },
        })
      ).status,
    ).toBe(200);
    expect(((await (await fetch(`${stack.url}/inbox/api/v1/messages`)).json()) as { total: number }).total).toBe(0);
  });

  it("shows an HTML page per message with the body in a sandboxed frame whose links open in the top window", async () => {
    await send(
      "page@example.test",
      "Hello <there>",
      `<p>Click <a href="http://localhost:5173/auth/confirm?token_hash=abc&amp;type=email">here</a></p>`,
    );
    const index = await (await fetch(`${stack.url}/inbox`)).text();
    expect(index).toContain("Hello &lt;there&gt;");
    const id = /href="\/inbox\/([^"]+)"/.exec(index)?.[1] ?? "";
    const page = await (await fetch(`${stack.url}/inbox/${id}`)).text();
    expect(page).toMatch(
      /<iframe[^>]+sandbox="[^"]*allow-top-navigation-by-user-activation[^"]*"[^>]+srcdoc="[^"]*&lt;base target=&quot;_top&quot;&gt;/,
    );
    expect(page).toContain("auth/confirm?token_hash=abc");
    expect(page).not.toContain("<script");
    expect((await fetch(`${stack.url}/inbox/missing`)).status).toBe(404);
  });
});
