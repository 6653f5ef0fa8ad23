/**
 * Public read-only links (issue 41; docs/product.md §20; 20261208000200_share_links.sql), through
 * the REST API with each person's own token (anon: the anon key alone), as anyone could call it:
 *
 *   share_links (the table)         owner admin member viewer outsider anon
 *   read (never the hash)              ✓     ✓      ✗      ✗       ✗       ✗
 *   make, revoke                       ✓     ✓      ✗      ✗       ✗       ✗
 *   shared_board(secret)            only the live secret answers, and only what the sharer chose
 */
import crypto from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PEOPLE = ["owner", "admin", "member", "viewer", "outsider"] as const;
type Person = (typeof PEOPLE)[number];
type Actor = Person | "anon";

let stack: TestStack;
const users = {} as Record<Person, string>;
const clients = {} as Record<Actor, SupabaseClient>;
let team: string;
let web: string;
let customer: string;
let budget: string;
let sharedView: string;
let personalView: string;

const one = async (sql: string, params: unknown[] = []) =>
  (await stack.db.query<{ id: string }>(sql, params)).rows[0]?.id;
const newSecret = () => crypto.randomBytes(32).toString("base64url");
const hashOf = (secret: string) => crypto.createHash("sha256").update(secret).digest("hex");

/** A link made through REST by `who`; its secret (or the error). */
async function share(
  who: Actor,
  link: { view_id?: string | null; field_ids?: string[]; show_comments?: boolean; project_id?: string } = {},
) {
  const secret = newSecret();
  // as the app makes one: no row comes back (it could only come back without its hash)
  const { error } = await clients[who]
    .from("share_links")
    .insert({ project_id: web, secret_hash: hashOf(secret), ...link });
  const id = error ? null : await one("select id from share_links where secret_hash = $1", [hashOf(secret)]);
  return { secret, id, error };
}

const board = async (secret: string, who: Actor = "anon") => {
  const { data, error } = await clients[who].rpc("shared_board", { secret });
  expect(error).toBeNull();
  return data as {
    project: { key: string; name: string };
    view: string | null;
    fields: string[];
    statuses: Array<{
      name: string;
      tasks: Array<{
        number: number;
        title: string;
        labels: Array<{ name: string }>;
        fields: Array<{ name: string; value: string }>;
        comments: Array<{ author: string; body: string }> | null;
      }>;
    }>;
  } | null;
};
const titles = (b: Awaited<ReturnType<typeof board>>) => b!.statuses.flatMap((s) => s.tasks.map((t) => t.title)).sort();

beforeAll(async () => {
  stack = await startTestStack();
  const options = {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  };
  for (const name of PEOPLE) {
    const email = `${name}@links.test`;
    users[name] = await one(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
       values (gen_random_uuid(), $1, 'authenticated', 'authenticated', jsonb_build_object('display_name', $2::text), now(), now(), now())
       returning id`,
      [email, `${name[0].toUpperCase()}${name.slice(1)} Person`],
    );
    const token = await stack.keys.sign(
      { sub: users[name], role: "authenticated", aud: "authenticated", email },
      { expiresIn: 3600 },
    );
    clients[name] = createClient(stack.url, stack.anonKey, {
      ...options,
      global: { headers: { Authorization: `Bearer ${token}` } },
    });
  }
  clients.anon = createClient(stack.url, stack.anonKey, options);
  team = await stack.db.asRequest(
    { role: "authenticated", claims: { sub: users.owner, role: "authenticated", aud: "authenticated" } },
    async (tx) => (await tx.query<{ id: string }>("select id from create_team('Acme', 'acme-links')")).rows[0].id,
  );
  // the outsider is an admin of another team
  await stack.db.asRequest(
    { role: "authenticated", claims: { sub: users.outsider, role: "authenticated", aud: "authenticated" } },
    async (tx) => tx.query("select id from create_team('Other', 'other-links')"),
  );
  await stack.db.query(
    `insert into team_members (team_id, user_id, role) values ($1, $2, 'admin'), ($1, $3, 'member'), ($1, $4, 'viewer')`,
    [team, users.admin, users.member, users.viewer],
  );
  web = await one("insert into projects (team_id, key, name) values ($1, 'WEB', 'Website') returning id", [team]);
  const status = (name: string) =>
    one("select id from project_statuses where project_id = $1 and name = $2", [web, name]);
  const task = async (title: string, statusName: string) =>
    one("insert into tasks (project_id, title, status_id, created_by) values ($1, $2, $3, $4) returning id", [
      web,
      title,
      await status(statusName),
      users.owner,
    ]);
  const launch = await task("Launch the site", "To do");
  const polish = await task("Polish the footer", "Backlog");
  const bug = await one("insert into labels (team_id, name, color) values ($1, 'Bug', 'red') returning id", [team]);
  await stack.db.query("insert into task_labels (task_id, label_id) values ($1, $2)", [launch, bug]);
  customer = await one("insert into fields (project_id, name, kind) values ($1, 'Customer', 'text') returning id", [
    web,
  ]);
  budget = await one("insert into fields (project_id, name, kind) values ($1, 'Budget', 'text') returning id", [web]);
  await stack.db.query(
    `insert into field_values (task_id, field_id, value) values ($1, $2, '"Globex"'), ($1, $3, '"secret money"')`,
    [launch, customer, budget],
  );
  await stack.db.query("insert into comments (task_id, author_id, body) values ($1, $2, 'Ship it on Monday')", [
    launch,
    users.member,
  ]);
  await stack.db.query(
    `insert into attachments (task_id, object_path, file_name, size_bytes, uploaded_by)
     values ($1, $2, 'contract.pdf', 10, $3)`,
    [launch, `${launch}/contract.pdf`, users.member],
  );
  void polish;
  sharedView = await one(
    "insert into saved_views (project_id, owner_id, name, kind, query, shared) values ($1, $2, 'Bugs', 'board', 'label=bug', true) returning id",
    [web, users.owner],
  );
  personalView = await one(
    "insert into saved_views (project_id, owner_id, name, kind, query, shared) values ($1, $2, 'Mine', 'board', '', false) returning id",
    [web, users.admin],
  );
}, 120_000);
afterAll(() => stack?.close());

describe("making links", () => {
  it("admins and owners share the board; members, viewers, other teams and anon cannot", async () => {
    expect((await share("owner")).error).toBeNull();
    expect((await share("admin")).error).toBeNull();
    for (const who of ["member", "viewer", "outsider", "anon"] as const) {
      const { error, id } = await share(who);
      expect(id, who).toBeNull();
      expect(error, who).not.toBeNull();
    }
  });

  it("a shared view can be shared, a personal view cannot (not even by its owner, an admin)", async () => {
    expect((await share("admin", { view_id: sharedView })).error).toBeNull();
    expect((await share("admin", { view_id: personalView })).error).not.toBeNull();
  });

  it("the table is readable by the project's admins only, and never its hash", async () => {
    await share("admin");
    const seen = async (who: Actor) =>
      (await clients[who].from("share_links").select("id").eq("project_id", web)).data ?? [];
    expect((await seen("owner")).length).toBeGreaterThan(0);
    expect((await seen("admin")).length).toBeGreaterThan(0);
    for (const who of ["member", "viewer", "outsider", "anon"] as const) expect(await seen(who), who).toEqual([]);
    const hash = await clients.admin.from("share_links").select("secret_hash").limit(1);
    expect(hash.error).not.toBeNull();
    expect(hash.data).toBeNull();
  });
});

describe("the shared board", () => {
  it("shows the statuses, tasks, labels and the chosen fields only, to anon, in one call", async () => {
    const { secret } = await share("admin", { field_ids: [customer] });
    const shown = await board(secret);
    expect(shown!.project).toEqual({ key: "WEB", name: "Website" });
    expect(shown!.fields).toEqual(["Customer"]);
    expect(shown!.statuses.map((s) => s.name)).toContain("To do");
    expect(titles(shown)).toEqual(["Launch the site", "Polish the footer"]);
    const launch = shown!.statuses.flatMap((s) => s.tasks).find((t) => t.title === "Launch the site")!;
    expect(launch.labels).toEqual([{ name: "Bug", color: "red" }]);
    expect(launch.fields).toEqual([{ name: "Customer", value: "Globex" }]);
    expect(launch.comments).toBeNull();
    const text = JSON.stringify(shown);
    // no emails, no attachments, no unchosen field, no comment, no ids
    for (const absent of ["@links.test", "contract.pdf", "secret money", "Budget", "Ship it", users.owner, web])
      expect(text).not.toContain(absent);
  });

  it("shows comments (author's name and text, no email) only when chosen", async () => {
    const { secret } = await share("owner", { show_comments: true });
    const shown = await board(secret);
    const launch = shown!.statuses.flatMap((s) => s.tasks).find((t) => t.title === "Launch the site")!;
    expect(launch.comments).toMatchObject([{ author: "Member Person", body: "Ship it on Monday" }]);
    expect(launch.fields).toEqual([]);
    expect(JSON.stringify(shown)).not.toContain("@links.test");
  });

  it("a view's link shows the view's tasks only (its filter), and dies with the view", async () => {
    const view = await one(
      "insert into saved_views (project_id, owner_id, name, kind, query, shared) values ($1, $2, 'Footer', 'list', 'q=footer&sort=-due', true) returning id",
      [web, users.owner],
    );
    const { secret } = await share("admin", { view_id: view });
    expect(titles(await board(secret))).toEqual(["Polish the footer"]);
    expect((await board(secret))!.view).toBe("Footer");
    const bugs = await share("admin", { view_id: sharedView });
    expect(titles(await board(bugs.secret))).toEqual(["Launch the site"]);
    await stack.db.query("delete from saved_views where id = $1", [view]);
    expect(await board(secret)).toBeNull();
  });

  it("an unknown, malformed or empty secret answers nothing", async () => {
    await share("admin");
    for (const secret of [newSecret(), "x", "", "' or true --", `${newSecret()}A`])
      expect(await board(secret)).toBeNull();
  });

  it("revoked, it answers nothing, to anyone; members can't revoke, and a revoked link stays revoked", async () => {
    const { secret, id } = await share("admin");
    const revokedAt = async () =>
      (await stack.db.query<{ revoked_at: Date | null }>("select revoked_at from share_links where id = $1", [id]))
        .rows[0].revoked_at;
    const revoke = (who: Actor, at: string | null) =>
      clients[who].from("share_links").update({ revoked_at: at }).eq("id", id!);
    for (const who of ["member", "viewer", "outsider", "anon"] as const) await revoke(who, new Date().toISOString());
    expect(await revokedAt()).toBeNull();
    expect(await board(secret)).not.toBeNull();
    expect((await revoke("admin", new Date().toISOString())).error).toBeNull();
    expect(await revokedAt()).not.toBeNull();
    expect(await board(secret)).toBeNull();
    expect(await board(secret, "owner")).toBeNull();
    await revoke("owner", null);
    expect(await revokedAt()).not.toBeNull();
    expect(await board(secret)).toBeNull();
  });

  it("a column shows its first 500 tasks and says how many it has", async () => {
    const big = await one("insert into projects (team_id, key, name) values ($1, 'BIG', 'Big') returning id", [team]);
    // without the tasks' triggers (numbering, activity, search text: not what this reads), so it takes
    // a moment rather than seconds
    await stack.db.exec(
      `begin;
       set local session_replication_role = replica;
       insert into tasks (project_id, title, status_id, number, position)
       select $1, 'Task ' || i, (select id from project_statuses where project_id = $1 and name = 'Backlog'), i, i
       from generate_series(1, 501) i;
       commit;`.replace(/\$1/g, `'${big}'`),
    );
    const { secret } = await share("admin", { project_id: big });
    const backlog = (await board(secret))!.statuses.find((s) => s.name === "Backlog")!;
    expect(backlog.tasks).toHaveLength(500);
    expect(backlog).toMatchObject({ total: 501 });
    expect(backlog.tasks[0].title).toBe("Task 1");
  });

  it("shows what the board shows: neither an archived task nor one in the trash", async () => {
    const { secret } = await share("admin");
    const status = await one("select id from project_statuses where project_id = $1 and name = 'To do'", [web]);
    const add = (title: string) =>
      one("insert into tasks (project_id, title, status_id, created_by) values ($1, $2, $3, $4) returning id", [
        web,
        title,
        status,
        users.owner,
      ]);
    const archived = await add("Archived plan");
    const trashed = await add("Trashed plan");
    expect(titles(await board(secret))).toEqual(expect.arrayContaining(["Archived plan", "Trashed plan"]));
    expect((await clients.admin.rpc("archive_task", { task_id: archived })).error).toBeNull();
    expect((await clients.admin.rpc("trash_tasks", { task_ids: [trashed] })).error).toBeNull();
    const shown = titles(await board(secret));
    expect(shown).not.toContain("Archived plan");
    expect(shown).not.toContain("Trashed plan");
    expect(shown).toContain("Launch the site");
  });

  it("stores only the secret's hash", async () => {
    const { secret, id } = await share("admin");
    const row = (await stack.db.query<Record<string, unknown>>("select * from share_links where id = $1", [id]))
      .rows[0];
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.secret_hash).toBe(hashOf(secret));
  });
});
