/**
 * Several assignees (issue 38, docs/product.md §17; …_task_assignees.sql).
 *
 * First the move: a database the OLD migrations made and filled (the demo seed
 * as it was before this work, tests/fixtures/seed-before-assignees.sql, and a
 * person's own team with tasks assigned, reassigned and unassigned through
 * the API as it was); then the new migrations run, as `npm run dev` runs them
 * on an existing data folder, and every task keeps its assignee, its
 * updated_at untouched.
 *
 * Then the rules, as a person calls them (role `authenticated`, their claims,
 * as PostgREST runs a request): 0–10 members of the team, the one-assignee
 * column still working, filters and My work matching any assignee, each new
 * assignee notified and reminded, the calendar feed, bulk edit, leaving a team.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownMessage } from "../../app/lib/db-messages.ts";
import { listMigrations, migrate } from "../../stack/db/migrate.ts";
import type { Database, Queryable } from "../../stack/db/types.ts";
import { dbPeople, failure } from "../support/db-people.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";
import { freshDatabase } from "../support/fresh-database.ts";
import { MIGRATIONS_DIR } from "../support/template.ts";

/** The migration of several assignees: everything before it is "the old migrations". */
const FIRST_NEW = "20261207000510";
const OLD_SEED = path.resolve("tests/fixtures/seed-before-assignees.sql");

describe("the move to several assignees, on a database made and filled by the old migrations", () => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let oldDir: string;
  let before: { id: string; assignee_id: string | null; updated_at: string }[];

  const as = <T>(userId: string, fn: (tx: Queryable) => Promise<T>) =>
    db.asRequest({ role: "authenticated", claims: { sub: userId, role: "authenticated", aud: "authenticated" } }, fn);

  beforeAll(async () => {
    ({ db, cleanup } = await freshDatabase("teamboard_assignees"));
    oldDir = fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-old-migrations-"));
    for (const m of listMigrations(MIGRATIONS_DIR)) {
      if (m.version < FIRST_NEW) fs.copyFileSync(m.file, path.join(oldDir, path.basename(m.file)));
    }
    await migrate(db, { migrationsDir: oldDir, seedFile: OLD_SEED });

    // what a person made through the API as it was: a team of two, tasks assigned, reassigned, unassigned
    const person = async (email: string, name: string) =>
      (
        await db.query<{ id: string }>(
          `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
           values (gen_random_uuid(), $1, 'authenticated', 'authenticated', $2::jsonb, now(), now()) returning id`,
          [email, JSON.stringify({ display_name: name })],
        )
      ).rows[0].id;
    const me = await person("local@example.com", "Local Person");
    const pal = await person("pal@example.com", "Pal");
    await as(me, (tx) => tx.query("select create_team('Side project', 'side')"));
    await db.query(
      "insert into team_members (team_id, user_id, role) select id, $1, 'member' from teams where slug = 'side'",
      [pal],
    );
    await as(me, async (tx) => {
      const team = (await tx.query<{ id: string }>("select id from teams where slug = 'side'")).rows[0].id;
      const project = (
        await tx.query<{ id: string }>(
          "insert into projects (team_id, key, name) values ($1, 'APP', 'App') returning id",
          [team],
        )
      ).rows[0].id;
      for (const [i, who] of [me, pal, null, me, pal].entries()) {
        await tx.query("insert into tasks (project_id, title, assignee_id) values ($1, $2, $3)", [
          project,
          `Local task ${i + 1}`,
          who,
        ]);
      }
      await tx.query("update tasks set assignee_id = $1 where title = 'Local task 1'", [pal]);
      await tx.query("update tasks set assignee_id = null where title = 'Local task 4'");
    });

    before = (
      await db.query<{ id: string; assignee_id: string | null; updated_at: string }>(
        `select t.id, t.assignee_id, to_char(t.updated_at at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS.US') as updated_at
         from tasks t order by t.id`,
      )
    ).rows;

    const report = await migrate(db, { migrationsDir: MIGRATIONS_DIR, seedFile: null });
    expect(report.applied[0]).toMatch(new RegExp(`^${FIRST_NEW}_`));
  }, 180_000);

  afterAll(async () => {
    await cleanup?.();
    if (oldDir) fs.rmSync(oldDir, { recursive: true, force: true });
  });

  it("had something to move: the seed's assigned tasks and a person's own", () => {
    expect(before.filter((t) => t.assignee_id).length).toBeGreaterThan(20);
    expect(before.filter((t) => !t.assignee_id).length).toBeGreaterThan(2);
  });

  it("keeps every task's assignee, as its only one, its updated_at untouched", async () => {
    const { rows } = await db.query<{
      id: string;
      assignee_id: string | null;
      assignee_ids: string[];
      rows: string[];
      updated_at: string;
    }>(
      `select t.id, t.assignee_id, t.assignee_ids,
              array(select a.person_id from task_assignees a where a.task_id = t.id) as rows,
              to_char(t.updated_at at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS.US') as updated_at
       from tasks t order by t.id`,
    );
    expect(rows).toHaveLength(before.length);
    rows.forEach((after, i) => {
      const old = before[i];
      const wanted = old.assignee_id ? [old.assignee_id] : [];
      expect(after.id).toBe(old.id);
      expect(after.assignee_id, after.id).toBe(old.assignee_id);
      expect(after.assignee_ids, after.id).toEqual(wanted);
      expect(after.rows, after.id).toEqual(wanted);
      expect(after.updated_at, after.id).toBe(old.updated_at);
    });
    // nothing was recorded as an edit
    const { rows: events } = await db.query<{ n: number }>(
      "select count(*)::int as n from task_events where data -> 'changes' ? 'assignees'",
    );
    expect(events).toEqual([{ n: 0 }]);
  });
});

describe("several assignees", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());
  const { call, teamWith, project, task, createUser } = dbPeople(() => stack);

  async function setup() {
    const t = await teamWith({ mia: "member", sam: "member", vic: "viewer" });
    const p = await project(t.team);
    const main = await task(p, { title: "Main", assignee: t.mia });
    return { ...t, mia: t.mia as string, sam: t.sam as string, vic: t.vic as string, project: p, task: main.id };
  }
  const assignees = async (taskId: string) =>
    (
      await stack.db.query<{ assignee_id: string | null; assignee_ids: string[] }>(
        "select assignee_id, assignee_ids from tasks where id = $1",
        [taskId],
      )
    ).rows[0];

  it("a task has 0–10 members of its team; the first is assignee_id; writing assignee_id sets the one", async () => {
    const s = await setup();
    await call(s.owner, "insert into task_assignees (task_id, person_id) values ($1, $2)", [s.task, s.sam]);
    expect(await assignees(s.task)).toEqual({ assignee_id: s.mia, assignee_ids: [s.mia, s.sam] });

    const outsider = await createUser("Outsider");
    const refused = await failure(
      call(s.owner, "insert into task_assignees (task_id, person_id) values ($1, $2)", [s.task, outsider]),
    );
    expect(refused).toMatchObject({ code: "23514", detail: "task_assignees_same_team" });
    expect(await failure(call(s.vic, "select set_task_assignees($1, $2)", [s.task, [s.vic]]))).toMatchObject({
      code: "42501",
    });

    // ten at most
    const more: string[] = [];
    for (let i = 0; i < 9; i++) {
      const id = await createUser(`Extra ${i}`);
      await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [s.team, id]);
      more.push(id);
    }
    const eleventh = await failure(call(s.mia, "select set_task_assignees($1, $2)", [s.task, [s.mia, s.sam, ...more]]));
    expect(eleventh).toMatchObject({ code: "23514", detail: "task_assignees_limit" });
    expect(knownMessage({ details: eleventh?.detail })).toBe("A task can have at most 10 assignees.");
    await call(s.mia, "select set_task_assignees($1, $2)", [s.task, [s.sam, s.mia, ...more.slice(0, 8)]]);
    expect((await assignees(s.task)).assignee_ids).toHaveLength(10);
    const one = await failure(
      call(s.mia, "insert into task_assignees (task_id, person_id) values ($1, $2)", [s.task, more[8]]),
    );
    expect(one).toMatchObject({ detail: "task_assignees_limit" });

    // the one-assignee column: writing it makes that person the only assignee; clearing it, none
    await call(s.mia, "update tasks set assignee_id = $1 where id = $2", [s.sam, s.task]);
    expect(await assignees(s.task)).toEqual({ assignee_id: s.sam, assignee_ids: [s.sam] });
    await call(s.mia, "select set_task_assignees($1, $2)", [s.task, [s.sam, s.mia]]);
    await call(s.mia, "update tasks set assignee_id = null where id = $1", [s.task]);
    expect(await assignees(s.task)).toEqual({ assignee_id: null, assignee_ids: [] });
  });

  it("filters, My work and the calendar feed match any assignee", async () => {
    const s = await setup();
    await call(s.mia, "select set_task_assignees($1, $2)", [s.task, [s.mia, s.sam]]);
    await call(s.mia, "update tasks set due_on = current_date + 1 where id = $1", [s.task]);
    const [{ board }] = await call<{ board: { statuses: { cards: { title: string; assignee_ids: string[] }[] }[] } }>(
      s.mia,
      "select board_view($1, 'WEB', $2) as board",
      [s.slug, s.sam],
    );
    const cards = board.statuses.flatMap((st) => st.cards);
    expect(cards.map((c) => [c.title, c.assignee_ids])).toEqual([["Main", [s.mia, s.sam]]]);
    for (const who of [s.mia, s.sam]) {
      const [{ rows }] = await call<{ rows: { title: string }[] }>(who, "select task_table(null, 'assigned') as rows");
      expect(
        rows.map((r) => r.title),
        who,
      ).toEqual(["Main"]);
      const [{ list }] = await call<{ list: { title: string }[] }>(who, "select task_table($1, null, 'me') as list", [
        s.project,
      ]);
      expect(list.map((r) => r.title)).toEqual(["Main"]);
    }
    // grouped by assignee: in both groups
    const [{ groups }] = await call<{ groups: { group: string }[] }>(
      s.mia,
      "select task_table($1, null, null, null, null, 'key', 'assignee') as groups",
      [s.project],
    );
    expect(groups.map((g) => g.group).sort()).toEqual([s.mia, s.sam].sort());
    // the team page's "my open tasks" and My work's names: the second assignee too
    const [{ overview }] = await call<{ overview: { my_open_tasks: { title: string }[] } }>(
      s.sam,
      "select team_overview($1) as overview",
      [s.team],
    );
    expect(overview.my_open_tasks.map((t) => t.title)).toEqual(["Main"]);
    const [{ work }] = await call<{ work: { names: { id: string }[] } }>(s.sam, "select my_work('assigned') as work");
    expect(work.names.map((n) => n.id).sort()).toEqual([s.mia, s.sam].sort());

    const [{ token }] = await call<{ token: string }>(s.sam, "select reset_calendar_feed() as token");
    const [{ feed }] = await call<{ feed: { tasks: { title: string }[] } }>(s.vic, "select calendar_feed($1) as feed", [
      token,
    ]);
    expect(feed.tasks.map((t) => t.title)).toEqual(["Main"]);
  });

  it("each added assignee is notified, watches, and is reminded; all hear of comments", async () => {
    const s = await setup();
    await call(s.mia, "select set_task_assignees($1, $2)", [s.task, [s.mia, s.sam, s.owner]]);
    const notified = await stack.db.query<{ recipient_id: string; kind: string }>(
      "select recipient_id, kind from notifications where task_id = $1 order by kind, recipient_id",
      [s.task],
    );
    // Mia from when the task was made with her; Sam and the owner now (Mia added them: not her)
    expect(notified.rows.map((n) => [n.recipient_id, n.kind])).toEqual(
      [s.mia, s.owner, s.sam].sort().map((id) => [id, "assigned"]),
    );
    const [{ changes }] = await call<{ changes: Record<string, unknown> }>(
      s.mia,
      "select data -> 'changes' as changes from task_events where task_id = $1 and kind = 'task_updated'",
      [s.task],
    );
    expect(changes).toEqual({ assignees: { from: [s.mia], to: [s.mia, s.sam, s.owner] } });

    await call(s.owner, "insert into comments (task_id, body) values ($1, 'Hello')", [s.task]);
    const heard = await stack.db.query<{ recipient_id: string }>(
      "select recipient_id from notifications where task_id = $1 and kind = 'comment' order by recipient_id",
      [s.task],
    );
    expect(heard.rows.map((r) => r.recipient_id)).toEqual([s.mia, s.sam].sort());

    await stack.db.query("update tasks set due_on = current_date + 1 where id = $1", [s.task]);
    await stack.db.query("select remind_due_tasks((current_date + time '12:00') at time zone 'UTC')");
    const reminded = await stack.db.query<{ recipient_id: string }>(
      "select recipient_id from due_reminders where task_id = $1 order by recipient_id",
      [s.task],
    );
    expect(reminded.rows.map((r) => r.recipient_id)).toEqual([s.mia, s.owner, s.sam].sort());
  });

  it("bulk edit adds and removes an assignee and sets a field in one call", async () => {
    const s = await setup();
    const other = await task(s.project, { title: "Other" });
    await call(s.mia, "select bulk_edit_tasks($1, 'add_assignee', $2)", [[s.task, other.id], s.sam]);
    expect((await assignees(s.task)).assignee_ids).toEqual([s.mia, s.sam]);
    expect((await assignees(other.id)).assignee_ids).toEqual([s.sam]);
    await call(s.mia, "select bulk_edit_tasks($1, 'remove_assignee', $2)", [[s.task, other.id], s.mia]);
    expect((await assignees(s.task)).assignee_ids).toEqual([s.sam]);
    expect((await assignees(s.task)).assignee_id).toBe(s.sam);

    const [field] = await call<{ id: string }>(
      s.owner,
      "insert into fields (project_id, name, kind, number_min, number_max) values ($1, 'Points', 'number', 0, 100) returning id",
      [s.project],
    );
    await call(s.mia, "select bulk_edit_tasks($1, 'set_field', $2)", [
      [s.task, other.id],
      JSON.stringify({ field: field.id, value: 5 }),
    ]);
    const values = await stack.db.query<{ fields: Record<string, number> }>(
      "select fields from tasks where id = any ($1) order by number",
      [[s.task, other.id]],
    );
    expect(values.rows.map((r) => r.fields[field.id])).toEqual([5, 5]);
    const bad = await failure(
      call(s.mia, "select bulk_edit_tasks($1, 'set_field', $2)", [
        [s.task, other.id],
        JSON.stringify({ field: field.id, value: 101 }),
      ]),
    );
    expect(bad).toMatchObject({ code: "22023", detail: "field_value_invalid" });
  });

  it("someone leaving the team leaves every task; the others stay", async () => {
    const s = await setup();
    const second = await task(s.project, { title: "Second", assignee: s.sam });
    await call(s.mia, "select set_task_assignees($1, $2)", [s.task, [s.mia, s.sam]]);
    await call(s.mia, "select set_task_assignees($1, $2)", [second.id, [s.sam, s.mia]]);
    await stack.db.query("delete from team_members where team_id = $1 and user_id = $2", [s.team, s.mia]);
    expect(await assignees(s.task)).toEqual({ assignee_id: s.sam, assignee_ids: [s.sam] });
    expect(await assignees(second.id)).toEqual({ assignee_id: s.sam, assignee_ids: [s.sam] });
  });
});
