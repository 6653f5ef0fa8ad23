/**
 * The database's behaviour as the app relies on it: the RPCs of docs/product.md §7,
 * the task states of §4, the rules of §5, the one-owner rule, the profile made
 * at sign-up, and the demo seed. Calls run as the user, as the REST API runs them.
 */
import crypto from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../stack/db/migrate.ts";
import { openPglite } from "../../stack/db/pglite.ts";
import { openPostgres } from "../../stack/db/postgres.ts";
import type { Database } from "../../stack/db/types.ts";
import { dbPeople, failure } from "../support/db-people.ts";
import { MIGRATIONS_DIR, withDatabase } from "../support/template.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";
import pg from "pg";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
const { unique, createUser, call, teamWith, project, statusId, task, column } = dbPeople(() => stack);

describe("profiles made at sign-up", () => {
  async function profileOf(id: string) {
    const { rows } = await stack.db.query<{ username: string; display_name: string }>(
      "select username, display_name from profiles where id = $1",
      [id],
    );
    return rows[0];
  }

  it("takes the display name from the metadata and derives a username", async () => {
    const id = await createUser("Grace Hopper");
    expect(await profileOf(id)).toEqual({ username: "grace_hopper", display_name: "Grace Hopper" });
  });

  it("accepts users with no metadata, odd metadata, odd emails or none", async () => {
    const noMeta = await createUser(undefined, "Weird.Name+tag@Example.COM");
    expect(await profileOf(noMeta)).toEqual({ username: "weird_name_tag", display_name: "Weird.Name+tag" });

    const noEmail = await createUser(undefined, null);
    expect(await profileOf(noEmail)).toMatchObject({ display_name: "Teammate" });

    const { rows } = await stack.db.query<{ id: string }>(
      `insert into auth.users (id, email, raw_user_meta_data) values (gen_random_uuid(), 'x@example.com', '"a string"'::jsonb) returning id`,
    );
    expect(await profileOf(rows[0].id)).toEqual({ username: "x__", display_name: "x" });

    const unicode = await createUser("张伟", "zhang@example.com");
    expect(await profileOf(unicode)).toEqual({ username: "zhang", display_name: "张伟" });

    const long = await createUser(`  ${"A".repeat(80)}  `);
    const p = await profileOf(long);
    expect(p.display_name).toBe("A".repeat(60));
    expect(p.username).toBe("a".repeat(30));
  });

  it("makes usernames unique with a numeric suffix", async () => {
    const ids = [await createUser("Sam Lee"), await createUser("Sam Lee"), await createUser("sam LEE")];
    const names = await Promise.all(ids.map(async (id) => (await profileOf(id)).username));
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toBe("sam_lee");
    for (const n of names.slice(1)) expect(n).toMatch(/^sam_lee\d+$/);
  });

  it("follows a display name changed in the user's metadata", async () => {
    const id = await createUser("Before");
    await stack.db.query(
      `update auth.users set raw_user_meta_data = raw_user_meta_data || '{"display_name":"After"}' where id = $1`,
      [id],
    );
    expect((await profileOf(id)).display_name).toBe("After");
  });

  it("keeps usernames unique and in the allowed format", async () => {
    const a = await createUser("Case Test");
    const b = await createUser("Other Person");
    expect(await failure(call(a, "update profiles set username = 'Bad Name' where id = $1", [a]))).toMatchObject({
      code: "23514",
    });
    expect(await failure(call(a, "update profiles set username = 'Taken_Name' where id = $1", [a]))).toMatchObject({
      code: "23514",
    });
    await call(a, "update profiles set username = 'taken_name' where id = $1", [a]);
    expect(await failure(call(b, "update profiles set username = 'taken_name' where id = $1", [b]))).toMatchObject({
      code: "23505",
    });
  });
});

describe("create_team", () => {
  it("creates the team with the caller as its owner", async () => {
    const me = await createUser("Founder");
    const [team] = await call<{ id: string; name: string; slug: string; created_by: string }>(
      me,
      "select * from create_team('  Rocket Co  ', 'rocket-co')",
    );
    expect(team).toMatchObject({ name: "Rocket Co", slug: "rocket-co", created_by: me });
    const members = await call(me, "select user_id, role from team_members where team_id = $1", [team.id]);
    expect(members).toEqual([{ user_id: me, role: "owner" }]);
  });

  it("refuses a taken slug with 'That slug is taken.' and leaves nothing behind", async () => {
    const first = await createUser("First");
    const second = await createUser("Second");
    await call(first, "select create_team('Alpha', 'alpha')");
    const error = await failure(call(second, "select create_team('Alpha again', 'alpha')"));
    expect(error).toEqual({ code: "23505", message: "That slug is taken." });
    const { rows } = await stack.db.query("select 1 from team_members where user_id = $1", [second]);
    expect(rows).toEqual([]);
  });

  it("refuses bad slugs and names with a readable reason", async () => {
    const me = await createUser("Slugger");
    for (const slug of ["ab", "-abc", "abc-", "Has-Caps", "under_score", "a".repeat(41)]) {
      expect(await failure(call(me, "select create_team('Name', $1)", [slug])), slug).toMatchObject({
        code: "22023",
        message: expect.stringMatching(/slug is 3–40 characters/),
      });
    }
    expect(await failure(call(me, "select create_team('Name', 'new')"))).toEqual({
      code: "22023",
      message: "That slug is reserved.",
    });
    expect(await failure(call(me, "select create_team('   ', 'blank-name')"))).toMatchObject({ code: "22023" });
    expect(await failure(call(me, "select create_team($1, 'long-name')", ["x".repeat(61)]))).toMatchObject({
      code: "22023",
    });
    expect((await call(me, "select create_team('Name', $1)", ["a".repeat(40)])).length).toBe(1);
  });

  it("is atomic: if the owner membership cannot be written, no team is left", async () => {
    const me = await createUser("Unlucky");
    await stack.db.exec(`
      create function public.test_refuse_membership() returns trigger language plpgsql as $$
      begin raise exception 'membership refused for the test'; end $$;
      create trigger test_refuse_membership before insert on public.team_members
      for each row when (new.user_id = '${me}') execute function public.test_refuse_membership();
    `);
    try {
      expect(await failure(call(me, "select create_team('Ghost', 'ghost-team')"))).toMatchObject({
        message: "membership refused for the test",
      });
      const { rows } = await stack.db.query("select 1 from teams where slug = 'ghost-team'");
      expect(rows).toEqual([]);
    } finally {
      await stack.db.exec(
        "drop trigger test_refuse_membership on public.team_members; drop function public.test_refuse_membership();",
      );
    }
  });
});

describe("move_task", () => {
  it("moves a task freely between any two of its project's statuses, setting completed_at (§4)", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const names = ["Backlog", "To do", "In progress", "Done", "Canceled"];
    const closed = new Set(["Done", "Canceled"]);
    for (const from of names) {
      for (const to of names) {
        const { id } = await task(p, { status: from });
        const [before] = await call<{ completed_at: string | null }>(
          t.mia,
          "select completed_at from tasks where id = $1",
          [id],
        );
        expect(before.completed_at !== null, `${from} is closed`).toBe(closed.has(from));
        const [moved] = await call<{ status_id: string; completed_at: string | null }>(
          t.mia,
          "select * from move_task($1, $2)",
          [id, await statusId(p, to)],
        );
        expect(moved.status_id, `${from} → ${to}`).toBe(await statusId(p, to));
        expect(moved.completed_at !== null, `${from} → ${to}: completed_at`).toBe(closed.has(to));
        // between two closed statuses the task keeps the time it was closed
        if (closed.has(from) && closed.has(to)) expect(moved.completed_at).toBe(before.completed_at);
      }
    }
  });

  it("refuses a status of another project, and a negative place", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const other = await project(t.team, "OPS");
    const { id } = await task(p);
    expect(await failure(call(t.mia, "select * from move_task($1, $2)", [id, await statusId(other, "To do")]))).toEqual(
      {
        code: "22023",
        message: "That status is not one of this project's.",
        detail: "status_not_in_project",
      },
    );
    expect(
      await failure(call(t.mia, "select * from move_task($1, $2, -1)", [id, await statusId(p, "To do")])),
    ).toMatchObject({
      code: "22023",
    });
  });

  it("keeps each column's positions dense, placing the task where it was dropped", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const [todo, doing, done] = [
      await statusId(p, "To do"),
      await statusId(p, "In progress"),
      await statusId(p, "Done"),
    ];
    const ids: Record<string, string> = {};
    for (const title of ["A", "B", "C"]) ids[title] = (await task(p, { title, status: "To do" })).id;
    for (const title of ["X", "Y"]) ids[title] = (await task(p, { title, status: "In progress" })).id;

    await call(t.mia, "select move_task($1, $2, 0)", [ids.C, todo]); // reorder within a column
    expect(await column(p, "To do")).toEqual([
      { title: "C", position: 0 },
      { title: "A", position: 1 },
      { title: "B", position: 2 },
    ]);
    await call(t.mia, "select move_task($1, $2, 1)", [ids.A, doing]); // to another column
    expect(await column(p, "To do")).toEqual([
      { title: "C", position: 0 },
      { title: "B", position: 1 },
    ]);
    expect(await column(p, "In progress")).toEqual([
      { title: "X", position: 0 },
      { title: "A", position: 1 },
      { title: "Y", position: 2 },
    ]);
    await call(t.mia, "select move_task($1, $2, 99)", [ids.X, doing]); // past the end: last
    await call(t.mia, "select move_task($1, $2)", [ids.Y, done]); // no position: last
    expect(await column(p, "In progress")).toEqual([
      { title: "A", position: 0 },
      { title: "X", position: 1 },
    ]);
    expect(await column(p, "Done")).toEqual([{ title: "Y", position: 0 }]);

    await stack.db.query("delete from tasks where id = $1", [ids.A]); // deleting closes the gap
    expect(await column(p, "In progress")).toEqual([{ title: "X", position: 0 }]);
  });

  it("keeps positions dense under many concurrent moves by different people", async () => {
    const t = await teamWith({ a: "member", b: "member", c: "admin" });
    const p = await project(t.team);
    const [todo, doing] = [await statusId(p, "To do"), await statusId(p, "In progress")];
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await task(p, { title: `T${i}`, status: "To do" })).id);
    const people = [t.a, t.b, t.c, t.owner];
    const moves = ids.flatMap((id, i) => [
      call(people[i % 4], "select move_task($1, $2, $3)", [id, i % 3 === 0 ? doing : todo, (i * 7) % 5]),
      call(people[(i + 1) % 4], "select move_task($1, $2, 0)", [ids[(i + 5) % 12], todo]),
    ]);
    // every move is allowed now: none may fail
    const results = await Promise.allSettled(moves);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    for (const status of ["To do", "In progress"]) {
      const positions = (await column(p, status)).map((r) => r.position);
      expect(positions).toEqual(positions.map((_, i) => i));
    }
    const { rows } = await stack.db.query<{ n: number }>("select count(*)::int as n from tasks where project_id = $1", [
      p,
    ]);
    expect(rows[0].n).toBe(12);
  });

  it("refuses viewers, people outside the team, and archived projects", async () => {
    const t = await teamWith({ vic: "viewer", mia: "member" });
    const outsider = await createUser("Outsider");
    const p = await project(t.team);
    const doing = await statusId(p, "In progress");
    const { id } = await task(p, { status: "To do" });
    expect(await failure(call(t.vic, "select move_task($1, $2)", [id, doing]))).toEqual({
      code: "42501",
      message: "Your role in this team doesn't allow that.",
    });
    expect(await failure(call(outsider, "select move_task($1, $2)", [id, doing]))).toEqual({
      code: "PT404",
      message: "Task not found.",
    });
    await stack.db.query("update projects set archived_at = now() where id = $1", [p]);
    expect(await failure(call(t.mia, "select move_task($1, $2)", [id, doing]))).toMatchObject({
      code: "P0001",
      message: "This project is archived; its tasks are read-only.",
    });
  });
});

describe("tasks", () => {
  it("are numbered 1, 2, 3… per project and appended to their column", async () => {
    const t = await teamWith({ mia: "member" });
    const web = await project(t.team, "WEB");
    const ops = await project(t.team, "OPS");
    const made = [];
    for (const [p, title] of [
      [web, "w1"],
      [web, "w2"],
      [ops, "o1"],
      [web, "w3"],
    ] as const) {
      made.push(
        ...(await call<{ number: number; position: number }>(
          t.mia,
          "insert into tasks (project_id, title, status_id) values ($1, $2, $3) returning number, position",
          [p, title, await statusId(p, "To do")],
        )),
      );
    }
    expect(made.map((r) => r.number)).toEqual([1, 2, 1, 3]);
    expect(made.map((r) => r.position)).toEqual([0, 1, 0, 2]);
  });

  it("hold §5's rules: title, description, due date, assignee in the team", async () => {
    const t = await teamWith({ mia: "member" });
    const outsider = await createUser("Outsider");
    const p = await project(t.team);
    const insert = (fields: string, values: unknown[]) =>
      failure(
        call(
          t.mia,
          `insert into tasks (project_id, ${fields}) values ($1, ${values.map((_, i) => `$${i + 2}`).join(", ")})`,
          [p, ...values],
        ),
      );
    expect(await insert("title", [""])).toMatchObject({ code: "23514" });
    expect(await insert("title", ["x".repeat(201)])).toMatchObject({ code: "23514" });
    expect(await insert("title", ["x".repeat(200)])).toBeNull();
    expect(await insert("title, description", ["ok", "d".repeat(10001)])).toMatchObject({ code: "23514" });
    expect(await insert("title, due_on", ["ok", "1999-12-31"])).toMatchObject({ code: "23514" });
    expect(await insert("title, due_on", ["ok", "2101-01-01"])).toMatchObject({ code: "23514" });
    expect(await insert("title, due_on", ["ok", "2100-12-31"])).toBeNull();
    expect(await insert("title, assignee_id", ["ok", outsider])).toEqual({
      code: "23514",
      message: "The assignee must be a member of this team.",
    });
    expect(await insert("title, assignee_id", ["ok", t.mia])).toBeNull();
  });

  it("unassign people who leave the team", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const { id } = await task(p, { assignee: t.mia });
    await call(t.mia, "select leave_team($1)", [t.team]);
    const { rows } = await stack.db.query("select assignee_id from tasks where id = $1", [id]);
    expect(rows).toEqual([{ assignee_id: null }]);
  });
});

describe("projects, comments, attachments (§5)", () => {
  it("project keys are 2–10 capitals, unique in their team only", async () => {
    const a = await teamWith();
    const b = await teamWith();
    const create = (owner: string, team: string, key: string) =>
      failure(call(owner, "insert into projects (team_id, key, name) values ($1, $2, 'P')", [team, key]));
    expect(await create(a.owner, a.team, "W")).toMatchObject({ code: "23514" });
    expect(await create(a.owner, a.team, "web")).toMatchObject({ code: "23514" });
    expect(await create(a.owner, a.team, "ABCDEFGHIJK")).toMatchObject({ code: "23514" });
    expect(await create(a.owner, a.team, "WEB")).toBeNull();
    expect(await create(a.owner, a.team, "WEB")).toMatchObject({ code: "23505" });
    expect(await create(b.owner, b.team, "WEB")).toBeNull();
  });

  it("comments are 1–5000 characters and edits are marked", async () => {
    const t = await teamWith({ mia: "member" });
    const { id } = await task(await project(t.team));
    expect(await failure(call(t.mia, "insert into comments (task_id, body) values ($1, '  ')", [id]))).toMatchObject({
      code: "23514",
    });
    expect(
      await failure(call(t.mia, "insert into comments (task_id, body) values ($1, $2)", [id, "c".repeat(5001)])),
    ).toMatchObject({ code: "23514" });
    const [c] = await call<{ id: string; author_id: string; edited_at: string | null }>(
      t.mia,
      "insert into comments (task_id, body) values ($1, $2) returning id, author_id, edited_at",
      [id, "c".repeat(5000)],
    );
    expect(c).toMatchObject({ author_id: t.mia, edited_at: null });
    const [edited] = await call<{ edited_at: string | null }>(
      t.mia,
      "update comments set body = 'shorter' where id = $1 returning edited_at",
      [c.id],
    );
    expect(edited.edited_at).not.toBeNull();
  });

  it("attachments are at most 10 MB, 20 per task, stored under the task's folder", async () => {
    const t = await teamWith({ mia: "member" });
    const { id } = await task(await project(t.team));
    const attach = (name: string, size: number, objectPath = `${id}/${name}`) =>
      failure(
        call(
          t.mia,
          "insert into attachments (task_id, object_path, file_name, size_bytes, content_type) values ($1, $2, $3, $4, 'text/plain')",
          [id, objectPath, name, size],
        ),
      );
    expect(await attach("big.bin", 10 * 1024 * 1024 + 1)).toMatchObject({ code: "23514" });
    expect(await attach("elsewhere.txt", 1, `${crypto.randomUUID()}/elsewhere.txt`)).toMatchObject({ code: "23514" });
    for (let i = 0; i < 20; i++) expect(await attach(`f${i}.txt`, 10 * 1024 * 1024)).toBeNull();
    expect(await attach("f20.txt", 1)).toEqual({ code: "23514", message: "A task can have at most 20 attachments." });
  });
});

describe("search_tasks", () => {
  it("ranks title matches first and returns the links' project key and team slug", async () => {
    const t = await teamWith();
    const p = await project(t.team, "DOCS");
    await task(p, { title: "Unrelated chore", description: "mentions the invoice once" });
    const strong = await task(p, { title: "Invoice export", description: "Export every invoice as PDF" });
    const rows = await call<{ id: string; number: number; project_key: string; team_slug: string; rank: number }>(
      t.owner,
      "select * from search_tasks('invoices')",
    );
    expect(rows.map((r) => r.id)[0]).toBe(strong.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ number: strong.number, project_key: "DOCS", team_slug: t.slug });
    expect(rows[0].rank).toBeGreaterThan(rows[1].rank);
  });

  it("shows nothing from teams the caller is not in, and nothing for an empty query", async () => {
    const t = await teamWith();
    await task(await project(t.team), { title: "Secret zeppelin plans" });
    const outsider = await createUser("Outsider");
    expect(await call(t.owner, "select id from search_tasks('zeppelin')")).toHaveLength(1);
    expect(await call(outsider, "select id from search_tasks('zeppelin')")).toEqual([]);
    expect(await call(t.owner, "select id from search_tasks('   ')")).toEqual([]);
  });

  it("returns at most 50 results, fewer when asked", async () => {
    const t = await teamWith();
    const p = await project(t.team);
    await stack.db.query(
      "insert into tasks (project_id, title) select $1, 'Walrus number ' || g from generate_series(1, 55) g",
      [p],
    );
    expect(await call(t.owner, "select id from search_tasks('walrus', 500)")).toHaveLength(50);
    expect(await call(t.owner, "select id from search_tasks('walrus')")).toHaveLength(50);
    expect(await call(t.owner, "select id from search_tasks('walrus', 5)")).toHaveLength(5);
  });
});

describe("team_overview", () => {
  it("counts tasks per status category and lists my open tasks, for members only", async () => {
    const t = await teamWith({ mia: "member", vic: "viewer" });
    const outsider = await createUser("Outsider");
    const p = await project(t.team);
    const archived = await project(t.team, "OLD");
    await task(p, { title: "mine, todo", status: "To do", assignee: t.mia });
    await task(p, { title: "mine, done", status: "Done", assignee: t.mia });
    await task(p, { title: "theirs", status: "To do", assignee: t.owner });
    await task(p, { title: "nobody's", status: "Backlog" });
    await task(archived, { title: "archived", status: "To do", assignee: t.mia });
    await stack.db.query("update projects set archived_at = now() where id = $1", [archived]);

    const [{ team_overview: overview }] = await call<{
      team_overview: { counts: Record<string, number>; my_open_tasks: { title: string; project_key: string }[] };
    }>(t.mia, "select team_overview($1)", [t.team]);
    expect(overview.counts).toEqual({ backlog: 1, unstarted: 2, started: 0, completed: 1, canceled: 0 });
    expect(overview.my_open_tasks.map((x) => [x.title, x.project_key])).toEqual([["mine, todo", "WEB"]]);

    const [{ team_overview: viewers }] = await call<{ team_overview: { my_open_tasks: unknown[] } }>(
      t.vic,
      "select team_overview($1)",
      [t.team],
    );
    expect(viewers.my_open_tasks).toEqual([]);
    expect(await failure(call(outsider, "select team_overview($1)", [t.team]))).toEqual({
      code: "PT404",
      message: "Team not found.",
    });
  });
});

describe("invitations", () => {
  /** a pending invitation to `email`; `then` is an optional SET clause applied afterwards (revoked, expired) */
  async function invite(
    team: string,
    by: string,
    token: string,
    role = "member",
    then?: string,
    email = "guest@example.com",
  ) {
    await stack.db.query(
      "insert into invitations (team_id, email, role, token_hash, invited_by) values ($1, $5, $2, $3, $4)",
      [team, role, sha256(token), by, email],
    );
    if (then) await stack.db.query(`update invitations set ${then} where token_hash = $1`, [sha256(token)]);
  }

  it("accepting adds the invited role, once only", async () => {
    const t = await teamWith();
    const address = `${unique("guest")}@example.com`;
    const guest = await createUser("Guest", address);
    const other = await createUser("Other");
    await invite(t.team, t.owner, "tok-once", "viewer", undefined, address);
    const [team] = await call<{ id: string; slug: string }>(guest, "select * from accept_invitation('tok-once')");
    expect(team).toMatchObject({ id: t.team, slug: t.slug });
    expect(
      await call(guest, "select role from team_members where team_id = $1 and user_id = $2", [t.team, guest]),
    ).toEqual([{ role: "viewer" }]);
    expect(await failure(call(other, "select accept_invitation('tok-once')"))).toEqual({
      code: "P0001",
      message: "This invitation was already used.",
    });
    expect(
      await call(other, "select 1 from team_members where team_id = $1 and user_id = $2", [t.team, other]),
    ).toEqual([]);
  });

  it("refuses unknown, revoked and expired links", async () => {
    const t = await teamWith();
    const guest = await createUser("Guest");
    await invite(t.team, t.owner, "tok-revoked", "member", "revoked_at = now()");
    await invite(t.team, t.owner, "tok-expired", "member", "expires_at = now() - interval '1 minute'");
    expect(await failure(call(guest, "select accept_invitation('no-such-token')"))).toEqual({
      code: "PT404",
      message: "This invitation link is not valid.",
    });
    expect(await failure(call(guest, "select accept_invitation('tok-revoked')"))).toMatchObject({
      code: "P0001",
      message: "This invitation was withdrawn.",
    });
    expect(await failure(call(guest, "select accept_invitation('tok-expired')"))).toMatchObject({
      code: "P0001",
      message: "This invitation has expired. Ask for a new one.",
    });
    expect(
      await call(t.owner, "select 1 from team_members where team_id = $1 and user_id = $2", [t.team, guest]),
    ).toEqual([]);
  });

  it("answer only to the invited address, in any case (accept and decline)", async () => {
    const t = await teamWith();
    const address = `${unique("Invited")}@Example.com`;
    const invited = await createUser("Invited", address.toLowerCase());
    const forwardedTo = await createUser("Forwarded");
    await invite(t.team, t.owner, "tok-address", "admin", undefined, address);
    for (const fn of ["accept_invitation", "decline_invitation"]) {
      expect(await failure(call(forwardedTo, `select ${fn}('tok-address')`))).toEqual({
        code: "42501",
        message: `This invitation is for ${address}. Sign in with that address to answer it.`,
      });
    }
    expect(
      await call(t.owner, "select 1 from team_members where team_id = $1 and user_id = $2", [t.team, forwardedTo]),
    ).toEqual([]);
    await call(invited, "select accept_invitation('tok-address')");
    expect(
      await call(t.owner, "select role from team_members where team_id = $1 and user_id = $2", [t.team, invited]),
    ).toEqual([{ role: "admin" }]);
  });

  it("stay ended: a withdrawn, declined or used invitation never reopens", async () => {
    const t = await teamWith({ ada: "admin" });
    const address = `${unique("guest")}@example.com`;
    const guest = await createUser("Guest", address);
    await invite(t.team, t.owner, "tok-withdrawn", "member", "revoked_at = now()", address);
    await invite(t.team, t.owner, "tok-declined", "member", undefined, address);
    await call(guest, "select decline_invitation('tok-declined')");
    await invite(t.team, t.owner, "tok-used", "member", undefined, address);
    await call(guest, "select accept_invitation('tok-used')");
    for (const token of ["tok-withdrawn", "tok-declined", "tok-used"]) {
      const hash = sha256(token);
      // an admin through the API: the row is out of the policy's reach, nothing changes
      await call(t.ada, "update invitations set revoked_at = null where token_hash = $1", [hash]);
      // anyone else (the service role, a function of ours): refused outright
      expect(
        await failure(
          stack.db.asRequest({ role: "service_role", claims: { role: "service_role" } }, (tx) =>
            tx.query("update invitations set revoked_at = null, accepted_at = null where token_hash = $1", [hash]),
          ),
        ),
      ).toMatchObject({ code: "23514" });
      const [row] = await call<{ ended: boolean }>(
        t.owner,
        "select accepted_at is not null or revoked_at is not null as ended from invitations where token_hash = $1",
        [hash],
      );
      expect(row, token).toEqual({ ended: true });
    }
    expect(await failure(call(guest, "select accept_invitation('tok-declined')"))).toMatchObject({
      message: "This invitation was withdrawn.",
    });
  });

  it("are valid for 7 days, never for the owner role, and visible to the invited address", async () => {
    const t = await teamWith({ ada: "admin" });
    const [row] = await call<{ days: number }>(
      t.ada,
      `insert into invitations (team_id, email, role, token_hash) values ($1, 'Guest@Example.com', 'admin', $2)
       returning extract(epoch from expires_at - created_at) / 86400 as days`,
      [t.team, sha256("tok-7")],
    );
    expect(Number(row.days)).toBe(7);
    const guest = await stack.db.asRequest(
      {
        role: "authenticated",
        claims: { sub: crypto.randomUUID(), role: "authenticated", email: "guest@example.com" },
      },
      async (tx) => (await tx.query("select role from invitations where team_id = $1", [t.team])).rows,
    );
    expect(guest).toEqual([{ role: "admin" }]);
  });
});

describe("one owner per team", () => {
  it("transfer_ownership hands the team over; the old owner becomes admin", async () => {
    const t = await teamWith({ mia: "member" });
    await call(t.owner, "select transfer_ownership($1, $2)", [t.team, t.mia]);
    const roles = await call<{ user_id: string; role: string }>(
      t.mia,
      "select user_id, role from team_members where team_id = $1 order by role desc",
      [t.team],
    );
    expect(roles).toEqual([
      { user_id: t.mia, role: "owner" },
      { user_id: t.owner, role: "admin" },
    ]);
    expect(await failure(call(t.owner, "select transfer_ownership($1, $2)", [t.team, t.owner]))).toMatchObject({
      code: "42501",
    });
    const stranger = await createUser("Stranger");
    expect(await failure(call(t.mia, "select transfer_ownership($1, $2)", [t.team, stranger]))).toEqual({
      code: "22023",
      message: "The new owner must already be a member of the team.",
    });
  });

  it("holds even for the service role: no team without an owner, never two", async () => {
    const t = await teamWith({ mia: "member" });
    const asService = (sql: string, params: unknown[]) =>
      stack.db.asRequest({ role: "service_role", claims: { role: "service_role" } }, (tx) => tx.query(sql, params));
    expect(
      await failure(asService("delete from team_members where team_id = $1 and user_id = $2", [t.team, t.owner])),
    ).toMatchObject({
      code: "23514",
      message: "A team must have exactly one owner. Transfer ownership instead.",
    });
    expect(
      await failure(
        asService("update team_members set role = 'owner' where team_id = $1 and user_id = $2", [t.team, t.mia]),
      ),
    ).toMatchObject({
      code: "23505",
    });
    expect(
      await failure(asService("insert into teams (name, slug) values ('Orphan', $1)", [unique("orphan")])),
    ).toMatchObject({
      code: "23514",
    });
  });

  it("an owner's account cannot be deleted while they own a team; a member's can", async () => {
    const t = await teamWith({ mia: "member" });
    expect(await failure(stack.db.query("delete from auth.users where id = $1", [t.owner]))).toMatchObject({
      code: "23514",
    });
    await stack.db.query("delete from auth.users where id = $1", [t.mia]);
    const { rows } = await stack.db.query("select user_id from team_members where team_id = $1", [t.team]);
    expect(rows).toEqual([{ user_id: t.owner }]);
  });

  it("deleting the team removes everything in it", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const { id } = await task(p, { assignee: t.mia });
    await call(t.mia, "insert into comments (task_id, body) values ($1, 'bye')", [id]);
    const deleted = await call(t.owner, "delete from teams where id = $1 returning id", [t.team]);
    expect(deleted).toHaveLength(1);
    const { rows } = await stack.db.query(
      `select (select count(*) from team_members where team_id = $1)::int as members,
              (select count(*) from projects where team_id = $1)::int as projects,
              (select count(*) from tasks where project_id = $2)::int as tasks`,
      [t.team, p],
    );
    expect(rows).toEqual([{ members: 0, projects: 0, tasks: 0 }]);
  });
});

describe("leave_team", () => {
  it("lets anyone but the owner leave", async () => {
    const t = await teamWith({ ada: "admin", vic: "viewer" });
    await call(t.vic, "select leave_team($1)", [t.team]);
    await call(t.ada, "select leave_team($1)", [t.team]);
    expect(await failure(call(t.owner, "select leave_team($1)", [t.team]))).toEqual({
      code: "P0001",
      message: "The owner can't leave the team. Transfer ownership first.",
    });
    expect(await failure(call(t.vic, "select leave_team($1)", [t.team]))).toMatchObject({ code: "PT404" });
    const members = await call(t.owner, "select user_id from team_members where team_id = $1", [t.team]);
    expect(members).toEqual([{ user_id: t.owner }]);
  });
});

describe("the demo seed (supabase/seed.sql)", () => {
  it("loads on a fresh database and yields the demo team, people and board", async () => {
    let db: Database;
    let cleanup: () => Promise<void>;
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (adminUrl) {
      const name = `teamboard_seed_${crypto.randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      db = await openPostgres(withDatabase(adminUrl, name), 2);
      cleanup = async () => {
        await db.close();
        const a = new pg.Client({ connectionString: adminUrl });
        await a.connect();
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      };
    } else {
      db = await openPglite({ dataDir: null });
      cleanup = () => db.close();
    }
    try {
      const report = await migrate(db, { migrationsDir: MIGRATIONS_DIR, seedFile: path.resolve("supabase/seed.sql") });
      expect(report.seeded).toBe(true);
      const people = await db.query(
        `select u.email, p.display_name, m.role,
                u.encrypted_password = extensions.crypt('teamboard-demo-1', u.encrypted_password) as password_ok,
                u.email_confirmed_at is not null as confirmed,
                (select count(*)::int from auth.identities i where i.user_id = u.id and i.provider = 'email') as identities
         from auth.users u join profiles p on p.id = u.id
         join team_members m on m.user_id = u.id join teams t on t.id = m.team_id and t.slug = 'acme'
         order by m.role desc`,
      );
      expect(people.rows).toEqual([
        {
          email: "owner@teamboard.local",
          display_name: "Olivia Owner",
          role: "owner",
          password_ok: true,
          confirmed: true,
          identities: 1,
        },
        {
          email: "admin@teamboard.local",
          display_name: "Adam Admin",
          role: "admin",
          password_ok: true,
          confirmed: true,
          identities: 1,
        },
        {
          email: "member@teamboard.local",
          display_name: "Mia Member",
          role: "member",
          password_ok: true,
          confirmed: true,
          identities: 1,
        },
        {
          email: "viewer@teamboard.local",
          display_name: "Victor Viewer",
          role: "viewer",
          password_ok: true,
          confirmed: true,
          identities: 1,
        },
      ]);
      const board = await db.query<{
        key: string;
        tasks: number;
        numbers_ok: boolean;
        statuses: number;
        comments: number;
      }>(
        `select p.key, count(t.*)::int as tasks,
                array_agg(t.number order by t.number) = array(select generate_series(1, count(t.*)::int)) as numbers_ok,
                count(distinct t.status_id)::int as statuses,
                (select count(*)::int from comments c join tasks ct on ct.id = c.task_id where ct.project_id = p.id) as comments
         from projects p join tasks t on t.project_id = p.id group by p.id, p.key order by p.key`,
      );
      expect(board.rows).toEqual([
        { key: "OPS", tasks: 30, numbers_ok: true, statuses: 5, comments: 4 },
        { key: "WEB", tasks: 33, numbers_ok: true, statuses: 6, comments: 11 },
      ]);
      // the task written in Markdown, with its picture attached (docs/product.md §14)
      const picture = await db.query(
        `select t.number, a.file_name, a.content_type, a.object_path = t.id || '/' || a.file_name as in_folder,
                t.description like '%](/attachments/' || a.id || ')%' as shown_in_text
         from attachments a join tasks t on t.id = a.task_id`,
      );
      expect(picture.rows).toEqual([
        { number: 33, file_name: "board-sketch.png", content_type: "image/png", in_folder: true, shown_in_text: true },
      ]);
      // activity (issue 25): every task's creation by its creator, in the past; a few changes by name
      const created = await db.query(
        `select count(*)::int as n, count(*) filter (where e.actor_id = t.created_by and e.created_at < now() - interval '1 day')::int as named
         from task_events e join tasks t on t.id = e.task_id where e.kind = 'task_created'`,
      );
      expect(created.rows).toEqual([{ n: 63, named: 63 }]);
      const notified = await db.query(
        `select p.display_name as who, n.kind, n.read_at is not null as read, a.display_name as actor, n.email
         from notifications n join profiles p on p.id = n.recipient_id join profiles a on a.id = n.actor_id
         order by p.display_name, n.kind`,
      );
      expect(notified.rows).toEqual([
        { who: "Adam Admin", kind: "comment", read: false, actor: "Mia Member", email: "none" },
        { who: "Adam Admin", kind: "mentioned", read: false, actor: "Olivia Owner", email: "none" },
        { who: "Mia Member", kind: "assigned", read: false, actor: "Adam Admin", email: "none" },
        { who: "Mia Member", kind: "mentioned", read: false, actor: "Olivia Owner", email: "none" },
        { who: "Mia Member", kind: "status", read: true, actor: "Olivia Owner", email: "none" },
        { who: "Olivia Owner", kind: "mentioned", read: false, actor: "Mia Member", email: "none" },
      ]);
      const changes = await db.query(
        `select e.kind, count(*)::int as n, bool_and(e.actor_id is not null and e.created_at < now())::boolean as named
         from task_events e where e.kind <> 'task_created' group by e.kind order by e.kind`,
      );
      expect(changes.rows).toEqual([
        // the Markdown task's picture, by Olivia
        { kind: "attachment_added", n: 1, named: true },
        // issue 24's demo: checklists (one item ticked by Mia), WEB-23's sub-tasks, two relations on both sides
        { kind: "checklist_item_added", n: 8, named: true },
        { kind: "checklist_item_ticked", n: 1, named: true },
        { kind: "comment_posted", n: 15, named: true },
        { kind: "relation_added", n: 4, named: true },
        { kind: "subtask_added", n: 2, named: true },
        // 60 tasks' labels put on as they were made, and three changes by name
        { kind: "task_updated", n: 63, named: true },
      ]);
      const gaps = await db.query(
        `select project_id, status_id from tasks group by project_id, status_id
         having min(position) <> 0 or max(position) <> count(*) - 1 or count(distinct position) <> count(*)`,
      );
      expect(gaps.rows).toEqual([]);
      // issue 24's features, on WEB: a Review column over its WIP limit, checklists, sub-tasks, a blocker, coloured labels
      const web = await db.query<Record<string, unknown>>(
        `select
           (select array_agg(s.name || coalesce(' ≤' || s.wip_limit, '') order by s.position)
              from project_statuses s where s.project_id = p.id) as columns,
           (select count(*)::int from tasks t join project_statuses s on s.id = t.status_id
              where s.project_id = p.id and s.name = 'Review') as in_review,
           (select count(distinct task_id)::int from checklist_items c where c.project_id = p.id) as with_checklists,
           (select count(*)::int from tasks t where t.project_id = p.id and t.parent_id is not null) as subtasks,
           (select count(*)::int from task_relations r join tasks b on b.id = r.from_task_id
              where r.kind = 'blocks' and b.project_id = p.id and b.completed_at is null) as open_blockers,
           (select count(distinct l.color)::int from labels l where l.team_id = p.team_id) as label_colors,
           (select count(*)::int from task_labels tl where tl.project_id = p.id) as labelled
         from projects p where p.key = 'WEB'`,
      );
      expect(web.rows).toEqual([
        {
          columns: ["Backlog", "To do", "In progress ≤4", "Review ≤2", "Done", "Canceled"],
          in_review: 3,
          with_checklists: 2,
          subtasks: 2,
          open_blockers: 1,
          label_colors: 10,
          labelled: 38, // 36, the Markdown task (design) and the label Mia puts on WEB-2 in the activity demo
        },
      ]);
      // issue 38 on WEB: a select on cards, points summed, three tasks with two assignees; no events of it
      const fieldsShown = await db.query<Record<string, unknown>>(
        `select f.name, f.kind::text as kind, f.on_card, f.sum,
                (select count(*)::int from field_values v where v.field_id = f.id) as held
         from fields f join projects p on p.id = f.project_id and p.key = 'WEB' order by f.position`,
      );
      expect(fieldsShown.rows).toEqual([
        { name: "Customer", kind: "select", on_card: true, sum: false, held: 5 },
        { name: "Points", kind: "number", on_card: true, sum: true, held: 9 },
        { name: "Launch date", kind: "date", on_card: false, sum: false, held: 1 },
        { name: "Design link", kind: "link", on_card: false, sum: false, held: 1 },
      ]);
      const twoAssignees = await db.query<{ number: number }>(
        "select t.number from tasks t join projects p on p.id = t.project_id and p.key = 'WEB' where cardinality(t.assignee_ids) = 2 order by 1",
      );
      expect(twoAssignees.rows.map((r) => r.number)).toEqual([1, 5, 23]);
      // §17: a start date (WEB-5, three days before its due date) and a timed due date (WEB-6, 15:00 Berlin)
      const dated = await db.query(
        `select t.number, t.due_on - t.start_on as started_before, t.due_time::text,
                (t.due_at at time zone 'Europe/Berlin')::time::text as berlin
         from tasks t join projects p on p.id = t.project_id and p.key = 'WEB'
         where t.start_on is not null or t.due_time is not null order by 1`,
      );
      expect(dated.rows).toEqual([
        { number: 5, started_before: 3, due_time: null, berlin: null },
        { number: 6, started_before: null, due_time: "15:00:00", berlin: "15:00:00" },
      ]);
      // due dates around the day the database was made, not fixed ones
      const due = await db.query<{ overdue: number; ahead: number }>(
        `select count(*) filter (where due_on < current_date)::int as overdue,
                count(*) filter (where due_on >= current_date)::int as ahead from tasks`,
      );
      expect(due.rows[0].overdue).toBeGreaterThan(0);
      expect(due.rows[0].ahead).toBeGreaterThan(due.rows[0].overdue);
      const tokens = await db.query(
        "select count(*)::int as n from auth.users where confirmation_token is null or recovery_token is null or email_change_token_new is null or email_change is null",
      );
      expect(tokens.rows).toEqual([{ n: 0 }]);
    } finally {
      await cleanup();
    }
  });
});
