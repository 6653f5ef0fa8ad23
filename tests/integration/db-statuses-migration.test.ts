/**
 * The move to project statuses and team labels (issue 24), on a database the
 * OLD migrations made and filled: the demo seed as it was before statuses
 * (tests/fixtures/seed-before-statuses.sql) and what a person would have
 * made locally through the API (their own team, tasks moved about with the
 * old move_task, a deleted task, labels typed with different capitals, an
 * archived project). Then the new migrations run, as `npm run dev` runs them
 * on an existing data folder, and every task must still be in its column, at
 * its place, with its labels, its updated_at untouched.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrations, migrate } from "../../stack/db/migrate.ts";
import type { Database, Queryable } from "../../stack/db/types.ts";
import { freshDatabase } from "../support/fresh-database.ts";
import { MIGRATIONS_DIR } from "../support/template.ts";

/** The first migration of the statuses work: everything before it is "the old migrations". */
const FIRST_NEW = "20261126000300";
const OLD_SEED = path.resolve("tests/fixtures/seed-before-statuses.sql");
/** What each value of the old enum becomes (the names the board showed, and their category). */
const OLD_STATUS = {
  backlog: { name: "Backlog", category: "backlog" },
  todo: { name: "To do", category: "unstarted" },
  in_progress: { name: "In progress", category: "started" },
  done: { name: "Done", category: "completed" },
  canceled: { name: "Canceled", category: "canceled" },
} as const;

let db: Database;
let cleanup: () => Promise<void>;
let oldDir: string;

function as<T>(userId: string, fn: (tx: Queryable) => Promise<T>) {
  return db.asRequest(
    { role: "authenticated", claims: { sub: userId, role: "authenticated", aud: "authenticated" } },
    fn,
  );
}

interface OldTask {
  team: string;
  key: string;
  number: number;
  status: keyof typeof OLD_STATUS;
  position: number;
  labels: string[];
  updated_at: string;
}

let before: OldTask[];
let projectsBefore: { team: string; key: string; archived: boolean }[];

beforeAll(async () => {
  ({ db, cleanup } = await freshDatabase("teamboard_statuses"));
  // the old migrations alone, as a checkout from before this work had them
  oldDir = fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-old-migrations-"));
  for (const m of listMigrations(MIGRATIONS_DIR)) {
    if (m.version < FIRST_NEW) fs.copyFileSync(m.file, path.join(oldDir, path.basename(m.file)));
  }
  await migrate(db, { migrationsDir: oldDir, seedFile: OLD_SEED });

  // what a person made locally, through the API as it was
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
     values (gen_random_uuid(), 'local@example.com', 'authenticated', 'authenticated', '{"display_name":"Local Person"}', now(), now())
     returning id`,
  );
  const me = rows[0].id;
  await as(me, (tx) => tx.query("select create_team('Side project', 'side')"));
  await as(me, async (tx) => {
    const team = (await tx.query<{ id: string }>("select id from teams where slug = 'side'")).rows[0].id;
    const project = (
      await tx.query<{ id: string }>(
        "insert into projects (team_id, key, name) values ($1, 'APP', 'App') returning id",
        [team],
      )
    ).rows[0].id;
    await tx.query("insert into projects (team_id, key, name) values ($1, 'EMPTY', 'Nothing yet')", [team]);
    const labels = [["Bug", "urgent"], ["bug"], ["Design "], ["design", "UX"], [], ["ux", "Urgent"], ["bug"], ["docs"]];
    for (const [i, set] of labels.entries()) {
      await tx.query("insert into tasks (project_id, title, status, labels) values ($1, $2, 'backlog', $3)", [
        project,
        `Local task ${i + 1}`,
        set,
      ]);
    }
  });
  await as(me, async (tx) => {
    const task = async (n: number) =>
      (
        await tx.query<{ id: string }>(
          "select t.id from tasks t join projects p on p.id = t.project_id where p.key = 'APP' and t.number = $1",
          [n],
        )
      ).rows[0].id;
    // moved along the old transitions, reordered, one deleted from the middle of a column
    for (const n of [1, 2, 3, 4, 5]) await tx.query("select move_task($1, 'todo', 0)", [await task(n)]);
    for (const n of [2, 4]) await tx.query("select move_task($1, 'in_progress')", [await task(n)]);
    await tx.query("select move_task($1, 'done')", [await task(4)]);
    await tx.query("select move_task($1, 'canceled')", [await task(3)]);
    await tx.query("select move_task($1, 'todo', 1)", [await task(6)]);
    await tx.query("delete from tasks where id = $1", [await task(7)]);
  });
  await as(me, async (tx) => {
    await tx.query("update projects set archived_at = now() where key = 'EMPTY'");
  });
  // an archived project with tasks in it, in the demo team
  await db.query("update projects set archived_at = now() where key = 'OPS'");

  before = (
    await db.query<OldTask>(
      `select tm.slug as team, p.key, t.number, t.status::text as status, t.position,
              array(select l from unnest(t.labels) l order by lower(btrim(l))) as labels,
              to_char(t.updated_at at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS.US') as updated_at
       from tasks t join projects p on p.id = t.project_id join teams tm on tm.id = p.team_id
       order by tm.slug, p.key, t.number`,
    )
  ).rows;
  projectsBefore = (
    await db.query<{ team: string; key: string; archived: boolean }>(
      `select tm.slug as team, p.key, p.archived_at is not null as archived
       from projects p join teams tm on tm.id = p.team_id order by tm.slug, p.key`,
    )
  ).rows;

  // now the new migrations, on this database
  const report = await migrate(db, { migrationsDir: MIGRATIONS_DIR, seedFile: null });
  expect(report.applied[0]).toMatch(new RegExp(`^${FIRST_NEW}_`));
}, 120_000);

afterAll(async () => {
  await cleanup?.();
  if (oldDir) fs.rmSync(oldDir, { recursive: true, force: true });
});

describe("the statuses migration on a database made and filled by the old migrations", () => {
  it("had something to move: the old seed's 60 tasks and a person's own", () => {
    expect(before.filter((t) => t.team === "acme")).toHaveLength(60);
    expect(before.filter((t) => t.team === "side")).toHaveLength(7);
    expect(new Set(before.map((t) => t.status))).toEqual(new Set(Object.keys(OLD_STATUS)));
  });

  it("gives every project, archived or not, the five statuses it had, in the board's order", async () => {
    const { rows } = await db.query<{ team: string; key: string; statuses: string[]; categories: string[] }>(
      `select tm.slug as team, p.key,
              array_agg(s.name order by s.position) as statuses,
              array_agg(s.category::text order by s.position) as categories
       from projects p join teams tm on tm.id = p.team_id join project_statuses s on s.project_id = p.id
       group by tm.slug, p.key order by tm.slug, p.key`,
    );
    expect(rows.map((r) => [r.team, r.key])).toEqual(projectsBefore.map((p) => [p.team, p.key]));
    for (const row of rows) {
      expect(row.statuses).toEqual(Object.values(OLD_STATUS).map((s) => s.name));
      expect(row.categories).toEqual(Object.values(OLD_STATUS).map((s) => s.category));
    }
  });

  it("keeps every task: same column, same place in it, same updated_at; done and canceled ones completed", async () => {
    const { rows } = await db.query<{
      team: string;
      key: string;
      number: number;
      status: string;
      category: string;
      position: number;
      updated_at: string;
      completed: string | null;
    }>(
      `select tm.slug as team, p.key, t.number, s.name as status, s.category::text as category, t.position,
              to_char(t.updated_at at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS.US') as updated_at,
              to_char(t.completed_at at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS.US') as completed
       from tasks t join projects p on p.id = t.project_id join teams tm on tm.id = p.team_id
       join project_statuses s on s.id = t.status_id
       order by tm.slug, p.key, t.number`,
    );
    expect(rows).toHaveLength(before.length);
    rows.forEach((after, i) => {
      const old = before[i];
      const where = `${old.team}/${old.key}-${old.number}`;
      expect([after.team, after.key, after.number], where).toEqual([old.team, old.key, old.number]);
      expect(after.status, where).toBe(OLD_STATUS[old.status].name);
      expect(after.category, where).toBe(OLD_STATUS[old.status].category);
      expect(after.position, where).toBe(old.position);
      expect(after.updated_at, where).toBe(old.updated_at);
      expect(after.completed, where).toBe(old.status === "done" || old.status === "canceled" ? old.updated_at : null);
    });
  });

  it("makes the free-text labels team labels: one per name whatever its capitals, every task keeping its own", async () => {
    const { rows: labels } = await db.query<{ team: string; name: string; color: string }>(
      `select tm.slug as team, l.name, l.color::text as color from labels l join teams tm on tm.id = l.team_id
       order by tm.slug, lower(l.name)`,
    );
    const side = labels.filter((l) => l.team === "side").map((l) => l.name.toLowerCase());
    expect(side).toEqual(["bug", "design", "docs", "urgent", "ux"]);
    const acmeNames = new Set(before.filter((t) => t.team === "acme").flatMap((t) => t.labels));
    expect(labels.filter((l) => l.team === "acme").map((l) => l.name)).toEqual([...acmeNames].sort());
    // coloured through the palette, never left uncoloured
    expect(labels.every((l) => l.color !== "gray")).toBe(true);
    expect(new Set(labels.map((l) => l.color)).size).toBeGreaterThan(5);

    const { rows: carried } = await db.query<{ team: string; key: string; number: number; labels: string[] }>(
      `select tm.slug as team, p.key, t.number,
              array(select lower(l.name) from task_labels tl join labels l on l.id = tl.label_id
                    where tl.task_id = t.id order by lower(l.name)) as labels
       from tasks t join projects p on p.id = t.project_id join teams tm on tm.id = p.team_id
       order by tm.slug, p.key, t.number`,
    );
    carried.forEach((after, i) => {
      const wanted = [...new Set(before[i].labels.map((l) => l.trim().toLowerCase()))].sort();
      expect(after.labels, `${after.key}-${after.number}`).toEqual(wanted);
    });
    // the card's copy of them (tasks.label_ids) agrees with task_labels
    const { rows: copies } = await db.query<{ n: number }>(
      `select count(*)::int as n from tasks t
       where t.label_ids <> coalesce((select array_agg(tl.label_id order by tl.label_id) from task_labels tl
                                      where tl.task_id = t.id), '{}')`,
    );
    expect(copies).toEqual([{ n: 0 }]);
  });

  it("leaves a database the new rules and reads work on", async () => {
    const { rows } = await db.query<{ id: string; user_id: string }>(
      `select t.id, m.user_id from tasks t join projects p on p.id = t.project_id and p.key = 'APP'
       join team_members m on m.team_id = p.team_id and m.role = 'owner' where t.number = 1`,
    );
    const [{ id, user_id: me }] = rows;
    const done = await db.query<{ id: string }>(
      "select s.id from project_statuses s join tasks t on t.project_id = s.project_id where t.id = $1 and s.name = 'Done'",
      [id],
    );
    const moved = await as(me, (tx) =>
      tx.query<{ completed: boolean }>("select completed_at is not null as completed from move_task($1, $2, 0)", [
        id,
        done.rows[0].id,
      ]),
    );
    expect(moved.rows).toEqual([{ completed: true }]);
    const board = await as(me, (tx) =>
      tx.query<{ board: { statuses: { name: string; count: number }[] } }>(
        "select board_view('side', 'APP', null, 'BUG') as board",
      ),
    );
    expect(board.rows[0].board.statuses.map((s) => s.name)).toEqual(Object.values(OLD_STATUS).map((s) => s.name));
    const shown = board.rows[0].board.statuses.flatMap((s) => (s as unknown as { cards: unknown[] }).cards);
    expect(shown).toHaveLength(2); // Local tasks 1 ("Bug") and 2 ("bug"); 7 ("bug") was deleted
  });
});
