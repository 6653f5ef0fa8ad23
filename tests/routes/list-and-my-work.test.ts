import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequentialDepth } from "../../stack/request-log.ts";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteResult, type RouteTeam, type RouteUser } from "./support.ts";

/**
 * The list view, bulk edit and My work (docs/product.md §13), through their
 * loaders and actions against the real stack: orders (stable, nulls last),
 * groups, paging, bulk edit all or nothing under row-level security, and
 * the round trips each page costs.
 */
let stack: TestStack;
let team: RouteTeam;
let other: { slug: string; projectId: string; taskIds: string[] };
let list: typeof import("~/routes/teams.$team.projects.$key_.list");
let myWork: typeof import("~/routes/my-work");

const listUrl = (search = "") => `/teams/${team.slug}/projects/WEB/list${search}`;
const params = () => ({ team: team.slug, key: "WEB" });

type ListData = {
  rows: Array<{
    id: string;
    number: number;
    title: string;
    due_on: string | null;
    group: string | null;
    status: { id: string; name: string };
    labels: Array<{ id: string; name: string }>;
  }>;
  paging: { page: number; hasNext: boolean; hasPrevious: boolean };
};

async function load(search: string, user: RouteUser = team.member) {
  const result = await call(list.loader, { url: listUrl(search), user, params: params() });
  expect(result.status).toBe(200);
  return result.data as ListData;
}

/** The one-time message a redirect carries (the flash cookie: signed base64 JSON). */
/** What a bulk edit says it did, beside its bar. */
function doneOf(result: RouteResult): string | null {
  return (result.data as { done?: string } | undefined)?.done ?? null;
}

/** Tasks as a person reads them: their status's name and their labels' names. */
async function tasksWhere(sql: string, args: unknown[] = []) {
  const { rows } = await stack.db.query<{ number: number; status: string; priority: string; labels: string[] }>(
    `select t.number, s.name as status, t.priority,
            coalesce((select array_agg(l.name order by l.name) from public.labels l where l.id = any (t.label_ids)), '{}') as labels
     from (select * from public.tasks where ${sql}) t join public.project_statuses s on s.id = t.status_id
     order by t.number`,
    args,
  );
  return rows;
}

const statusId = async (projectId: string, name: string) =>
  (
    await stack.db.query<{ id: string }>(`select id from public.project_statuses where project_id = $1 and name = $2`, [
      projectId,
      name,
    ])
  ).rows[0].id;
const labelIds: Record<string, string> = {};

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  list = await import("~/routes/teams.$team.projects.$key_.list");
  myWork = await import("~/routes/my-work");
  // tasks 3..12: due dates with gaps and ties, assignees, the team's labels
  await stack.db.query(
    `insert into public.tasks (project_id, number, title, status_id, due_on, assignee_id, priority, created_by)
     select $1, 2 + n, 'Task ' || n, $4, case when n % 3 = 0 then null else current_date + (n / 2) end,
            case when n % 2 = 0 then $2::uuid end,
            (array['none','low','medium','high','urgent'])[1 + n % 5]::public.task_priority, $3
     from generate_series(1, 10) n`,
    [team.projectId, team.member.id, team.owner.id, await statusId(team.projectId, "To do")],
  );
  const made = await stack.db.query<{ id: string; name: string }>(
    `insert into public.labels (team_id, name, color) values ($1, 'design', 'purple'), ($1, 'bug', 'red'), ($1, 'bulk', 'teal')
     returning id, name`,
    [team.id],
  );
  for (const label of made.rows) labelIds[label.name] = label.id;
  await stack.db.query(
    `insert into public.task_labels (task_id, label_id)
     select t.id, l.id from public.tasks t, public.labels l
     where t.project_id = $1 and ((t.number = 6 and l.name in ('design', 'bug')) or (t.number = 7 and l.name = 'bug'))
       and l.team_id = $2`,
    [team.projectId, team.id],
  );
  // a second team: the member is a viewer there (a mixed-permission selection)
  const owner = stack.anonClient();
  await owner.auth.signInWithPassword({ email: team.owner.email, password: team.owner.password });
  const created = await owner
    .rpc("create_team", { name: "Other", slug: `${team.slug}-other` })
    .single<{ id: string }>();
  if (created.error) throw created.error;
  const otherTeam = created.data.id;
  await stack.db.query(`insert into public.team_members (team_id, user_id, role) values ($1, $2, 'viewer')`, [
    otherTeam,
    team.member.id,
  ]);
  const project = await stack.db.query<{ id: string }>(
    `insert into public.projects (team_id, key, name) values ($1, 'OPS', 'Ops') returning id`,
    [otherTeam],
  );
  const tasks = await stack.db.query<{ id: string }>(
    `insert into public.tasks (project_id, title, assignee_id, due_on, created_by)
     values ($1, 'Renew the certificate', $2, current_date - 2, $3) returning id`,
    [project.rows[0].id, team.member.id, team.owner.id],
  );
  const slug = await stack.db.query<{ slug: string }>(`select slug from public.teams where id = $1`, [otherTeam]);
  other = { slug: slug.rows[0].slug, projectId: project.rows[0].id, taskIds: tasks.rows.map((t) => t.id) };
});
afterAll(() => stack?.close());

describe("the list's order", () => {
  it("sorts by due date both ways with the undated last, equal dates by key, the same on every load", async () => {
    const up = (await load("?sort=due")).rows;
    const dated = up.filter((r) => r.due_on);
    expect(dated.map((r) => r.due_on)).toEqual([...dated.map((r) => r.due_on)].sort());
    expect(up.slice(dated.length).every((r) => r.due_on === null)).toBe(true);
    // ties: the key decides
    for (let i = 1; i < up.length; i++)
      if (up[i].due_on === up[i - 1].due_on) expect(up[i].number).toBeGreaterThan(up[i - 1].number);
    const down = (await load("?sort=-due")).rows;
    const datedDown = down.filter((r) => r.due_on);
    expect(datedDown.map((r) => r.due_on)).toEqual([...datedDown.map((r) => r.due_on)].sort().reverse());
    expect(down.slice(datedDown.length).every((r) => r.due_on === null)).toBe(true);
    expect((await load("?sort=due")).rows.map((r) => r.id)).toEqual(up.map((r) => r.id));
  });

  it("groups by status (the board's order), assignee and label, unassigned and unlabelled last", async () => {
    const byStatus = (await load("?group=status")).rows;
    expect([...new Set(byStatus.map((r) => r.status.name))]).toEqual(["Backlog", "To do"]);
    expect(byStatus.every((r) => r.group === r.status.id)).toBe(true);
    const byAssignee = (await load("?group=assignee&sort=key")).rows;
    expect([...new Set(byAssignee.map((r) => r.group))]).toEqual([team.member.id, null]);
    const byLabel = (await load("?group=label")).rows;
    expect([...new Set(byLabel.map((r) => r.group))]).toEqual([labelIds.bug, labelIds.design, null]);
    // task 6 (n = 4) has two labels: it shows in both groups, and each row names its labels
    expect(byLabel.filter((r) => r.number === 6).map((r) => r.group)).toEqual([labelIds.bug, labelIds.design]);
    expect(byLabel.find((r) => r.number === 6)?.labels.map((l) => l.name)).toEqual(["bug", "design"]);
  });

  it("applies the board's filters; an unknown sort or group is the default", async () => {
    expect((await load("?label=bug&sort=key")).rows.map((r) => r.number)).toEqual([6, 7]);
    expect((await load("?assignee=none&q=Task%201")).rows.map((r) => r.title)).toEqual(["Task 1"]);
    const fallback = await load("?sort=bogus&group=bogus");
    expect(fallback.rows.map((r) => r.number)).toEqual([...fallback.rows.map((r) => r.number)].sort((a, b) => a - b));
    expect(fallback.rows.every((r) => r.group === null)).toBe(true);
  });

  it("shows 100 rows a page and says whether there are more; pages don't overlap", async () => {
    await stack.db.query(
      `insert into public.tasks (project_id, number, title, status_id, created_by)
       select $1, 100 + n, 'Filler ' || n, $3, $2 from generate_series(1, 150) n`,
      [team.projectId, team.owner.id, await statusId(team.projectId, "Done")],
    );
    try {
      const first = await load("?sort=-key");
      expect(first.rows).toHaveLength(100);
      expect(first.paging).toEqual({ page: 1, hasPrevious: false, hasNext: true });
      const second = await load("?sort=-key&page=2");
      expect(second.rows).toHaveLength(62);
      expect(second.paging).toEqual({ page: 2, hasPrevious: true, hasNext: false });
      const ids = new Set([...first.rows, ...second.rows].map((r) => r.id));
      expect(ids.size).toBe(162);
    } finally {
      await stack.db.query(`delete from public.tasks where project_id = $1 and number > 100`, [team.projectId]);
    }
  });

  it("is a 404 for someone outside the team", async () => {
    const result = await call(list.loader, { url: listUrl(), user: team.outsider, params: params() });
    expect(result.status).toBe(404);
  });
});

describe("bulk edit", () => {
  const post = (user: RouteUser, fields: Array<[string, string]>) =>
    call(list.action, { url: listUrl("?sort=key"), user, params: params(), form: [["intent", "bulk"], ...fields] });
  const todoIds = async () =>
    (
      await stack.db.query<{ id: string }>(
        `select t.id from public.tasks t join public.project_statuses s on s.id = t.status_id
         where t.project_id = $1 and s.name = 'To do' order by t.number`,
        [team.projectId],
      )
    ).rows.map((r) => r.id);

  it("sets the priority of the ticked tasks in one post and says how many changed", async () => {
    const ids = (await todoIds()).slice(0, 4);
    const result = await post(team.member, [
      ...ids.map((id) => ["ids", id] as [string, string]),
      ["change", "priority"],
      ["priority", "urgent"],
    ]);
    // the page comes back (no redirect) with the rows still ticked and the result beside the bar
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({ done: "4 tasks changed.", selection: { ids, all: false } });
    const rows = await tasksWhere("id = any($1)", [ids]);
    expect(rows.every((r) => r.priority === "urgent")).toBe(true);
  });

  it("'all on this page' takes the page's rows; a label is added once and removed", async () => {
    const ids = await todoIds();
    const page = ids.map((id) => ["pageIds", id] as [string, string]);
    const bulk = labelIds.bulk;
    const added = await post(team.member, [...page, ["all", "on"], ["change", "add_label"], ["label", bulk]]);
    expect(doneOf(added)).toBe(`${ids.length} tasks changed.`);
    await post(team.member, [...page, ["all", "on"], ["change", "add_label"], ["label", bulk]]);
    expect(
      (await tasksWhere("id = any($1)", [ids])).every((r) => r.labels.filter((l) => l === "bulk").length === 1),
    ).toBe(true);
    await post(team.member, [...page, ["all", "on"], ["change", "remove_label"], ["label", bulk]]);
    expect((await tasksWhere("id = any($1)", [ids])).some((r) => r.labels.includes("bulk"))).toBe(false);
  });

  it("moves tasks to another of the project's statuses, each to the end of its new column", async () => {
    const ids = (await todoIds()).slice(0, 3);
    const result = await post(team.member, [
      ...ids.map((id) => ["ids", id] as [string, string]),
      ["change", "status"],
      ["status", await statusId(team.projectId, "In progress")],
    ]);
    expect(doneOf(result)).toBe("3 tasks changed.");
    expect((await tasksWhere("id = any($1)", [ids])).map((r) => r.status)).toEqual(Array(3).fill("In progress"));
    const { rows } = await stack.db.query<{ position: number }>(
      `select position from public.tasks where id = any($1) order by position`,
      [ids],
    );
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2]);
  });

  it("refuses a viewer (403) and changes nothing; the ticked rows come back", async () => {
    const ids = (await todoIds()).slice(0, 2);
    const before = await tasksWhere("id = any($1)", [ids]);
    const result = await post(team.viewer, [
      ...ids.map((id) => ["ids", id] as [string, string]),
      ["change", "priority"],
      ["priority", "low"],
    ]);
    expect(result.status).toBe(403);
    expect(result.data).toMatchObject({ selection: { ids, all: false } });
    expect(await tasksWhere("id = any($1)", [ids])).toEqual(before);
  });

  it("refuses a member's delete (403): nothing is deleted and the selection survives", async () => {
    const ids = (await todoIds()).slice(0, 2);
    const result = await post(team.member, [...ids.map((id) => ["ids", id] as [string, string]), ["change", "delete"]]);
    expect(result.status).toBe(403);
    expect(result.data).toMatchObject({
      errors: { form: expect.stringContaining("Nothing was changed") },
      selection: { ids },
    });
    expect(await tasksWhere("id = any($1)", [ids])).toHaveLength(2);
  });

  it("all or nothing under row-level security: one task the person may only view refuses the whole edit", async () => {
    const mine = (await todoIds()).slice(0, 2);
    const before = await tasksWhere("id = any($1)", [[...mine, ...other.taskIds]]);
    // through the backend directly, with the member's own token
    const client = stack.anonClient();
    await client.auth.signInWithPassword({ email: team.member.email, password: team.member.password });
    const refused = await client.rpc("bulk_edit_tasks", {
      task_ids: [...mine, ...other.taskIds],
      change: "priority",
      value: "high",
    });
    expect(refused.error?.code).toBe("42501");
    expect(await tasksWhere("id = any($1)", [[...mine, ...other.taskIds]])).toEqual(before);
    // and through the form
    const result = await post(team.member, [
      ...[...mine, ...other.taskIds].map((id) => ["ids", id] as [string, string]),
      ["change", "priority"],
      ["priority", "high"],
    ]);
    expect(result.status).toBe(403);
    expect(await tasksWhere("id = any($1)", [[...mine, ...other.taskIds]])).toEqual(before);
  });

  it("another project's status refuses the whole move (400, in words), nothing moves", async () => {
    const ids = (await todoIds()).slice(0, 2);
    const before = await tasksWhere("id = any($1)", [ids]);
    const result = await post(team.member, [
      ...ids.map((id) => ["ids", id] as [string, string]),
      ["change", "status"],
      ["status", await statusId(other.projectId, "Done")],
    ]);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ errors: { form: expect.stringContaining("isn't one of this project's") } });
    expect(await tasksWhere("id = any($1)", [ids])).toEqual(before);
  });

  it("an admin deletes; nothing ticked is a 400", async () => {
    const [id] = await todoIds();
    const done = await post(team.admin, [
      ["ids", id],
      ["change", "delete"],
    ]);
    expect(doneOf(done)).toBe("1 task changed.");
    // to the project's trash (docs/product.md §18): hidden, its row kept for 30 days
    expect(await tasksWhere("id = $1 and deleted_at is null", [id])).toHaveLength(0);
    expect(await tasksWhere("id = $1 and deleted_at is not null", [id])).toHaveLength(1);
    const empty = await post(team.admin, [
      ["change", "priority"],
      ["priority", "low"],
    ]);
    expect(empty.status).toBe(400);
    expect(empty.data).toMatchObject({ errors: { form: "Tick at least one task." } });
  });
});

describe("My work", () => {
  type MyWork = { lists: Array<{ list: string; rows: Array<{ title: string; team_slug: string }> | null }> };
  const lists = async (user: RouteUser, search = "") => {
    const result = await call(myWork.loader, { url: `/my-work${search}`, user, params: {} });
    expect(result.status).toBe(200);
    return Object.fromEntries((result.data as MyWork).lists.map((l) => [l.list, l.rows?.map((r) => r.title) ?? null]));
  };

  it("lists what is mine across my teams: assigned and open, due within 7 days or overdue, created by me", async () => {
    const member = await lists(team.member);
    expect(member.assigned).toContain("Renew the certificate");
    expect(member.assigned).toContain("Task 2");
    // overdue in the other team first, then by date; task 10 (n = 10) is due in 5 days; none after 7
    expect(member.due?.[0]).toBe("Renew the certificate");
    expect(member.created).toEqual([]);
    const owner = await lists(team.owner, "?created.sort=key");
    expect(owner.created?.length).toBeGreaterThan(5);
    expect(owner.assigned).toEqual([]);
  });

  it("counts the 7 days from today in the person's own time zone, not the database's", async () => {
    // +14 and −11 hours: at any hour of the day one of the two dates differs from UTC's
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      const today = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date());
      await stack.db.query(`update public.profiles set time_zone = $1 where id = $2`, [zone, team.member.id]);
      const tasks = await stack.db.query<{ id: string }>(
        `insert into public.tasks (project_id, title, assignee_id, due_on, created_by)
         values ($1, $4, $2, $5::date + 7, $3), ($1, $6, $2, $5::date + 8, $3) returning id`,
        [
          team.projectId,
          team.member.id,
          team.owner.id,
          `Last day of the week in ${zone}`,
          today,
          `Past the week in ${zone}`,
        ],
      );
      try {
        const due = (await lists(team.member)).due;
        expect(due, zone).toContain(`Last day of the week in ${zone}`);
        expect(due, zone).not.toContain(`Past the week in ${zone}`);
      } finally {
        await stack.db.query(`delete from public.tasks where id = any ($1)`, [tasks.rows.map((t) => t.id)]);
        await stack.db.query(`update public.profiles set time_zone = 'UTC' where id = $1`, [team.member.id]);
      }
    }
  });

  it("reads the four lists side by side: one round trip", async () => {
    stack.setLatency(300);
    try {
      const since = Date.now();
      const result = await call(myWork.loader, { url: "/my-work", user: team.member, params: {} });
      expect(result.status).toBe(200);
      const logged = stack.requests.list(since).filter((r) => !r.path.includes("/.well-known/"));
      expect(logged.map((r) => r.path)).toEqual(Array(4).fill("/rest/v1/rpc/my_work"));
      expect(sequentialDepth(logged)).toBe(1);
    } finally {
      stack.setLatency(0);
    }
  });
});
