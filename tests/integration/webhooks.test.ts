/**
 * Webhooks (docs/product.md §19) sent by the database through pg_net to a loopback
 * receiver: signed as Standard Webhooks say (checked here with the
 * algorithm written out from the specification, not the migration's code),
 * from the app's RPCs, bulk edits, a token's writes and plain SQL; retried
 * when the receiver is down; "Send again"; Slack's format; addresses
 * refused; the log only for the project's admins.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newApiToken } from "../../app/lib/api-tokens.server.ts";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { persistentTestDatabase, startTestStack, type TestStack } from "../support/stack.ts";

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that records every POST; `status` is what it answers. */
class Receiver {
  received: Received[] = [];
  status = 204;
  private server: http.Server | null = null;
  port = 0;

  async start(port = 0) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(this.status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
    this.server?.closeAllConnections();
    this.server = null;
  }

  url(path = "/hook") {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async waitFor(count: number, timeoutMs = 15_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (this.received.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(this.received.length).toBeGreaterThanOrEqual(count);
    return this.received;
  }
}

/**
 * Standard Webhooks' verification, from the specification: the secret is
 * base64 after "whsec_"; the signed content is `${id}.${timestamp}.${body}`;
 * the header holds space-separated "v1,<base64 HMAC-SHA256>" entries.
 */
function verifies(secret: string, r: Received): boolean {
  const id = String(r.headers["webhook-id"]);
  const timestamp = String(r.headers["webhook-timestamp"]);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = crypto.createHmac("sha256", key).update(`${id}.${timestamp}.${r.body}`).digest();
  return String(r.headers["webhook-signature"])
    .split(" ")
    .some((entry) => {
      const [version, signature] = entry.split(",");
      const given = Buffer.from(signature ?? "", "base64");
      return version === "v1" && given.length === expected.length && crypto.timingSafeEqual(given, expected);
    });
}

let stack: TestStack;
let receiver: Receiver;
let owner: { id: string; client: SupabaseClient };
let member: { id: string; client: SupabaseClient };
let team: string;
let project: string;
let otherProject: string;
let statuses: Record<string, string>;

async function person(name: string) {
  const email = uniqueEmail("hooks");
  const { data, error } = await stack.adminClient().auth.admin.createUser({
    email,
    password: "hooks-test-1",
    email_confirm: true,
    user_metadata: { display_name: name },
  });
  if (error) throw error;
  const client = serverClient(stack.url, stack.anonKey);
  await client.auth.signInWithPassword({ email, password: "hooks-test-1" });
  return { id: data.user.id, client };
}

async function addWebhook(options: { url?: string; events?: string[]; format?: string; projectId?: string } = {}) {
  const { data, error } = await owner.client.rpc("create_webhook", {
    project_id: options.projectId ?? project,
    url: options.url ?? receiver.url(),
    events: options.events ?? ["task.created", "task.changed", "task.moved", "task.deleted", "comment.posted"],
    format: options.format ?? "standard",
  });
  if (error) throw error;
  return data as { id: string; secret: string };
}

async function task(title: string) {
  const { rows } = await stack.db.query<{ id: string; number: number }>(
    "insert into tasks (project_id, title) values ($1, $2) returning id, number",
    [project, title],
  );
  return rows[0];
}

const tick = () => stack.db.query("select public.webhooks_tick()");

async function deliveries(webhookId: string) {
  const { rows } = await stack.db.query<{
    status: string;
    attempt: number;
    error: string | null;
    event: string;
    message_id: string;
    id: string;
  }>(
    "select id, status, attempt, error, event, message_id from webhook_deliveries where webhook_id = $1 order by created_at",
    [webhookId],
  );
  return rows;
}

beforeAll(async () => {
  stack = await startTestStack();
  // the deployment lets webhooks reach this machine's receivers (by default it doesn't)
  await stack.db.query("insert into webhook_allowed_hosts (host, note) values ('127.0.0.1', 'tests')");
  owner = await person("Olga Owner");
  member = await person("Milo Member");
  const { data, error } = await owner.client.rpc("create_team", { name: "Hooks", slug: `hooks-${process.pid}` });
  if (error) throw error;
  team = data.id;
  await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [
    team,
    member.id,
  ]);
  const made = await stack.db.query<{ id: string }>(
    "insert into projects (team_id, key, name) values ($1, 'HK', 'Hooks'), ($1, 'OT', 'Other') returning id",
    [team],
  );
  [project, otherProject] = made.rows.map((r) => r.id);
  const { rows } = await stack.db.query<{ name: string; id: string }>(
    "select name, id from project_statuses where project_id = $1",
    [project],
  );
  statuses = Object.fromEntries(rows.map((r) => [r.name, r.id]));
}, 60_000);

beforeEach(async () => {
  receiver = new Receiver();
  await receiver.start();
  await stack.db.query("delete from webhooks");
});

afterAll(async () => {
  await receiver?.stop();
  await stack?.close();
});

describe("deliveries", () => {
  it("a move in the app, a bulk edit, a token's write and SQL: signed POSTs that verify", async () => {
    const { id: hook, secret } = await addWebhook();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const one = await task("First");
    const two = await task("Second");
    await receiver.waitFor(2);

    const { error: moveError } = await owner.client.rpc("move_task", { task_id: one.id, status_id: statuses["Done"] });
    expect(moveError).toBeNull();
    await receiver.waitFor(3);

    const { error: bulkError } = await owner.client.rpc("bulk_edit_tasks", {
      task_ids: [one.id, two.id],
      change: "priority",
      value: "high",
    });
    expect(bulkError).toBeNull();
    await receiver.waitFor(5);

    // a read-write token's write (the api-token exchange, then REST)
    const made = newApiToken();
    await owner.client.rpc("create_api_token", {
      name: "hooks",
      team_id: team,
      mode: "write",
      days: 1,
      token_hash: made.hash,
      prefix: made.prefix,
    });
    const exchanged = await fetch(`${stack.url}/functions/v1/api-token`, {
      method: "POST",
      headers: { Authorization: `Bearer ${made.token}` },
    });
    const { access_token } = (await exchanged.json()) as { access_token: string };
    const patched = await fetch(`${stack.url}/rest/v1/tasks?id=eq.${two.id}`, {
      method: "PATCH",
      headers: { apikey: stack.anonKey, Authorization: `Bearer ${access_token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Second, renamed by a script" }),
    });
    expect(patched.status).toBe(204);
    await receiver.waitFor(6);

    await stack.db.query("delete from tasks where id = $1", [two.id]);
    const all = await receiver.waitFor(7);

    const types = all.map((r) => JSON.parse(r.body).type);
    expect(types).toEqual([
      "task.created",
      "task.created",
      "task.moved",
      "task.changed",
      "task.changed",
      "task.changed",
      "task.deleted",
    ]);
    for (const r of all) expect(verifies(secret, r)).toBe(true);
    // a tampered body doesn't
    expect(verifies(secret, { ...all[0], body: all[0].body.replace("First", "Frist") })).toBe(false);
    const moved = JSON.parse(all[2].body);
    expect(moved.data).toMatchObject({
      task: { key: `HK-${one.number}`, title: "First", status: "Done" },
      from_status: expect.any(String),
      actor_id: owner.id,
    });
    expect(moved.data.task.url).toMatch(new RegExp(`/teams/hooks-${process.pid}/projects/HK/tasks/${one.number}$`));
    const renamed = JSON.parse(all[5].body);
    expect(renamed.data).toMatchObject({ task: { title: "Second, renamed by a script" }, actor_id: owner.id });

    await tick();
    const log = await deliveries(hook);
    expect(log.map((d) => d.status)).toEqual(Array(7).fill("delivered"));
  });

  it("a comment; nothing from a rolled-back transaction; only the events chosen", async () => {
    const { secret } = await addWebhook({ events: ["comment.posted"] });
    const t = await task("Talked about");
    await stack.db
      .transaction(async (tx) => {
        await tx.query("insert into comments (task_id, body) values ($1, 'Never sent')", [t.id]);
        throw new Error("roll back");
      })
      .catch(() => {});
    await owner.client.from("comments").insert({ task_id: t.id, body: "Looks good" });
    const [r] = await receiver.waitFor(1);
    await new Promise((done) => setTimeout(done, 500));
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(r.body)).toMatchObject({ type: "comment.posted", data: { comment: { body: "Looks good" } } });
    expect(verifies(secret, r)).toBe(true);
  });

  it("Slack's format: text with the task's link", async () => {
    await addWebhook({ format: "slack", events: ["task.created"] });
    const t = await task("Chat about it");
    const [r] = await receiver.waitFor(1);
    const body = JSON.parse(r.body) as { text: string };
    expect(Object.keys(body)).toEqual(["text"]);
    expect(body.text).toContain(`HK-${t.number}`);
    expect(body.text).toMatch(new RegExp(`https?://[^ ]+/teams/hooks-${process.pid}/projects/HK/tasks/${t.number}`));
  });
});

describe("when the receiver is down", () => {
  it("retries with back-off, one at a time, and Send again works", async () => {
    const { id: hook, secret } = await addWebhook();
    const port = receiver.port;
    await receiver.stop();
    await task("While down");
    // pg_net's answer (connection refused) arrives; the tick records the failed attempt
    await waitUntil(async () => {
      await tick();
      return (await deliveries(hook))[0]?.status === "pending";
    });
    const [first] = await deliveries(hook);
    expect(first).toMatchObject({ status: "pending", attempt: 1 });
    expect(first.error).toBeTruthy();
    const { rows: after } = await stack.db.query<{ failures_in_row: number; wait: number; next: number }>(
      `select w.failures_in_row, extract(epoch from w.retry_at - now())::int as wait,
              extract(epoch from d.next_attempt_at - now())::int as next
       from webhooks w join webhook_deliveries d on d.webhook_id = w.id where w.id = $1`,
      [hook],
    );
    expect(after[0].failures_in_row).toBe(1);
    expect(after[0].wait).toBeGreaterThan(50);
    expect(after[0].wait).toBeLessThanOrEqual(60);
    expect(after[0].next).toBeGreaterThan(50);

    // more changes wait behind it instead of knocking on a closed door
    await task("Also while down");
    await tick();
    expect((await deliveries(hook)).map((d) => d.status)).toEqual(["pending", "pending"]);

    // the receiver is back; the minute has passed
    await receiver.start(port);
    await stack.db.query("update webhooks set retry_at = now() where id = $1", [hook]);
    await stack.db.query("update webhook_deliveries set next_attempt_at = now() where webhook_id = $1", [hook]);
    await tick();
    await receiver.waitFor(1);
    await waitUntil(async () => {
      await tick();
      return (await deliveries(hook)).every((d) => d.status === "delivered");
    });
    const got = await receiver.waitFor(2);
    expect(got.map((r) => JSON.parse(r.body).data.task.title)).toEqual(["While down", "Also while down"]);
    expect(got.every((r) => verifies(secret, r))).toBe(true);
    const log = await deliveries(hook);
    expect(log[0].attempt).toBe(2);

    // Send again: the same message id, as a new delivery
    const { error } = await owner.client.rpc("resend_webhook_delivery", { delivery_id: log[0].id });
    expect(error).toBeNull();
    const again = await receiver.waitFor(3);
    expect(again[2].headers["webhook-id"]).toBe(log[0].message_id);
    expect(verifies(secret, again[2])).toBe(true);
  });

  it("a request lost in a restart (sent, never answered) is sent again", async () => {
    const { id: hook } = await addWebhook({ events: ["task.created"] });
    await stack.db.query("update webhooks set enabled = false where id = $1", [hook]);
    await task("Lost");
    await stack.db.query("update webhooks set enabled = true where id = $1", [hook]);
    // what a kill -9 between pg_net's send and its answer leaves: 'sending', no answer row
    await stack.db.query(
      `insert into webhook_deliveries (webhook_id, project_id, message_id, event, payload, status, attempt, request_id, sent_at)
       values ($1, $2, 'msg_lost', 'task.created', '{"type":"task.created","data":{"task":{"title":"Lost"}}}', 'sending', 1, -1,
               now() - interval '2 minutes')`,
      [hook, project],
    );
    await tick();
    expect((await deliveries(hook))[0]).toMatchObject({ status: "pending", error: "No answer (the request was lost)" });
  });

  it("turns the webhook off after 20 failures in a row", async () => {
    const { id: hook } = await addWebhook({ events: ["task.created"] });
    await stack.db.query("update webhooks set failures_in_row = 19, retry_at = now() where id = $1", [hook]);
    receiver.status = 500;
    await stack.db.query(
      `insert into webhook_deliveries (webhook_id, project_id, message_id, event, payload, next_attempt_at)
       values ($1, $2, 'msg_x', 'task.created', '{"type":"task.created","data":{}}', now())`,
      [hook, project],
    );
    await tick();
    await receiver.waitFor(1);
    await waitUntil(async () => {
      await tick();
      return (await deliveries(hook))[0]?.status !== "sending";
    });
    const { rows } = await stack.db.query("select enabled, failures_in_row from webhooks where id = $1", [hook]);
    expect(rows[0]).toEqual({ enabled: false, failures_in_row: 20 });
    // the team's admins and owner are told in the bell (the member isn't)
    const { data: told } = await owner.client.from("notifications").select("kind, task_id").eq("kind", "webhook_off");
    expect(told).toHaveLength(1);
    const { data: notTold } = await member.client.from("notifications").select("kind").eq("kind", "webhook_off");
    expect(notTold).toEqual([]);
    expect((await deliveries(hook))[0]).toMatchObject({ error: "HTTP 500" });
  });
});

describe("a restart of the stack", () => {
  it("sends what was queued before it stopped, once, and the log records it", async () => {
    const database = await persistentTestDatabase();
    try {
      // pg_net's sender off: the stack stops after the commit, before anything left
      const first = await database.start({ scheduler: { net: false } });
      await first.db.query("insert into webhook_allowed_hosts (host) values ('127.0.0.1')");
      const { rows: people } = await first.db.query<{ id: string }>(
        `insert into auth.users (id, email, aud, role, created_at, updated_at)
         values (gen_random_uuid(), 'restart@example.com', 'authenticated', 'authenticated', now(), now()) returning id`,
      );
      const as = { role: "authenticated" as const, claims: { sub: people[0].id, role: "authenticated" } };
      const projectId = await first.db.asRequest(as, async (tx) => {
        const team = await tx.query<{ id: string }>("select id from create_team('Restart', 'restart-team')");
        const made = await tx.query<{ id: string }>(
          "insert into projects (team_id, key, name) values ($1, 'RS', 'Restart') returning id",
          [team.rows[0].id],
        );
        await tx.query("select create_webhook($1, $2, array['task.created'], 'standard')", [
          made.rows[0].id,
          receiver.url(),
        ]);
        return made.rows[0].id;
      });
      await first.db.query("insert into tasks (project_id, title) values ($1, 'Before the crash')", [projectId]);
      expect((await first.db.query("select status from webhook_deliveries")).rows).toEqual([{ status: "sending" }]);
      await first.close();
      expect(receiver.received).toEqual([]);

      const second = await database.start();
      try {
        await receiver.waitFor(1);
        await waitUntil(async () => {
          await second.db.query("select public.webhooks_tick()");
          const { rows } = await second.db.query<{ status: string }>("select status from webhook_deliveries");
          return rows[0]?.status === "delivered";
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(receiver.received).toHaveLength(1);
        expect(JSON.parse(receiver.received[0].body).data.task.title).toBe("Before the crash");
      } finally {
        await second.close();
      }
    } finally {
      await database.dispose();
    }
  });
});

describe("who and where", () => {
  it("refuses addresses that aren't http(s), private, link-local, metadata or the backend itself", async () => {
    const refused = async (url: string) => {
      const { error } = await owner.client.rpc("create_webhook", {
        project_id: project,
        url,
        events: ["task.created"],
        format: "standard",
      });
      return error?.message;
    };
    expect(await refused("ftp://example.com/x")).toBe("A webhook needs an http or https address.");
    expect(await refused("not a url")).toBe("A webhook needs an http or https address.");
    const privateMessage = "That address is on a private network; this deployment doesn't send webhooks there.";
    for (const url of [
      "http://169.254.169.254/latest/meta-data",
      "http://10.1.2.3/hook",
      "http://192.168.0.10/",
      "http://[::1]:8080/",
      "http://localhost:9999/",
      "http://2130706433/",
      "http://metadata.google.internal/",
      "http://127.0.0.2/",
    ]) {
      expect(await refused(url), url).toBe(privateMessage);
    }
    expect(await refused(`${stack.url}/rest/v1/tasks`)).toBe("A webhook can't point at Teamboard's own backend.");
    expect(await refused("https://hooks.example.com/teamboard")).toBeUndefined();
  });

  it("admins only; the secret and another project's log stay hidden", async () => {
    const { id } = await addWebhook();
    await addWebhook({ projectId: otherProject });
    const { error } = await member.client.rpc("create_webhook", {
      project_id: project,
      url: receiver.url(),
      events: ["task.created"],
      format: "standard",
    });
    expect(error?.code).toBe("42501");
    expect((await member.client.from("webhooks").select("id")).data).toEqual([]);
    expect((await member.client.from("webhook_deliveries").select("id")).data).toEqual([]);
    const { error: secretError } = await owner.client.from("webhooks").select("secret_id").eq("id", id);
    expect(secretError).not.toBeNull();
    const { error: payloadError } = await owner.client.from("webhook_deliveries").select("payload");
    expect(payloadError).not.toBeNull();
    // the owner is admin of both: RLS scopes the log per project
    const { data: log } = await owner.client.from("webhook_deliveries").select("project_id").eq("project_id", project);
    expect((log ?? []).every((d) => d.project_id === project)).toBe(true);
    // a project with a webhook and tasks can still be deleted (its tasks' deletions send nothing)
    await stack.db.query("insert into tasks (project_id, title) values ($1, 'Goes with it')", [otherProject]);
    const secrets = async () =>
      (await stack.db.query<{ n: number }>("select count(*)::int as n from vault.secrets where name like 'webhook:%'"))
        .rows[0].n;
    const before = await secrets();
    await stack.db.query("delete from projects where id = $1", [otherProject]);
    expect((await stack.db.query("select 1 from webhooks where project_id = $1", [otherProject])).rows).toEqual([]);
    // and its secret leaves Vault with it
    expect(await secrets()).toBe(before - 1);
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out waiting");
}
