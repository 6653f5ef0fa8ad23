/**
 * Repeating tasks (docs/product.md §12) through the route modules: the task forms'
 * Repeat fields make the rule (weekly on ticked days; a repeating task needs
 * a due date), completing the task on its panel makes the next one with the
 * next date, the board marks the tasks that repeat, "Stop repeating" ends the
 * series (members only).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

let stack: TestStack;
let team: RouteTeam;
let board: typeof import("~/routes/teams.$team.projects.$key");
let task: typeof import("~/routes/teams.$team.projects.$key.tasks.$number");
let newTask: typeof import("~/routes/teams.$team.projects.$key.tasks.new");
let list: typeof import("~/routes/teams.$team.projects.$key_.list");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  board = await import("~/routes/teams.$team.projects.$key");
  task = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  newTask = await import("~/routes/teams.$team.projects.$key.tasks.new");
  list = await import("~/routes/teams.$team.projects.$key_.list");
});
afterAll(() => stack?.close());

const boardUrl = () => `/teams/${team.slug}/projects/WEB`;
const params = (extra: Record<string, string> = {}) => ({ team: team.slug, key: "WEB", ...extra });
const errorsOf = (data: unknown) => (data as { errors: Record<string, string> }).errors;
const valuesOf = (data: unknown) => (data as { values: Record<string, string> }).values;

/** A status of WEB by its name (a new project's: Backlog, To do, In progress, Done, Canceled). */
async function statusId(name: string) {
  const { rows } = await stack.db.query<{ id: string }>(
    "select id from project_statuses where project_id = $1 and name = $2",
    [team.projectId, name],
  );
  return rows[0].id;
}

/** The tasks of that title in order, each with its status's name. */
async function rows(title: string) {
  const { data } = await stack
    .adminClient()
    .from("tasks")
    .select("number, due_on, recurrence, successor_id, status:project_statuses!tasks_status_in_project_fkey(name)")
    .eq("project_id", team.projectId)
    .eq("title", title)
    .order("number");
  return (data as unknown as Array<{ status: { name: string } }>).map((row) => ({
    ...row,
    status: row.status.name,
  })) as unknown as Array<{
    number: number;
    status: string;
    due_on: string;
    recurrence: string | null;
    successor_id: string | null;
  }>;
}

type BoardData = { columns: Array<{ tasks: Array<{ number: number; repeats?: boolean }> }> };
const cardsOf = (data: unknown) => (data as BoardData).columns.flatMap((c) => c.tasks);

describe("repeating tasks", () => {
  it("the new-task form makes the rule from its fields; without a due date it asks for one and keeps what was typed", async () => {
    const url = `${boardUrl()}/tasks/new`;
    const refused = await call(newTask.action, {
      url,
      user: team.member,
      params: params(),
      form: { title: "Standup notes", repeat: "daily", every: "1" },
    });
    expect(refused.status).toBe(400);
    expect(errorsOf(refused.data).repeat).toBe("A repeating task needs a due date.");
    expect(valuesOf(refused.data)).toMatchObject({ title: "Standup notes", repeat: "daily" });

    const made = await call(newTask.action, {
      url,
      user: team.member,
      params: params(),
      form: {
        title: "Water the plants",
        status: await statusId("To do"),
        dueOn: "2026-11-27",
        repeat: "weekly",
        every: "1",
        day_FR: "on",
        day_MO: "on",
        monthly: "day",
      },
    });
    expect(made.status).toBe(302);
    expect(await rows("Water the plants")).toMatchObject([
      { status: "To do", due_on: "2026-11-27", recurrence: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR" },
    ]);
  });

  it("completing it on its panel makes the next one, which the board marks as repeating; stop repeating ends the series", async () => {
    const [first] = await rows("Water the plants");
    const taskParams = params({ number: String(first.number) });
    const taskUrl = `${boardUrl()}/tasks/${first.number}`;
    const panel = await call(task.loader, { url: taskUrl, user: team.viewer, params: taskParams });
    expect((panel.data as { task: { recurrence: string } }).task.recurrence).toBe("FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR");

    for (const name of ["In progress", "Done"]) {
      const moved = await call(task.action, {
        url: taskUrl,
        user: team.member,
        params: taskParams,
        form: { intent: "move", status: await statusId(name) },
      });
      expect(moved.status, name).toBe(302);
    }
    const series = await rows("Water the plants");
    expect(series).toMatchObject([
      { status: "Done", due_on: "2026-11-27" },
      { status: "To do", due_on: "2026-11-30", recurrence: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR", successor_id: null },
    ]);
    const cards = cardsOf((await call(board.loader, { url: boardUrl(), user: team.viewer, params: params() })).data);
    expect(cards.find((c) => c.number === series[0].number)?.repeats).toBe(false);
    expect(cards.find((c) => c.number === series[1].number)?.repeats).toBe(true);

    const nextParams = params({ number: String(series[1].number) });
    const nextUrl = `${boardUrl()}/tasks/${series[1].number}`;
    const viewer = await call(task.action, {
      url: nextUrl,
      user: team.viewer,
      params: nextParams,
      form: { intent: "stop-repeating" },
    });
    expect(viewer.status).toBe(403);
    const stopped = await call(task.action, {
      url: nextUrl,
      user: team.member,
      params: nextParams,
      form: { intent: "stop-repeating" },
    });
    expect(stopped.status).toBe(302);
    expect((await rows("Water the plants"))[1].recurrence).toBeNull();
  });

  it("the panel's editor keeps a rule, changes it, and \"Doesn't repeat\" clears it", async () => {
    const [, second] = await rows("Water the plants");
    const taskParams = params({ number: String(second.number) });
    const url = `${boardUrl()}/tasks/${second.number}`;
    const save = (form: Record<string, string>) =>
      call(task.action, {
        url,
        user: team.member,
        params: taskParams,
        form: { intent: "update", title: "Water the plants", dueOn: "2026-11-30", ...form },
      });
    expect((await save({ repeat: "monthly", every: "2", monthly: "last" })).status).toBe(302);
    expect((await rows("Water the plants"))[1].recurrence).toBe("FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-1");
    const noDate = await save({ repeat: "yearly", dueOn: "" });
    expect(noDate.status).toBe(400);
    expect(errorsOf(noDate.data).repeat).toBe("A repeating task needs a due date.");
    expect((await save({ repeat: "never" })).status).toBe(302);
    expect((await rows("Water the plants"))[1].recurrence).toBeNull();
  });

  describe("the series ends at 2100-12-31, the last date a task can have (issue 35 L1)", () => {
    /** A repeating task in To do, straight into the table. */
    async function repeating(title: string, dueOn: string, rule: string) {
      const { rows } = await stack.db.query<{ id: string; number: number }>(
        `insert into tasks (project_id, title, status_id, due_on, recurrence) values ($1, $2, $3, $4, $5)
         returning id, number`,
        [team.projectId, title, await statusId("To do"), dueOn, rule],
      );
      return rows[0];
    }

    it("completing one whose next date would fall later completes it, makes no successor and ends its rule", async () => {
      // yearly on 29 February every 99 years: the next one would be 2195-02-28
      const leap = await repeating("Leap century", "2096-02-29", "FREQ=YEARLY;INTERVAL=99;BYMONTH=2;BYMONTHDAY=29");
      const done = await call(task.action, {
        url: `${boardUrl()}/tasks/${leap.number}`,
        user: team.member,
        params: params({ number: String(leap.number) }),
        form: { intent: "move", status: await statusId("Done") },
      });
      expect(done.status).toBe(302);
      expect(await rows("Leap century")).toMatchObject([
        { status: "Done", due_on: "2096-02-29", recurrence: null, successor_id: null },
      ]);
      const cards = cardsOf((await call(board.loader, { url: boardUrl(), user: team.viewer, params: params() })).data);
      expect(cards.find((c) => c.number === leap.number)?.repeats).toBe(false);
    });

    it("a bulk status edit with such a task among others completes them all; the others go on", async () => {
      const ids = [
        (await repeating("Daily till the end", "2100-12-31", "FREQ=DAILY;INTERVAL=1")).id,
        (await repeating("Weekly standup", "2026-12-07", "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO")).id,
        (await repeating("Monthly invoice", "2100-11-30", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1")).id,
      ];
      const result = await call(list.action, {
        url: `${boardUrl()}/list`,
        user: team.member,
        params: params(),
        form: [
          ["intent", "bulk"],
          ...ids.map((id) => ["ids", id] as [string, string]),
          ["change", "status"],
          ["status", await statusId("Done")],
        ],
      });
      // the list answers the bulk edit in place (issue 42 §7)
      expect(result.status).toBe(200);
      expect(await rows("Daily till the end")).toMatchObject([
        { status: "Done", due_on: "2100-12-31", recurrence: null, successor_id: null },
      ]);
      expect(await rows("Weekly standup")).toMatchObject([
        { status: "Done", due_on: "2026-12-07" },
        { status: "To do", due_on: "2026-12-14", recurrence: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO" },
      ]);
      expect(await rows("Monthly invoice")).toMatchObject([
        { status: "Done", due_on: "2100-11-30" },
        { status: "To do", due_on: "2100-12-31", recurrence: "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1" },
      ]);
    });
  });
});
