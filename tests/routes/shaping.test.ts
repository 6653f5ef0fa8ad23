import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

/**
 * The pages and forms of issue 24 (docs/product.md §11, §16), called as the
 * app's server calls them: a project's settings page (statuses), the team's
 * labels page, and a task's checklist, sub-tasks and relations. Each refusal
 * reads in the app's own words, with what was typed kept.
 */
const FORBIDDEN = "Your role in this team doesn't allow that.";

let stack: TestStack;
let team: RouteTeam;
let settings: typeof import("~/routes/teams.$team.projects.$key_.settings");
let labels: typeof import("~/routes/teams.$team.labels");
let checklist: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.checklist");
let subtasks: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.subtasks");
let relations: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.relations");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  settings = await import("~/routes/teams.$team.projects.$key_.settings");
  labels = await import("~/routes/teams.$team.labels");
  checklist = await import("~/routes/teams.$team.projects.$key.tasks.$number.checklist");
  subtasks = await import("~/routes/teams.$team.projects.$key.tasks.$number.subtasks");
  relations = await import("~/routes/teams.$team.projects.$key.tasks.$number.relations");
});
afterAll(() => stack?.close());

const boardUrl = () => `/teams/${team.slug}/projects/WEB`;
const params = (extra: Record<string, string> = {}) => ({ team: team.slug, key: "WEB", ...extra });
const errorsOf = (data: unknown) => (data as { errors: Record<string, string> }).errors;
async function statuses() {
  const { rows } = await stack.db.query<{ id: string; name: string; wip_limit: number | null; tasks: number }>(
    `select s.id, s.name, s.wip_limit, (select count(*)::int from tasks t where t.status_id = s.id) as tasks
     from project_statuses s where s.project_id = $1 order by s.position`,
    [team.projectId],
  );
  return rows;
}

describe("the project's settings page (statuses)", () => {
  const url = () => `${boardUrl()}/settings`;
  const post = (user: RouteTeam["admin"], form: Record<string, string>) =>
    call(settings.action, { url: url(), user, params: params(), form });

  it("opens for admins and the owner only", async () => {
    const seen = await call(settings.loader, { url: url(), user: team.admin, params: params() });
    expect(seen.status).toBe(200);
    expect((seen.data as { statuses: Array<{ name: string }> }).statuses.map((s) => s.name)).toEqual([
      "Backlog",
      "To do",
      "In progress",
      "Done",
      "Canceled",
    ]);
    expect((await call(settings.loader, { url: url(), user: team.member, params: params() })).status).toBe(403);
    expect((await call(settings.loader, { url: url(), user: team.outsider, params: params() })).status).toBe(404);
  });

  it("adds, renames, limits, reorders and removes a status, moving its tasks in the same step", async () => {
    const added = await post(team.admin, {
      intent: "add-status",
      name: "Review",
      category: "started",
      color: "purple",
      wipLimit: "2",
    });
    expect(added.status).toBe(302);
    const review = (await statuses()).find((s) => s.name === "Review")!;
    expect(review.wip_limit).toBe(2);

    const clash = await post(team.admin, { intent: "add-status", name: " review", category: "started", color: "red" });
    expect(clash.status).toBe(400);
    expect(clash.data).toMatchObject({
      errors: { name: "That name is taken in this project." },
      values: { name: " review", color: "red" },
    });
    const badLimit = await post(team.admin, {
      intent: "edit-status",
      statusId: review.id,
      name: "Review",
      color: "purple",
      wipLimit: "1000",
    });
    expect(errorsOf(badLimit.data).wipLimit).toBe("A WIP limit is a whole number from 1 to 999.");

    expect(
      (
        await post(team.admin, {
          intent: "edit-status",
          statusId: review.id,
          name: "Code review",
          color: "teal",
          wipLimit: "",
        })
      ).status,
    ).toBe(302);
    expect((await post(team.admin, { intent: "move-status", statusId: review.id, position: "1" })).status).toBe(302);
    expect((await statuses()).map((s) => s.name)).toEqual([
      "Backlog",
      "Code review",
      "To do",
      "In progress",
      "Done",
      "Canceled",
    ]);

    // "To do" holds a task: it asks where it goes, then moves it and goes
    const todo = (await statuses()).find((s) => s.name === "To do")!;
    expect(todo.tasks).toBe(1);
    const unsaid = await post(team.admin, { intent: "remove-status", statusId: todo.id, moveTo: "" });
    expect(unsaid.status).toBe(400);
    expect(errorsOf(unsaid.data).moveTo).toBe("Choose the status its tasks move to.");
    // and the last "not started" status can't go, wherever its tasks would
    const last = await post(team.admin, { intent: "remove-status", statusId: todo.id, moveTo: review.id });
    expect(errorsOf(last.data).moveTo).toBe("A project needs at least one open and one done status, and at most 12.");
    await post(team.admin, { intent: "add-status", name: "Ready", category: "unstarted", color: "blue" });
    const removed = await post(team.admin, { intent: "remove-status", statusId: todo.id, moveTo: review.id });
    expect(removed.status).toBe(302);
    const after = await statuses();
    expect(after.map((s) => s.name)).toEqual(["Backlog", "Code review", "In progress", "Done", "Canceled", "Ready"]);
    expect(after.find((s) => s.id === review.id)!.tasks).toBe(1);
  });

  it("refuses a member (403, values kept) and anyone in an archived project", async () => {
    const member = await post(team.member, { intent: "add-status", name: "Mine", category: "started", color: "red" });
    expect(member.status).toBe(403);
    expect(member.data).toMatchObject({ errors: { form: FORBIDDEN }, values: { name: "Mine" } });
    await stack.db.query("update projects set archived_at = now() where id = $1", [team.projectId]);
    try {
      const archived = await post(team.admin, {
        intent: "add-status",
        name: "Late",
        category: "started",
        color: "red",
      });
      expect(archived.status).toBe(400);
      expect(errorsOf(archived.data).form).toBe("This project is archived; its tasks are read-only.");
    } finally {
      await stack.db.query("update projects set archived_at = null where id = $1", [team.projectId]);
    }
  });
});

describe("the team's labels page", () => {
  const url = () => `/teams/${team.slug}/labels`;
  const post = (user: RouteTeam["admin"], form: Record<string, string>) =>
    call(labels.action, { url: url(), user, params: { team: team.slug }, form });

  it("members create labels, a name twice (any capitals) is refused, admins rename and delete, viewers do neither", async () => {
    expect((await post(team.member, { intent: "create-label", name: "Customer", color: "pink" })).status).toBe(302);
    const twice = await post(team.member, { intent: "create-label", name: "customer", color: "red" });
    expect(twice.status).toBe(400);
    expect(twice.data).toMatchObject({ errors: { name: "That label exists already." }, values: { name: "customer" } });
    expect((await post(team.viewer, { intent: "create-label", name: "Nope", color: "red" })).status).toBe(403);

    const listed = await call(labels.loader, { url: url(), user: team.viewer, params: { team: team.slug } });
    const [customer] = (listed.data as { labels: Array<{ id: string; name: string; tasks: number }> }).labels;
    expect(customer).toMatchObject({ name: "Customer", tasks: 0 });
    expect(
      (await post(team.member, { intent: "edit-label", labelId: customer.id, name: "Client", color: "pink" })).status,
    ).toBe(403);
    expect(
      (await post(team.admin, { intent: "edit-label", labelId: customer.id, name: "Client", color: "teal" })).status,
    ).toBe(302);
    expect((await post(team.member, { intent: "delete-label", labelId: customer.id })).status).toBe(403);
    expect((await post(team.admin, { intent: "delete-label", labelId: customer.id })).status).toBe(302);
    expect((await call(labels.loader, { url: url(), user: team.outsider, params: { team: team.slug } })).status).toBe(
      404,
    );
  });
});

describe("a task's checklist, sub-tasks and relations", () => {
  const taskUrl = (n: number, part: string) => `${boardUrl()}/tasks/${n}/${part}`;

  it("adds, ticks, moves and removes checklist items; a viewer may not", async () => {
    const add = (title: string) =>
      call(checklist.action, {
        url: taskUrl(1, "checklist"),
        user: team.member,
        params: params({ number: "1" }),
        form: { intent: "add-item", title },
      });
    expect((await add("Draft")).location).toBe(`${boardUrl()}/tasks/1`);
    await add("Review");
    expect(errorsOf((await add("   ")).data).title).toBe("Write the item.");
    const { rows } = await stack.db.query<{ id: string; title: string }>(
      "select id, title from checklist_items where task_id = $1 order by position",
      [team.taskIds[0]],
    );
    const ticked = await call(checklist.action, {
      url: taskUrl(1, "checklist"),
      user: team.member,
      params: params({ number: "1" }),
      form: { intent: "tick-item", itemId: rows[0].id, done: "true" },
    });
    expect(ticked.status).toBe(302);
    await call(checklist.action, {
      url: taskUrl(1, "checklist"),
      user: team.member,
      params: params({ number: "1" }),
      form: { intent: "move-item", itemId: rows[1].id, position: "0" },
    });
    const after = await stack.db.query<{ title: string; done: boolean }>(
      "select title, done from checklist_items where task_id = $1 order by position",
      [team.taskIds[0]],
    );
    expect(after.rows).toEqual([
      { title: "Review", done: false },
      { title: "Draft", done: true },
    ]);
    const viewer = await call(checklist.action, {
      url: taskUrl(1, "checklist"),
      user: team.viewer,
      params: params({ number: "1" }),
      form: { intent: "remove-item", itemId: rows[0].id },
    });
    expect(viewer.status).toBe(403);
  });

  it("adds a sub-task by title under its parent, never under a sub-task", async () => {
    const made = await call(subtasks.action, {
      url: taskUrl(1, "subtasks"),
      user: team.member,
      params: params({ number: "1" }),
      form: { intent: "add-subtask", title: "Book a projector" },
    });
    expect(made.status).toBe(302);
    const { rows } = await stack.db.query<{ number: number }>(
      "select number from tasks where parent_id = $1 and title = 'Book a projector'",
      [team.taskIds[0]],
    );
    expect(rows).toHaveLength(1);
    const nested = await call(subtasks.action, {
      url: taskUrl(rows[0].number, "subtasks"),
      user: team.member,
      params: params({ number: String(rows[0].number) }),
      form: { intent: "add-subtask", title: "Deeper" },
    });
    expect(nested.status).toBe(400);
    expect(errorsOf(nested.data).title).toBe("A sub-task can't have sub-tasks of its own.");
  });

  it("relates tasks by their reference from either side, in the app's words when the database says no", async () => {
    const relate = (n: number, relation: string, other: string) =>
      call(relations.action, {
        url: taskUrl(n, "relations"),
        user: team.member,
        params: params({ number: String(n) }),
        form: { intent: "add-relation", relation, other },
      });
    expect((await relate(2, "blocked-by", "web-1")).status).toBe(302);
    const { rows } = await stack.db.query<{ from_number: number; to_number: number }>(
      `select f.number as from_number, t.number as to_number
       from task_relations r join tasks f on f.id = r.from_task_id join tasks t on t.id = r.to_task_id
       where r.kind = 'blocks' and t.project_id = $1`,
      [team.projectId],
    );
    expect(rows).toEqual([{ from_number: 1, to_number: 2 }]);
    expect(errorsOf((await relate(2, "blocks", "WEB-1")).data).other).toBe("A task can't block a task that blocks it.");
    expect(errorsOf((await relate(1, "blocks", "WEB-2")).data).other).toBe("Those tasks are already related that way.");
    expect(errorsOf((await relate(1, "relates", "WEB-1")).data).other).toBe("A task can't be related to itself.");
    expect(errorsOf((await relate(1, "relates", "WEB-999")).data).other).toBe("There's no task WEB-999 in this team.");
    expect(errorsOf((await relate(1, "relates", "twelve")).data).other).toBe("Enter the other task, like WEB-12.");
  });

  it("refuses a loop of blocks through other tasks in the app's words, keeping what was typed (issue 35 L6)", async () => {
    const { rows } = await stack.db.query<{ number: number }>(
      "insert into tasks (project_id, title) values ($1, 'Loop A'), ($1, 'Loop B'), ($1, 'Loop C') returning number",
      [team.projectId],
    );
    const [a, b, c] = rows.map((r) => r.number);
    const relate = (n: number, relation: string, other: number) =>
      call(relations.action, {
        url: taskUrl(n, "relations"),
        user: team.member,
        params: params({ number: String(n) }),
        form: { intent: "add-relation", relation, other: `WEB-${other}` },
      });
    expect((await relate(a, "blocks", b)).status).toBe(302);
    expect((await relate(c, "blocked-by", b)).status).toBe(302);
    for (const [n, relation, other] of [
      [c, "blocks", a],
      [a, "blocked-by", c],
    ] as const) {
      const refused = await relate(n, relation, other);
      expect(refused.status).toBe(400);
      expect(errorsOf(refused.data).other).toBe("Those tasks would block each other in a loop.");
      expect((refused.data as { values: Record<string, string> }).values).toMatchObject({
        relation,
        other: `WEB-${other}`,
      });
    }
  });
});
