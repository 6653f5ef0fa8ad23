/**
 * Private projects (issue 41; docs/product.md §20; 20261207000800_private_projects.sql): only the
 * project's members and the team's admins and owners see a private project and anything in it.
 *
 * The matrix: every read is a REST / Storage call made with the person's own token (anon: the
 * anon key alone), as the app or anyone holding the token could make it:
 *
 *   read of project HR (private)             owner admin insider member viewer outsider anon
 *   everything listed in READS                  ✓     ✓      ✓       ✗      ✗       ✗      ✗
 *
 * then what follows from it: writes, notifications, watching, the calendar feed, losing access.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PEOPLE = ["owner", "admin", "insider", "member", "viewer", "outsider"] as const;
type Person = (typeof PEOPLE)[number];
const ACTORS = [...PEOPLE, "anon"] as const;
type ActorName = (typeof ACTORS)[number];
const SEES: Record<ActorName, boolean> = {
  owner: true,
  admin: true,
  insider: true,
  member: false,
  viewer: false,
  outsider: false,
  anon: false,
};

let stack: TestStack;
const users = {} as Record<Person, string>;
const clients = {} as Record<ActorName, SupabaseClient>;
let team: string;
let slug: string;
let hr: string;
let web: string;
let hrTask: string;
let webTask: string;

async function one(sql: string, params: unknown[] = []) {
  return (await stack.db.query<{ id: string }>(sql, params)).rows[0]?.id;
}

/** what reading returns, as rows (or null when refused / not found) */
type Read = (c: SupabaseClient) => PromiseLike<{ data: unknown; error: unknown }>;
const READS: [string, Read][] = [
  ["projects: the project", (c) => c.from("projects").select("id").eq("id", hr)],
  ["tasks: its task", (c) => c.from("tasks").select("id").eq("project_id", hr)],
  ["comments", (c) => c.from("comments").select("id").eq("task_id", hrTask)],
  ["attachments", (c) => c.from("attachments").select("id").eq("task_id", hrTask)],
  ["task_watchers", (c) => c.from("task_watchers").select("user_id").eq("task_id", hrTask)],
  ["task_events (activity)", (c) => c.from("task_events").select("id").eq("project_id", hr)],
  ["project_statuses", (c) => c.from("project_statuses").select("id").eq("project_id", hr)],
  ["checklist_items", (c) => c.from("checklist_items").select("id").eq("task_id", hrTask)],
  ["task_labels", (c) => c.from("task_labels").select("label_id").eq("task_id", hrTask)],
  ["task_relations (to a team-wide task)", (c) => c.from("task_relations").select("id").eq("from_task_id", hrTask)],
  ["project_members", (c) => c.from("project_members").select("user_id").eq("project_id", hr)],
  ["rpc board_view", (c) => c.rpc("board_view", { team_slug: slug, project_key: "HR" })],
  ["rpc task_panel", (c) => c.rpc("task_panel", { team_slug: slug, project_key: "HR", task_number: 1 })],
  [
    "rpc team_activity (the activity page) for HR",
    async (c) => {
      const { data, error } = await c.rpc("team_activity", { team_slug: slug, project_key: "HR" });
      return { data: Array.isArray(data) ? data : null, error };
    },
  ],
  ["rpc search_tasks", (c) => c.rpc("search_tasks", { query: "salary" }).eq("id", hrTask)],
  [
    "rpc team_overview counts its task (2 open tasks, not 1)",
    async (c) => {
      const { data, error } = await c.rpc("team_overview", { team_id: team });
      const counts = (data as { counts?: Record<string, number> } | null)?.counts ?? {};
      const found = Object.values(counts).reduce((a, b) => a + b, 0) === 2 ? [data] : [];
      return { data: found, error };
    },
  ],
  [
    "storage: the attachment's file",
    async (c) => {
      const { data, error } = await c.storage.from("attachments").download(`${hrTask}/salaries.txt`);
      return { data: data ? [data] : null, error };
    },
  ],
];

const seen = (result: { data: unknown; error: unknown }) =>
  !result.error && result.data !== null && (!Array.isArray(result.data) || result.data.length > 0);

beforeAll(async () => {
  stack = await startTestStack();
  const options = {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  };
  for (const name of PEOPLE) {
    const email = `${name}@private.test`;
    users[name] = await one(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
       values (gen_random_uuid(), $1, 'authenticated', 'authenticated', jsonb_build_object('display_name', $2::text), now(), now(), now())
       returning id`,
      [email, name],
    );
    await stack.db.query("update profiles set username = $2 where id = $1", [users[name], name]);
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
  slug = "acme-private";
  team = await stack.db.asRequest(
    { role: "authenticated", claims: { sub: users.owner, role: "authenticated", aud: "authenticated" } },
    async (tx) => (await tx.query<{ id: string }>("select id from create_team('Acme', $1)", [slug])).rows[0].id,
  );
  for (const [name, role] of [
    ["admin", "admin"],
    ["insider", "member"],
    ["member", "member"],
    ["viewer", "viewer"],
  ] as const) {
    await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, $3)", [
      team,
      users[name],
      role,
    ]);
  }
  web = await one("insert into projects (team_id, key, name) values ($1, 'WEB', 'Website') returning id", [team]);
  hr = await one(
    "insert into projects (team_id, key, name, visibility) values ($1, 'HR', 'HR', 'private') returning id",
    [team],
  );
  await stack.db.query("insert into project_members (project_id, user_id, added_by) values ($1, $2, $3)", [
    hr,
    users.insider,
    users.owner,
  ]);
  hrTask = await one(
    "insert into tasks (project_id, title, created_by, due_on) values ($1, 'Salary review', $2, current_date) returning id",
    [hr, users.owner],
  );
  webTask = await one("insert into tasks (project_id, title, created_by) values ($1, 'Homepage', $2) returning id", [
    web,
    users.owner,
  ]);
  await stack.db.query("insert into comments (task_id, author_id, body) values ($1, $2, 'Numbers attached')", [
    hrTask,
    users.owner,
  ]);
  await stack.db.query("insert into checklist_items (task_id, title, created_by) values ($1, 'Collect', $2)", [
    hrTask,
    users.owner,
  ]);
  const label = await one(
    "insert into labels (team_id, name, color, created_by) values ($1, 'Bug', 'red', $2) returning id",
    [team, users.owner],
  );
  await stack.db.query("insert into task_labels (task_id, label_id) values ($1, $2)", [hrTask, label]);
  await stack.db.query(
    "insert into task_relations (from_task_id, to_task_id, kind, created_by) values ($1, $2, 'relates', $3)",
    [hrTask, webTask, users.owner],
  );
  await stack.db.query("insert into task_watchers (task_id, user_id) values ($1, $2)", [hrTask, users.insider]);
  const upload = await clients.owner.storage
    .from("attachments")
    .upload(`${hrTask}/salaries.txt`, new Blob(["secret"], { type: "text/plain" }));
  expect(upload.error).toBeNull();
  await stack.db.query(
    `insert into attachments (task_id, object_path, file_name, size_bytes, content_type, uploaded_by)
     values ($1::uuid, $1::text || '/salaries.txt', 'salaries.txt', 6, 'text/plain', $2)`,
    [hrTask, users.owner],
  );
});

afterAll(async () => {
  await stack?.close();
});

describe("a private project, read through the API with each person's token", () => {
  for (const [what, read] of READS) {
    describe(what, () => {
      for (const actor of ACTORS) {
        it(`${SEES[actor] ? "✓" : "✗"} ${actor}`, async () => {
          expect(seen(await read(clients[actor]))).toBe(SEES[actor]);
        });
      }
    });
  }

  it("the team-wide project stays visible to every member of the team", async () => {
    for (const actor of ["member", "viewer", "insider"] as const) {
      const { data } = await clients[actor].from("tasks").select("id").eq("project_id", web);
      expect(data, actor).toHaveLength(1);
    }
    // the member sees the team-wide task, not its relation to the private one
    const { data } = await clients.member.from("task_relations").select("id").eq("to_task_id", webTask);
    expect(data).toEqual([]);
  });
});

describe("writes and choosing people", () => {
  it("only admins+ choose project members, only from the team; a member outside can't write in it", async () => {
    const byMember = await clients.insider.from("project_members").insert({ project_id: hr, user_id: users.member });
    expect(byMember.error).not.toBeNull();
    const outsider = await clients.admin.from("project_members").insert({ project_id: hr, user_id: users.outsider });
    expect(outsider.error?.message).toBe("Only people in the team can be added to a project.");
    const task = await clients.member
      .from("tasks")
      .insert({ project_id: hr, title: "Sneak", created_by: users.member });
    expect(task.error).not.toBeNull();
    const comment = await clients.member
      .from("comments")
      .insert({ task_id: hrTask, body: "hi", author_id: users.member });
    expect(comment.error).not.toBeNull();
    const visibility = await clients.insider.from("projects").update({ visibility: "team" }).eq("id", hr).select();
    expect(visibility.data ?? []).toEqual([]);
    expect((await stack.db.query("select visibility from projects where id = $1", [hr])).rows[0].visibility).toBe(
      "private",
    );
  });

  it("someone who can't see the project can't be assigned, nor made to watch", async () => {
    const assign = await clients.admin.from("tasks").update({ assignee_id: users.member }).eq("id", hrTask);
    expect(assign.error?.message).toBe("The assignee must be able to see this project.");
    await stack.db.query("select watch_task($1, array[$2]::uuid[])", [hrTask, users.member]);
    const { rows } = await stack.db.query("select 1 from task_watchers where task_id = $1 and user_id = $2", [
      hrTask,
      users.member,
    ]);
    expect(rows).toEqual([]);
  });

  it("nor added as one of several assignees (task_assignees, issue 38)", async () => {
    const added = await clients.admin.from("task_assignees").insert({ task_id: hrTask, person_id: users.member });
    expect(added.error?.message).toBe("The assignee must be able to see this project.");
    const insider = await clients.admin.from("task_assignees").insert({ task_id: hrTask, person_id: users.insider });
    expect(insider.error).toBeNull();
    await clients.admin.from("task_assignees").delete().eq("task_id", hrTask).eq("person_id", users.insider);
  });
});

describe("activity in a team-wide project about a private project's task", () => {
  it("names the private task by key and number only, also for events made before it turned private", async () => {
    const titleSeen = async (projectId: string) => {
      const { data } = await clients.member
        .from("task_events")
        .select("data")
        .eq("project_id", projectId)
        .in("kind", ["relation_added"]);
      return (data ?? []).map((e) => (e.data as { title?: string }).title ?? null);
    };
    // made while HR was private (in beforeAll): the WEB task's event has no title
    expect(await titleSeen(web)).toEqual([null]);
    // a relation between two team-wide projects keeps the title until one turns private
    const ops = await one("insert into projects (team_id, key, name) values ($1, 'DOC', 'Docs') returning id", [team]);
    const docTask = await one(
      "insert into tasks (project_id, title, created_by) values ($1, 'Secret plan', $2) returning id",
      [ops, users.owner],
    );
    const relWeb = await one("insert into tasks (project_id, title, created_by) values ($1, 'Link', $2) returning id", [
      web,
      users.owner,
    ]);
    await stack.db.query(
      "insert into task_relations (from_task_id, to_task_id, kind, created_by) values ($1, $2, 'relates', $3)",
      [relWeb, docTask, users.owner],
    );
    expect(await titleSeen(web)).toContain("Secret plan");
    await stack.db.query("update projects set visibility = 'private' where id = $1", [ops]);
    expect(await titleSeen(web)).not.toContain("Secret plan");
    const { rows } = await stack.db.query<{ n: number }>(
      "select count(*)::int as n from task_events where kind like 'relation%' and data ->> 'title' = 'Secret plan'",
    );
    expect(rows[0].n).toBe(0);
  });
});

describe("notifications and losing access", () => {
  it("a mention of someone outside the project notifies nobody; the member inside is notified", async () => {
    await stack.db.asRequest(
      { role: "authenticated", claims: { sub: users.owner, role: "authenticated", aud: "authenticated" } },
      (tx) => tx.query("insert into comments (task_id, body) values ($1, '@member and @insider, look')", [hrTask]),
    );
    const { rows } = await stack.db.query<{ recipient_id: string }>(
      "select recipient_id from notifications where task_id = $1",
      [hrTask],
    );
    const recipients = rows.map((r) => r.recipient_id);
    expect(recipients).toContain(users.insider);
    expect(recipients).not.toContain(users.member);
  });

  it("removed from the project: the insider's notifications, watching and assignment there go, and reads stop", async () => {
    await stack.db.query("update tasks set assignee_id = $2 where id = $1", [hrTask, users.insider]);
    expect(
      (await clients.insider.from("notifications").select("id").eq("task_id", hrTask)).data?.length,
    ).toBeGreaterThan(0);
    const removed = await clients.admin
      .from("project_members")
      .delete()
      .eq("project_id", hr)
      .eq("user_id", users.insider);
    expect(removed.error?.message ?? null).toBeNull();
    expect((await clients.insider.from("tasks").select("id").eq("project_id", hr)).data).toEqual([]);
    expect((await clients.insider.from("notifications").select("id").eq("task_id", hrTask)).data).toEqual([]);
    const { rows } = await stack.db.query(
      `select (select count(*)::int from notifications where recipient_id = $2 and task_id = $1) as notes,
              (select count(*)::int from task_watchers where user_id = $2 and task_id = $1) as watching,
              (select assignee_id from tasks where id = $1) as assignee`,
      [hrTask, users.insider],
    );
    expect(rows[0]).toEqual({ notes: 0, watching: 0, assignee: null });
    // added back: sees it again
    const added = await clients.owner.from("project_members").insert({ project_id: hr, user_id: users.insider });
    expect(added.error).toBeNull();
    expect((await clients.insider.from("tasks").select("id").eq("project_id", hr)).data).toHaveLength(1);
  });

  it("a project turning private: those not chosen lose it and what they had there at once", async () => {
    const ops = await one("insert into projects (team_id, key, name) values ($1, 'OPS', 'Ops') returning id", [team]);
    const opsTask = await one(
      "insert into tasks (project_id, title, created_by, assignee_id) values ($1, 'Rota', $2, $3) returning id",
      [ops, users.owner, users.member],
    );
    await stack.db.query("insert into task_watchers (task_id, user_id) values ($1, $2) on conflict do nothing", [
      opsTask,
      users.member,
    ]);
    await stack.db.query(
      "insert into notifications (recipient_id, team_id, task_id, kind, email) values ($1, $2, $3, 'assigned', 'pending')",
      [users.member, team, opsTask],
    );
    expect((await clients.member.from("tasks").select("id").eq("id", opsTask)).data).toHaveLength(1);
    const made = await clients.admin.from("projects").update({ visibility: "private" }).eq("id", ops);
    expect(made.error?.message ?? null).toBeNull();
    expect((await clients.member.from("tasks").select("id").eq("id", opsTask)).data).toEqual([]);
    expect((await clients.viewer.from("projects").select("id").eq("id", ops)).data).toEqual([]);
    expect((await clients.admin.from("tasks").select("id").eq("id", opsTask)).data).toHaveLength(1);
    const { rows } = await stack.db.query(
      `select (select count(*)::int from notifications where task_id = $1 and recipient_id = $2) as notes,
              (select count(*)::int from task_watchers where task_id = $1 and user_id = $2) as watching,
              (select assignee_id from tasks where id = $1) as assignee`,
      [opsTask, users.member],
    );
    expect(rows[0]).toEqual({ notes: 0, watching: 0, assignee: null });
  });

  it("an admin demoted to member no longer sees a private project they weren't chosen for", async () => {
    const extra = await one(
      `insert into auth.users (id, email, aud, role, created_at, updated_at)
       values (gen_random_uuid(), 'demoted@private.test', 'authenticated', 'authenticated', now(), now()) returning id`,
    );
    await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'admin')", [team, extra]);
    await stack.db.query("insert into task_watchers (task_id, user_id) values ($1, $2)", [hrTask, extra]);
    await stack.db.query("update team_members set role = 'member' where team_id = $1 and user_id = $2", [team, extra]);
    const { rows } = await stack.db.query("select 1 from task_watchers where task_id = $1 and user_id = $2", [
      hrTask,
      extra,
    ]);
    expect(rows).toEqual([]);
  });

  it("the calendar feed leaves out a private project's tasks for someone not in it", async () => {
    const due = await one(
      "insert into tasks (project_id, title, created_by, assignee_id, due_on) values ($1, 'Due here', $2, $3, current_date + 1) returning id",
      [web, users.owner, users.viewer],
    );
    const secret = "A".repeat(16) + "b".repeat(43);
    await stack.db.query(
      `insert into calendar_feeds (user_id, selector, token_hash) values ($1, left($2, 16), sha256(convert_to(substr($2, 17), 'UTF8')))
       on conflict (user_id) do update set selector = excluded.selector, token_hash = excluded.token_hash`,
      [users.viewer, secret],
    );
    const before = await stack.db.query<{ f: { tasks: { id: string }[] } }>("select calendar_feed($1) as f", [secret]);
    expect(before.rows[0].f.tasks.map((t) => t.id)).toContain(due);
    // made private (which unassigns the viewer); assigned again past the rule, as the database owner
    await stack.db.query("update projects set visibility = 'private' where id = $1", [web]);
    // (an assignee is a task_assignees row too: its check is passed the same way)
    await stack.db.query("alter table tasks disable trigger tasks_check_assignee");
    await stack.db.query("alter table task_assignees disable trigger task_assignees_visible");
    await stack.db.query("update tasks set assignee_id = $2 where id = $1", [due, users.viewer]);
    await stack.db.query("alter table task_assignees enable trigger task_assignees_visible");
    await stack.db.query("alter table tasks enable trigger tasks_check_assignee");
    const after = await stack.db.query<{ f: { tasks: { id: string }[] } }>("select calendar_feed($1) as f", [secret]);
    expect(after.rows[0].f.tasks.map((t) => t.id)).not.toContain(due);
    await stack.db.query("update projects set visibility = 'team' where id = $1", [web]);
  });
});
