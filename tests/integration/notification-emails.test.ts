/**
 * Notification emails (docs/product.md §10 "Email"), end to end on the stack's real
 * parts: the database claims what is due, the send-notifications function on
 * Deno sends it through SMTP into the stack's inbox (or into a mail server
 * this test controls), and the inbox shows what a person would receive.
 * The function is called as the scheduler calls it (POST, service role key);
 * `now` names the run's time, so "50 s later" and "08:00 tomorrow" need no
 * waiting. One test goes through the cron job itself.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityTeam, comment, createTask, type ActivityTeam, statusId } from "../support/activity.ts";
import { linksIn, messagesTo, type InboxMessage } from "../support/auth-helpers.ts";
import { makePerson } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
let t: ActivityTeam;

beforeAll(async () => {
  stack = await startTestStack();
  t = await activityTeam(stack);
});
afterAll(() => stack?.close());

async function run(target: TestStack, now?: Date) {
  const res = await fetch(`${target.url}/functions/v1/send-notifications`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${target.serviceRoleKey}`,
      apikey: target.serviceRoleKey,
      "content-type": "application/json",
    },
    body: JSON.stringify(now ? { now: now.toISOString() } : { scheduled_at: new Date().toISOString() }),
  });
  return { status: res.status, body: (await res.json()) as { sent: number; failed: number } };
}

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

async function newcomer(name: string) {
  const person = await makePerson(stack, name);
  await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [
    t.team,
    person.id,
  ]);
  return person;
}

const unsubscribeLink = (m: InboxMessage) => linksIn(m).find((l) => l.includes("/unsubscribe/"))!;

describe("right away", () => {
  it("waits for the window, then sends three assignments as one email with links, text and HTML", async () => {
    const ann = await newcomer("Ann");
    const tasks = [];
    for (const title of ["Write the brief", "Book the room", "Order snacks"]) {
      tasks.push(await createTask(t.owner, t.project, { title, assignee_id: ann.id }));
    }
    expect((await run(stack)).body).toEqual({ sent: 0, failed: 0 });
    expect(await messagesTo(stack.url, ann.email)).toEqual([]);

    expect((await run(stack, later(60))).body).toEqual({ sent: 1, failed: 0 });
    const [mail, ...others] = await messagesTo(stack.url, ann.email);
    expect(others).toEqual([]);
    const refs = tasks.map((task) => `RT-${task.number}`);
    expect(mail.Subject).toBe(`3 updates on Teamboard: ${refs.join(", ")}`);
    expect(mail.Text).toContain(`Olive assigned you ${refs[0]} Write the brief (Realtime)`);
    expect(mail.Text).toContain(`Olive assigned you ${refs[2]} Order snacks`);
    const taskLinks = linksIn(mail).filter((l) => l.includes("/tasks/"));
    expect(taskLinks).toHaveLength(3);
    expect(new URL(taskLinks[0]).pathname).toMatch(
      new RegExp(`^/teams/rt-[a-z0-9]+/projects/RT/tasks/${tasks[0].number}$`),
    );
    expect(mail.HTML).toContain(`href="${taskLinks[0]}"`);
    expect(mail.HTML).toContain("Olive assigned you");
    expect(unsubscribeLink(mail)).toMatch(/\/unsubscribe\/[0-9a-f]{64}$/);

    // sent once: the next runs find nothing
    expect((await run(stack, later(120))).body).toEqual({ sent: 0, failed: 0 });
    const { rows } = await stack.db.query(
      "select email, emailed_at is not null as emailed from notifications where recipient_id = $1",
      [ann.id],
    );
    expect(rows).toEqual(Array(3).fill({ email: "sent", emailed: true }));
  });

  it("says what changed: a comment quoted, a status change by name; nothing for what was read in the app first", async () => {
    const bo = await newcomer("Bo");
    for (const kind of ["comment", "status"]) {
      await bo.client.from("notification_settings").upsert({ user_id: bo.id, kind, email: "instant" });
    }
    const task = await createTask(t.owner, t.project, { title: "Launch", assignee_id: bo.id });
    const read = await createTask(t.owner, t.project, { title: "Already seen", assignee_id: bo.id });
    await bo.client.from("notifications").update({ read_at: new Date().toISOString() }).eq("task_id", read.id);
    await comment(t.member, task.id, "Shipping <b>tomorrow</b> at 9");
    await t.owner.client.rpc("move_task", { task_id: task.id, status_id: await statusId(stack, t.project, "To do") });
    expect((await run(stack, later(60))).body).toEqual({ sent: 1, failed: 0 });
    const [mail] = await messagesTo(stack.url, bo.email);
    expect(mail.Text).toContain(`Mika commented on RT-${task.number} Launch`);
    expect(mail.Text).toContain("“Shipping <b>tomorrow</b> at 9”");
    expect(mail.HTML).toContain("Shipping &lt;b&gt;tomorrow&lt;/b&gt; at 9");
    expect(mail.Text).toContain(`Olive moved RT-${task.number} Launch from Backlog to To do`);
    expect(mail.Text).not.toContain("Already seen");
    expect(mail.Text).toContain(
      "You get these emails for tasks assigned to you, comments on tasks you watch and status changes on tasks you watch.",
    );
  });

  it("quotes a Markdown comment as plain words, a mentioned teammate by name (issue 42 §11)", async () => {
    const di = await newcomer("Dina");
    await di.client.from("notification_settings").upsert({ user_id: di.id, kind: "comment", email: "instant" });
    const task = await createTask(t.owner, t.project, { title: "Plan", assignee_id: di.id });
    const { rows } = await stack.db.query<{ username: string }>("select username from profiles where id = $1", [di.id]);
    await comment(
      t.member,
      task.id,
      `@${rows[0].username} see ![pasted.png](/attachments/00000000-0000-4000-8000-000000000000)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [ ] **check** the [list](https://example.com)`,
    );
    expect((await run(stack, later(60))).body.sent).toBe(1);
    const [mail] = await messagesTo(stack.url, di.email);
    expect(mail.Text).toContain("“@Dina see pasted.png a b 1 2 ☐ check the list”");
    expect(mail.HTML).toContain("@Dina see pasted.png a b 1 2 ☐ check the list");
    expect(mail.Text).not.toMatch(/!\[|\||\[ \]/);
  });

  it("carries RFC 8058 one-click unsubscribe headers; the link turns those kinds off, and says so when used twice", async () => {
    const cy = await newcomer("Cy");
    await createTask(t.owner, t.project, { assignee_id: cy.id });
    await run(stack, later(60));
    const [mail] = await messagesTo(stack.url, cy.email);
    const headers = (await (await fetch(`${stack.url}/inbox/api/v1/message/${mail.ID}/headers`)).json()) as Record<
      string,
      string[]
    >;
    const link = unsubscribeLink(mail);
    expect(headers["List-Unsubscribe"]).toEqual([`<${link}>`]);
    expect(headers["List-Unsubscribe-Post"]).toEqual(["List-Unsubscribe=One-Click"]);

    const token = link.split("/").at(-1)!;
    // the token is stored only as its hash
    const { rows } = await stack.db.query("select token_hash from email_unsubscribe_tokens where user_id = $1", [
      cy.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toBe(token);
    const anon = stack.anonClient();
    expect((await anon.rpc("unsubscribe_from_emails", { token })).data).toEqual({
      status: "unsubscribed",
      kinds: ["assigned"],
    });
    expect((await anon.rpc("unsubscribe_from_emails", { token })).data).toEqual({
      status: "already",
      kinds: ["assigned"],
    });
    expect((await anon.rpc("unsubscribe_from_emails", { token: "0".repeat(64) })).data).toEqual({ status: "unknown" });
    // assignments are no longer emailed; mentions still are
    await createTask(t.owner, t.project, { assignee_id: cy.id });
    await createTask(t.owner, t.project, { description: `for @${await usernameOf(cy.id)}` });
    await run(stack, later(60));
    const [second] = await messagesTo(stack.url, cy.email);
    expect(second.Subject).toMatch(/^Olive mentioned you on RT-\d+ A task$/);
  });
});

async function usernameOf(id: string) {
  return (await stack.db.query<{ username: string }>("select username from profiles where id = $1", [id])).rows[0]
    .username;
}

describe("daily digest", () => {
  it("goes out at 08:00 (UTC until people have a time zone) with what came before, once", async () => {
    const di = await newcomer("Di");
    await di.client.from("notification_settings").upsert({ user_id: di.id, kind: "assigned", email: "daily" });
    await createTask(t.owner, t.project, { title: "First", assignee_id: di.id });
    await createTask(t.owner, t.project, { title: "Second", assignee_id: di.id });
    // the first 08:00 UTC after now (people have no time zone of their own yet: §12)
    const { rows } = await stack.db.query<{ eight: string }>(
      "select last_digest_time(now(), 'UTC') + interval '1 day' as eight",
    );
    const eight = new Date(rows[0].eight);
    expect((await run(stack, new Date(eight.getTime() - 60_000))).body.sent).toBe(0);
    expect(await messagesTo(stack.url, di.email)).toEqual([]);
    expect((await run(stack, new Date(eight.getTime() + 30_000))).body).toEqual({ sent: 1, failed: 0 });
    const [digest, ...more] = await messagesTo(stack.url, di.email);
    expect(more).toEqual([]);
    expect(digest.Subject).toBe("Your Teamboard digest: 2 updates");
    expect(digest.Text).toContain("What happened since yesterday's digest:");
    expect(digest.Text).toMatch(/Olive assigned you RT-\d+ First/);
    expect((await run(stack, new Date(eight.getTime() + 90_000))).body.sent).toBe(0);
  });
});

describe("two runs at once", () => {
  it("never send one notification twice", async () => {
    const people = await Promise.all(["Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"].map(newcomer));
    for (const person of people) await createTask(t.owner, t.project, { assignee_id: person.id });
    const [a, b] = await Promise.all([run(stack, later(60)), run(stack, later(60))]);
    expect(a.body.sent + b.body.sent).toBe(people.length);
    for (const person of people) expect(await messagesTo(stack.url, person.email)).toHaveLength(1);
  });
});

describe("the scheduler's own call", () => {
  it("runs the function through Supabase Cron and pg_net and sends what is due", async () => {
    const kim = await newcomer("Kim");
    await createTask(t.owner, t.project, { assignee_id: kim.id });
    await stack.db.query("update notifications set created_at = now() - interval '1 minute' where recipient_id = $1", [
      kim.id,
    ]);
    const answered = new Promise<{ content: string | null }>((resolve) => stack.scheduler.net.onResult(resolve));
    expect(await stack.scheduler.cron.runNow("send-notifications")).toMatchObject({ status: "succeeded" });
    expect(JSON.parse((await answered).content ?? "")).toEqual({ sent: 1, failed: 0 });
    expect(await messagesTo(stack.url, kim.email)).toHaveLength(1);
  });
});

/**
 * A mail server that doesn't answer, then one that works, on the port the
 * function is told (its own copy of supabase/functions with a .env naming it).
 */
describe("a failing mail server", () => {
  let own: TestStack;
  let dir: string;
  let port: number;
  const held: net.Socket[] = [];
  const delivered: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-functions-"));
    for (const name of ["_shared", "send-notifications"]) {
      fs.cpSync(path.resolve("supabase/functions", name), path.join(dir, name), { recursive: true });
    }
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    port = (silent.address() as net.AddressInfo).port;
    fs.writeFileSync(path.join(dir, ".env"), `SMTP_PORT=${port}\n`);
    own = await startTestStack({ functions: { dir, configFile: path.resolve("supabase/config.toml") } });
    (own as unknown as { silent: net.Server }).silent = silent;
  });
  afterAll(async () => {
    await own?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the notifications pending, answers in time, and the next runs send each one once", async () => {
    const team = await activityTeam(own);
    for (const person of [team.member, team.other, team.viewer]) {
      await createTask(team.owner, team.project, { assignee_id: person.id });
    }
    const started = Date.now();
    const [a, b] = await Promise.all([run(own, later(60)), run(own, later(60))]);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(a.status).toBe(200);
    expect(a.body.sent + b.body.sent).toBe(0);
    expect(a.body.failed + b.body.failed).toBe(3);
    const pending = async () =>
      (
        await own.db.query<{ email: string; email_attempts: number; email_claim: string | null }>(
          "select email, email_attempts, email_claim from notifications where kind = 'assigned' order by recipient_id",
        )
      ).rows;
    expect(await pending()).toEqual(Array(3).fill({ email: "pending", email_attempts: 1, email_claim: null }));
    // not retried within the same half minute
    expect((await run(own, later(61))).body).toEqual({ sent: 0, failed: 0 });

    // the server comes back; a minute passes
    const silent = (own as unknown as { silent: net.Server }).silent;
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on("end", () => {
          delivered.push(...session.envelope.rcptTo.map((r) => r.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    try {
      await own.db.query("update notifications set email_tried_at = email_tried_at - interval '1 minute'");
      const [c, d] = await Promise.all([run(own, later(120)), run(own, later(120))]);
      expect(c.body.sent + d.body.sent).toBe(3);
      expect(delivered.sort()).toEqual([team.member.email, team.other.email, team.viewer.email].sort());
      expect((await run(own, later(180))).body).toEqual({ sent: 0, failed: 0 });
      expect(delivered).toHaveLength(3);
      expect((await pending()).map((r) => r.email)).toEqual(["sent", "sent", "sent"]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
