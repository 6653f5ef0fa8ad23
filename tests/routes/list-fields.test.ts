import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

/**
 * The list view with the fields the team defines (docs/product.md §17,
 * docs/decisions/0044), as a page without JavaScript asks for it: GET
 * loaders with `?sort=field:<id>`, `?group=field:<id>`, `?f.<id>=`,
 * `?columns=`, and the bulk edit's "Set field" as one form post.
 */
let stack: TestStack;
let team: RouteTeam;
let list: typeof import("~/routes/teams.$team.projects.$key_.list");
const field: Record<string, string> = {};
const option: Record<string, string> = {};

type Row = {
  number: number;
  group: string | null;
  fields: Record<string, unknown> | null;
  sums: Record<string, number> | null;
  assignee_ids: string[];
};
type ListData = { rows: Row[]; fields: Array<{ id: string; name: string }>; columns: string[] };

const listUrl = (search = "") => `/teams/${team.slug}/projects/WEB/list${search}`;
const params = () => ({ team: team.slug, key: "WEB" });

async function load(search: string) {
  const result = await call(list.loader, { url: listUrl(search), user: team.member, params: params() });
  expect(result.status).toBe(200);
  return result.data as ListData;
}

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  list = await import("~/routes/teams.$team.projects.$key_.list");
  const db = stack.db;
  const add = async (name: string, kind: string, extra = "") =>
    (
      await db.query<{ id: string }>(
        `insert into public.fields (project_id, name, kind, on_card, sum, number_min, number_max)
         values ($1, $2, $3::public.field_kind, ${extra || "false, false, null, null"}) returning id`,
        [team.projectId, name, kind],
      )
    ).rows[0].id;
  field.customer = await add("Customer", "select", "true, false, null, null");
  field.points = await add("Points", "number", "false, true, 0, 100");
  field.urgent = await add("Signed", "checkbox");
  for (const [i, name] of ["Acme", "Globex"].entries()) {
    option[name] = (
      await db.query<{ id: string }>(
        `insert into public.field_options (field_id, project_id, name, position) values ($1, $2, $3, $4) returning id`,
        [field.customer, team.projectId, name, i],
      )
    ).rows[0].id;
  }
  // tasks 3..8: Points 10, 20, …, 60 (in reverse number order), Customer Globex, Acme, none in turn,
  // Signed on the odd ones; two assignees each
  await db.query(
    `insert into public.tasks (project_id, number, title, status_id, created_by)
     select $1, 2 + n, 'Field task ' || n,
            (select id from public.project_statuses where project_id = $1 order by position limit 1), $2
     from generate_series(1, 6) n`,
    [team.projectId, team.owner.id],
  );
  await db.query(
    `insert into public.field_values (task_id, field_id, value)
     select t.id, $2::uuid, to_jsonb((9 - t.number) * 10) from public.tasks t where t.project_id = $1 and t.number between 3 and 8
     union all
     select t.id, $3::uuid, to_jsonb((array[$5::text, $4::text, null])[1 + t.number % 3]) from public.tasks t
       where t.project_id = $1 and t.number between 3 and 8 and t.number % 3 <> 2
     union all
     select t.id, $6::uuid, 'true'::jsonb from public.tasks t where t.project_id = $1 and t.number between 3 and 8 and t.number % 2 = 1`,
    [team.projectId, field.points, field.customer, option.Acme, option.Globex, field.urgent],
  );
  await db.query(
    `insert into public.task_assignees (task_id, person_id, position)
     select t.id, p.id, p.pos from public.tasks t, (values ($2::uuid, 0), ($3::uuid, 1)) p(id, pos)
     where t.project_id = $1 and t.number between 3 and 8`,
    [team.projectId, team.member.id, team.owner.id],
  );
}, 120_000);

afterAll(() => stack?.close());

const fieldTasks = (rows: Row[]) => rows.filter((r) => r.number >= 3 && r.number <= 8);

describe("the list with fields, without JavaScript", () => {
  it("sorts by a number field, either way, tasks without a value last", async () => {
    const up = await load(`?sort=field:${field.points}`);
    expect(fieldTasks(up.rows).map((r) => r.number)).toEqual([8, 7, 6, 5, 4, 3]);
    expect(up.rows.at(-1)!.number).not.toBeGreaterThanOrEqual(3); // the seed's tasks (no Points) come after
    const down = await load(`?sort=-field:${field.points}`);
    expect(down.rows.slice(0, 6).map((r) => r.number)).toEqual([3, 4, 5, 6, 7, 8]);
  });

  it("sorts by a select field in its options' order", async () => {
    const { rows } = await load(`?sort=field:${field.customer}`);
    // Acme (4, 7), then Globex (3, 6), then none
    expect(rows.slice(0, 4).map((r) => r.number)).toEqual([4, 7, 3, 6]);
  });

  it("groups by a select field, each group with the sum of Points over the whole group", async () => {
    const { rows } = await load(`?group=field:${field.customer}`);
    const groups = [...new Set(rows.map((r) => r.group))];
    expect(groups).toEqual([option.Acme, option.Globex, null]);
    const acme = rows.filter((r) => r.group === option.Acme);
    expect(acme.map((r) => r.number)).toEqual([4, 7]);
    expect(acme[0].sums).toEqual({ [field.points]: 50 + 20 });
    expect(rows.find((r) => r.group === option.Globex)!.sums).toEqual({ [field.points]: 60 + 30 });
  });

  it("groups by a checkbox field, ticked first", async () => {
    const { rows } = await load(`?group=field:${field.urgent}`);
    expect([...new Set(rows.map((r) => r.group))]).toEqual(["true", "false"]);
    expect(rows.filter((r) => r.group === "true").map((r) => r.number)).toEqual([3, 5, 7]);
  });

  it("filters by a field's value, by none, and by two fields at once", async () => {
    const acme = await load(`?f.${field.customer}=${option.Acme}`);
    expect(acme.rows.map((r) => r.number)).toEqual([4, 7]);
    const none = await load(`?f.${field.customer}=none&sort=key`);
    expect(fieldTasks(none.rows).map((r) => r.number)).toEqual([5, 8]);
    const both = await load(`?f.${field.customer}=${option.Globex}&f.${field.urgent}=yes`);
    expect(both.rows.map((r) => r.number)).toEqual([3]);
    const points = await load(`?f.${field.points}=40`);
    expect(points.rows.map((r) => r.number)).toEqual([5]);
  });

  it("shows the fields on cards as columns, or those ticked, and sends each row's values and every assignee", async () => {
    const byDefault = await load("");
    expect(byDefault.columns).toEqual([field.customer]);
    const ticked = await load(`?columns=${field.points},${field.urgent}`);
    expect(ticked.columns).toEqual([field.points, field.urgent]);
    expect((await load("?columns=")).columns).toEqual([]);
    const task3 = ticked.rows.find((r) => r.number === 3)!;
    expect(task3.fields).toMatchObject({ [field.points]: 60, [field.urgent]: true, [field.customer]: option.Globex });
    expect(task3.assignee_ids).toEqual([team.member.id, team.owner.id]);
  });

  it("the board's column shows the sum of Points over its tasks", async () => {
    const boardRoute = await import("~/routes/teams.$team.projects.$key");
    const result = await call(boardRoute.loader, {
      url: `/teams/${team.slug}/projects/WEB`,
      user: team.member,
      params: params(),
    });
    const { columns } = result.data as { columns: Array<{ sums: Record<string, number> | null }> };
    // tasks 3..8 (Points 60 … 10) are all in the first column; the others hold none
    expect(columns.map((c) => c.sums?.[field.points])).toEqual([210, 0, 0, 0, 0].slice(0, columns.length));
  });

  it("sets Points on the ticked tasks in one post, and words a refused value", async () => {
    const { rows } = await stack.db.query<{ id: string }>(
      `select id from public.tasks where project_id = $1 and number between 3 and 8 order by number`,
      [team.projectId],
    );
    const post = (value: string) =>
      call(list.action, {
        url: listUrl(),
        user: team.member,
        params: params(),
        form: [
          ["intent", "bulk"],
          ["change", "set_field"],
          ["setField", field.points],
          ["fieldValue", value],
          ...rows.map((r): [string, string] => ["ids", r.id]),
        ],
      });
    const since = Date.now();
    const done = await post("5");
    expect((done.data as { done?: string }).done).toBe("6 tasks changed.");
    // the action's backend requests: its team context, then the edit itself, once for all six
    const edits = stack.requests.list(since).filter((r) => r.path === "/rest/v1/rpc/bulk_edit_tasks");
    expect(edits).toHaveLength(1);
    const { rows: values } = await stack.db.query<{ n: string }>(
      `select count(*) as n from public.field_values where field_id = $1 and number_value = 5`,
      [field.points],
    );
    expect(Number(values[0].n)).toBe(6);
    const refused = await post("101");
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.data)).toContain("Points is a number from 0 to 100.");
  });
});
