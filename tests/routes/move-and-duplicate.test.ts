import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam, type RouteUser } from "./support.ts";

/**
 * Move and duplicate through the app (issue 39; docs/product.md §18): the Move page's plain form
 * posts (no JavaScript), a clear message for bad input with what was typed kept, the old address
 * answering 301 with the new one, and WEB-2 in a description leading to where the task is now.
 */
let stack: TestStack;
let team: RouteTeam;
let opsId: string;
let movePage: typeof import("~/routes/teams.$team.projects.$key_.tasks.$number.move");
let taskPage: typeof import("~/routes/teams.$team.projects.$key.tasks.$number");
let searchPage: typeof import("~/routes/search");
let activityPage: typeof import("~/routes/teams.$team.activity");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  const { rows } = await stack.db.query<{ id: string }>(
    "insert into projects (team_id, key, name) values ($1, 'OPS', 'Operations') returning id",
    [team.id],
  );
  opsId = rows[0].id;
  await stack.db.query("update tasks set description = 'Waits for WEB-2.' where id = $1", [team.taskIds[0]]);
  movePage = await import("~/routes/teams.$team.projects.$key_.tasks.$number.move");
  taskPage = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  searchPage = await import("~/routes/search");
  activityPage = await import("~/routes/teams.$team.activity");
});
afterAll(() => stack?.close());

const params = (key: string, number: number) => ({ team: team.slug, key, number: String(number) });
const taskUrl = (key: string, number: number) => `/teams/${team.slug}/projects/${key}/tasks/${number}`;
const openMove = (user: RouteUser, search = "") =>
  call(movePage.loader, { url: `${taskUrl("WEB", 2)}/move${search}`, user, params: params("WEB", 2) });
const post = (user: RouteUser, form: Record<string, string>, number = 2) =>
  call(movePage.action, { url: `${taskUrl("WEB", number)}/move`, user, params: params("WEB", number), form });
const openTask = (user: RouteUser, key: string, number: number, search = "") =>
  call(taskPage.loader, { url: `${taskUrl(key, number)}${search}`, user, params: params(key, number) });

describe("moving a task in the app", () => {
  it("without JavaScript: choose the project, then its status; refused input says why and keeps it", async () => {
    const first = await openMove(team.member);
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ ref: "WEB-2", move: null, others: [{ key: "OPS" }] });
    const chosen = await openMove(team.member, "?to=ops");
    const move = (chosen.data as { move: { target: { key: string }; suggested: string; statuses: unknown[] } }).move;
    // WEB-2 is in To do: the same status is suggested in OPS
    const [todo] = (
      await stack.db.query<{ id: string }>("select id from project_statuses where project_id = $1 and name = 'To do'", [
        opsId,
      ])
    ).rows;
    expect(move).toMatchObject({ target: { key: "OPS" }, suggested: todo.id });
    expect(move.statuses).toHaveLength(5);

    // a viewer may not; another team's person doesn't find the task
    expect((await openMove(team.viewer)).status).toBe(403);
    expect((await post(team.viewer, { intent: "move", project: opsId, status: todo.id })).status).toBe(403);
    expect((await openMove(team.outsider)).status).toBe(404);
    // no project, or its own: 400 with the message and the form as it was
    const wrong = await post(team.member, { intent: "move", project: team.projectId, status: todo.id });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      intent: "move",
      errors: { project: "Choose another project of this team." },
      values: { project: team.projectId, status: todo.id },
    });
    // a status of another project (a stale page)
    const [webDone] = (
      await stack.db.query<{ id: string }>("select id from project_statuses where project_id = $1 and name = 'Done'", [
        team.projectId,
      ])
    ).rows;
    const stale = await post(team.member, { intent: "move", project: opsId, status: webDone.id });
    expect(stale.status).toBe(400);
    expect(stale.data).toMatchObject({
      errors: { status: "That status isn't one of this project's. Reload the page to see its statuses." },
    });

    const moved = await post(team.member, { intent: "move", project: opsId, status: todo.id });
    expect(moved.status).toBe(302);
    expect(moved.location).toBe(taskUrl("OPS", 1));
    expect((await openTask(team.member, "OPS", 1)).status).toBe(200);
  });

  it("the old address redirects to the new one for good, and WEB-2 in text leads there", async () => {
    const old = await openTask(team.member, "WEB", 2, "?tab=activity");
    expect(old.status).toBe(301);
    expect(old.location).toBe(`${taskUrl("OPS", 1)}?tab=activity`);
    // who can't see the task gets the 404 of any unknown task
    expect((await openTask(team.outsider, "WEB", 2)).status).toBe(404);
    expect((await openTask(team.member, "WEB", 9)).status).toBe(404);
    // searching for a key opens the task: its old one too
    const search = (user: RouteUser, q: string) =>
      call(searchPage.loader, { url: `/search?q=${encodeURIComponent(q)}`, user, params: {} });
    expect((await search(team.member, "web-2")).location).toBe(taskUrl("OPS", 1));
    expect((await search(team.member, "WEB-1")).location).toBe(taskUrl("WEB", 1));
    expect((await search(team.outsider, "WEB-2")).status).toBe(200); // a search like any other
    // the team's activity: the move named in each project, the old key leading to the task
    const activity = await call(activityPage.loader, {
      url: `/teams/${team.slug}/activity`,
      user: team.member,
      params: { team: team.slug },
    });
    const lines = (activity.data as { events: Array<{ ref: string; path: string | null; what: string }> }).events;
    // both events are written in one transaction, at one time: the page's order between them is the ids'
    const moves = lines.filter((e) => e.what.includes("from Website to Operations"));
    expect(moves.sort((a, b) => a.ref.localeCompare(b.ref))).toEqual([
      expect.objectContaining({ ref: "OPS-1", path: taskUrl("OPS", 1) }),
      expect.objectContaining({ ref: "WEB-2", path: taskUrl("WEB", 2) }),
    ]);
    const web1 = await openTask(team.member, "WEB", 1);
    expect((web1.data as { descriptionHtml: string }).descriptionHtml).toContain(`href="${taskUrl("OPS", 1)}"`);
  });
});

describe("duplicating a task in the app", () => {
  it("makes a copy titled as typed; an empty title is refused with the form kept", async () => {
    const empty = await post(team.member, { intent: "duplicate", title: "  ", project: team.projectId }, 1);
    expect(empty.status).toBe(400);
    expect(empty.data).toMatchObject({
      errors: { title: "A title has 1 to 200 characters." },
      values: { project: team.projectId },
    });
    const copied = await post(
      team.member,
      { intent: "duplicate", title: "Copy of Plan the sprint", project: team.projectId },
      1,
    );
    expect(copied.status).toBe(302);
    // WEB-2 moved away; numbers are never handed out twice
    expect(copied.location).toBe(taskUrl("WEB", 3));
    const { rows } = await stack.db.query<{ title: string; description: string }>(
      "select title, description from tasks where project_id = $1 and number = 3",
      [team.projectId],
    );
    expect(rows).toEqual([{ title: "Copy of Plan the sprint", description: "Waits for WEB-2." }]);
  });
});
