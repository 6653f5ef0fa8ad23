/**
 * Guests (issue 41; docs/product.md §20; 20261208000160_guests.sql): a team role below viewer. A guest
 * sees only the projects they are a project member of, and of the team's people only those projects'
 * people; they may comment there. Their token reads nothing else through the API:
 *
 *   read with the guest's token                       CLIENT (theirs)   WEB (team-wide)   HR (private)
 *   projects, tasks, comments, attachments, activity,
 *   statuses, checklists, task labels, watchers, fields      ✓                 ✗                ✗
 *   board_view, task_panel, search, My work, overview         ✓                 ✗                ✗
 *   Storage (the attachment's file), Realtime (a new task)    ✓                 ✗                ✗
 *   team_members / profiles: CLIENT's people only; labels: those on CLIENT's tasks; invitations: none
 *
 * The guest joins the way the app makes them join: an invitation (role guest, projects [CLIENT])
 * accepted with their own token.
 */
import crypto from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Inbox, makePerson, sleep, subscribed, type Person } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const NAMES = ["owner", "admin", "insider", "member", "viewer", "guest"] as const;
type Name = (typeof NAMES)[number];

let stack: TestStack;
const people = {} as Record<Name, Person>;
let guest: SupabaseClient;
let team: string;
const slug = "acme-guests";
const projects = {} as Record<"CLIENT" | "WEB" | "HR", string>;
const tasks = {} as Record<"CLIENT" | "WEB" | "HR", string>;

async function one(sql: string, params: unknown[] = []) {
  return (await stack.db.query<{ id: string }>(sql, params)).rows[0]?.id;
}

/** the project ids of the rows a read returned (each read selects project_id or task_id) */
async function projectsOf(rows: { project_id?: string; task_id?: string }[] | null) {
  const byTask = Object.fromEntries(Object.entries(tasks).map(([key, id]) => [id, key]));
  const byProject = Object.fromEntries(Object.entries(projects).map(([key, id]) => [id, key]));
  return [
    ...new Set((rows ?? []).map((r) => (r.project_id ? byProject[r.project_id] : byTask[r.task_id ?? ""]) ?? "?")),
  ].sort();
}

beforeAll(async () => {
  stack = await startTestStack();
  for (const name of NAMES) {
    people[name] = await makePerson(stack, name);
    await stack.db.query("update profiles set username = $2 where id = $1", [people[name].id, name]);
  }
  guest = people.guest.client;
  team = await stack.db.asRequest(
    { role: "authenticated", claims: { sub: people.owner.id, role: "authenticated", aud: "authenticated" } },
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
      people[name].id,
      role,
    ]);
  }
  for (const [key, visibility] of [
    ["CLIENT", "private"],
    ["WEB", "team"],
    ["HR", "private"],
  ] as const) {
    projects[key] = await one(
      "insert into projects (team_id, key, name, visibility) values ($1, $2, $2, $3) returning id",
      [team, key, visibility],
    );
    tasks[key] = await one(
      "insert into tasks (project_id, title, created_by) values ($1, $2 || ' secret plan', $3) returning id",
      [projects[key], key, people.owner.id],
    );
    await stack.db.query("insert into comments (task_id, author_id, body) values ($1, $2, 'Noted')", [
      tasks[key],
      people.owner.id,
    ]);
    await stack.db.query("insert into checklist_items (task_id, title, created_by) values ($1, 'Step', $2)", [
      tasks[key],
      people.owner.id,
    ]);
    const label = await one(
      "insert into labels (team_id, name, color, created_by) values ($1, $2, 'red', $3) returning id",
      [team, `Label ${key}`, people.owner.id],
    );
    await stack.db.query("insert into task_labels (task_id, label_id) values ($1, $2)", [tasks[key], label]);
    const upload = await people.owner.client.storage
      .from("attachments")
      .upload(`${tasks[key]}/notes.txt`, new Blob([key], { type: "text/plain" }));
    expect(upload.error).toBeNull();
    await stack.db.query(
      `insert into attachments (task_id, object_path, file_name, size_bytes, content_type, uploaded_by)
       values ($1::uuid, $1::text || '/notes.txt', 'notes.txt', 6, 'text/plain', $2)`,
      [tasks[key], people.owner.id],
    );
  }
  await stack.db.query("insert into project_members (project_id, user_id) values ($1, $2)", [
    projects.CLIENT,
    people.insider.id,
  ]);

  // the owner invites the guest to CLIENT (as the app does: its own token, through REST) …
  const secret = crypto.randomBytes(32).toString("base64url");
  const invited = await people.owner.client.from("invitations").insert({
    team_id: team,
    email: people.guest.email,
    role: "guest",
    token_hash: crypto.createHash("sha256").update(secret).digest("hex"),
    project_ids: [projects.CLIENT],
  });
  expect(invited.error).toBeNull();
  // … and the guest accepts with theirs
  const accepted = await guest.rpc("accept_invitation", { token: secret });
  expect(accepted.error).toBeNull();
  // the guest is assigned a CLIENT task (My work)
  await stack.db.query("update tasks set assignee_id = $2 where id = $1", [tasks.CLIENT, people.guest.id]);
});

afterAll(async () => {
  for (const name of NAMES) await people[name]?.client.removeAllChannels();
  await stack?.close();
});

describe("a guest invited to CLIENT", () => {
  it("joined as a guest and is a member of CLIENT only", async () => {
    const { rows } = await stack.db.query<{ role: string; projects: string[] }>(
      `select m.role, array(select p.key from project_members pm join projects p on p.id = pm.project_id
                            where pm.user_id = m.user_id order by 1) as projects
       from team_members m where m.team_id = $1 and m.user_id = $2`,
      [team, people.guest.id],
    );
    expect(rows).toEqual([{ role: "guest", projects: ["CLIENT"] }]);
  });

  const TABLES: [table: string, column: "project_id" | "task_id"][] = [
    ["projects", "project_id"],
    ["tasks", "project_id"],
    ["comments", "project_id"],
    ["attachments", "project_id"],
    ["task_events", "project_id"],
    ["project_statuses", "project_id"],
    ["checklist_items", "project_id"],
    ["task_labels", "task_id"],
    ["task_watchers", "project_id"],
    ["fields", "project_id"],
    ["project_members", "project_id"],
  ];
  for (const [table, column] of TABLES) {
    it(`REST ${table}: CLIENT's rows only`, async () => {
      const select = table === "projects" ? "project_id:id" : column;
      const { data, error } = await guest.from(table).select(select);
      expect(error).toBeNull();
      const found = await projectsOf(data as never);
      expect(found).toEqual(
        table === "task_watchers" || table === "fields" ? found.filter((k) => k === "CLIENT") : ["CLIENT"],
      );
    });
  }

  it("REST team_members and profiles: CLIENT's people only (not the member or the viewer)", async () => {
    const expected = [people.owner.id, people.admin.id, people.insider.id, people.guest.id].sort();
    const members = await guest.from("team_members").select("user_id").eq("team_id", team);
    expect(members.data?.map((m) => m.user_id).sort()).toEqual(expected);
    const profiles = await guest.from("profiles").select("id");
    expect(profiles.data?.map((p) => p.id).sort()).toEqual(expected);
  });

  it("REST teams, labels, invitations: the team, CLIENT's label, no invitations", async () => {
    expect((await guest.from("teams").select("id")).data).toEqual([{ id: team }]);
    expect((await guest.from("labels").select("name")).data).toEqual([{ name: "Label CLIENT" }]);
    expect((await guest.from("invitations").select("id").eq("team_id", team)).data).toEqual([]);
  });

  it("RPCs: the board and panel of CLIENT only; search, My work, overview and activity know CLIENT only", async () => {
    const board = await guest.rpc("board_view", { team_slug: slug, project_key: "CLIENT" });
    expect(board.error).toBeNull();
    const boardMembers = (board.data as { members: { id: string }[] }).members.map((m) => m.id);
    expect(boardMembers).not.toContain(people.member.id);
    expect(boardMembers).not.toContain(people.viewer.id);
    for (const key of ["WEB", "HR"]) {
      const other = await guest.rpc("board_view", { team_slug: slug, project_key: key });
      expect(other.data ?? null, key).toBeNull();
      const panel = await guest.rpc("task_panel", { team_slug: slug, project_key: key, task_number: 1 });
      expect(panel.data ?? null, key).toBeNull();
    }
    const panel = await guest.rpc("task_panel", { team_slug: slug, project_key: "CLIENT", task_number: 1 });
    const panelPeople = JSON.stringify(panel.data);
    expect(panelPeople).toContain(people.insider.id);
    expect(panelPeople).not.toContain(people.member.id);

    const search = await guest.rpc("search_tasks", { query: "secret" });
    expect(await projectsOf(search.data as never)).toEqual(["CLIENT"]);
    for (const list of ["assigned", "created", "watching", "due"]) {
      const work = await guest.rpc("my_work", { list });
      expect(work.error, list).toBeNull();
      const text = JSON.stringify(work.data);
      expect(text).not.toContain(tasks.WEB);
      expect(text).not.toContain(tasks.HR);
    }
    expect(JSON.stringify((await guest.rpc("my_work", { list: "assigned" })).data)).toContain(tasks.CLIENT);
    const overview = await guest.rpc("team_overview", { team_id: team });
    const counts = (overview.data as { counts: Record<string, number> }).counts;
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(1);
    const activity = await guest.rpc("team_activity", { team_slug: slug });
    expect(activity.error).toBeNull();
    const events = JSON.stringify(activity.data);
    expect(events).toContain("CLIENT secret plan");
    expect(events).not.toContain("WEB secret plan");
    expect(events).not.toContain("HR secret plan");
  });

  it("Storage: CLIENT's attachment downloads, WEB's and HR's don't", async () => {
    const client = await guest.storage.from("attachments").download(`${tasks.CLIENT}/notes.txt`);
    expect(client.error).toBeNull();
    for (const key of ["WEB", "HR"] as const) {
      const other = await guest.storage.from("attachments").download(`${tasks[key]}/notes.txt`);
      expect(other.data, key).toBeNull();
    }
    const list = await guest.storage.from("attachments").list(tasks.WEB);
    expect(list.data ?? []).toEqual([]);
  });

  it("writes: comments on CLIENT (and edits them); no comment elsewhere, no task, no label, no attachment", async () => {
    const mine = await guest.from("comments").insert({ task_id: tasks.CLIENT, body: "Thanks!" }).select("id").single();
    expect(mine.error).toBeNull();
    const edited = await guest.from("comments").update({ body: "Thanks a lot!" }).eq("id", mine.data!.id).select("id");
    expect(edited.data).toHaveLength(1);
    expect((await guest.from("comments").insert({ task_id: tasks.WEB, body: "Hi" })).error).not.toBeNull();
    expect((await guest.from("tasks").insert({ project_id: projects.CLIENT, title: "Mine" })).error).not.toBeNull();
    const edit = await guest.from("tasks").update({ title: "Renamed" }).eq("id", tasks.CLIENT).select("id");
    expect(edit.data ?? []).toEqual([]);
    expect((await guest.from("labels").insert({ team_id: team, name: "Guest's", color: "red" })).error).not.toBeNull();
    const upload = await guest.storage
      .from("attachments")
      .upload(`${tasks.CLIENT}/mine.txt`, new Blob(["x"], { type: "text/plain" }));
    expect(upload.error).not.toBeNull();
    const { rows } = await stack.db.query<{ n: number }>(
      "select count(*)::int as n from tasks where title in ('Mine', 'Renamed')",
    );
    expect(rows[0].n).toBe(0);
  });

  it("notifications: a mention in WEB doesn't reach the guest, one in CLIENT does", async () => {
    await people.member.client.from("comments").insert({ task_id: tasks.WEB, body: "@guest look" });
    await people.insider.client.from("comments").insert({ task_id: tasks.CLIENT, body: "@guest have a look" });
    const { data } = await guest.from("notifications").select("task_id");
    expect(await projectsOf(data as never)).toEqual(["CLIENT"]);
  });

  it("Realtime: new tasks of CLIENT reach the guest, WEB's and HR's don't", async () => {
    const inbox = new Inbox<{ new: { title?: string } }>();
    const channel = guest
      .channel("guest-tasks")
      .on(
        "postgres_changes",
        { schema: "public", table: "tasks", event: "INSERT" } as never,
        (p: { new: { title?: string } }) => inbox.push(p),
      );
    await subscribed(channel);
    for (const key of ["WEB", "HR", "CLIENT"] as const) {
      await stack.db.query("insert into tasks (project_id, title) values ($1, $2)", [projects[key], `Live ${key}`]);
    }
    await inbox.until((items) => items.some((c) => c.new.title === "Live CLIENT"));
    await sleep(300); // WEB's and HR's were inserted first; they would have arrived by now
    expect(inbox.items.map((c) => c.new.title)).toEqual(["Live CLIENT"]);
  });

  it("a member made a guest loses the team-wide project (and is unassigned there)", async () => {
    await stack.db.query("update tasks set assignee_id = $2 where id = $1", [tasks.WEB, people.member.id]);
    await stack.db.query("update team_members set role = 'guest' where team_id = $1 and user_id = $2", [
      team,
      people.member.id,
    ]);
    expect((await people.member.client.from("tasks").select("id").eq("id", tasks.WEB)).data).toEqual([]);
    const { rows } = await stack.db.query<{ assignee_id: string | null }>(
      "select assignee_id from tasks where id = $1",
      [tasks.WEB],
    );
    expect(rows[0].assignee_id).toBeNull();
  });

  it("a guest added to the team-wide project sees it; taken off, they lose it and its notifications", async () => {
    const them = people.member; // a guest since the test above
    await stack.db.query("insert into project_members (project_id, user_id) values ($1, $2)", [projects.WEB, them.id]);
    expect((await them.client.from("tasks").select("id").eq("id", tasks.WEB)).data).toHaveLength(1);
    await stack.db.query(
      "insert into notifications (recipient_id, team_id, task_id, actor_id, kind) values ($1, $2, $3, $4, 'comment')",
      [them.id, team, tasks.WEB, people.owner.id],
    );
    await stack.db.query("delete from project_members where project_id = $1 and user_id = $2", [projects.WEB, them.id]);
    expect((await them.client.from("tasks").select("id").eq("id", tasks.WEB)).data).toEqual([]);
    const { rows } = await stack.db.query<{ n: number }>(
      "select count(*)::int as n from notifications where recipient_id = $1 and task_id = $2",
      [them.id, tasks.WEB],
    );
    expect(rows[0].n).toBe(0);
  });
});
