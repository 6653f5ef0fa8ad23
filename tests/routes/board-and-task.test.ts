import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

const FORBIDDEN = "Your role in this team doesn't allow that.";
const ARCHIVED = "This project is archived; its tasks are read-only.";

let stack: TestStack;
let team: RouteTeam;
let board: typeof import("~/routes/teams.$team.projects.$key");
let task: typeof import("~/routes/teams.$team.projects.$key.tasks.$number");
let comments: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
let newTask: typeof import("~/routes/teams.$team.projects.$key.tasks.new");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  board = await import("~/routes/teams.$team.projects.$key");
  task = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  comments = await import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
  newTask = await import("~/routes/teams.$team.projects.$key.tasks.new");
});
afterAll(() => stack?.close());

const boardUrl = () => `/teams/${team.slug}/projects/WEB`;
const params = (extra: Record<string, string> = {}) => ({ team: team.slug, key: "WEB", ...extra });
const errorsOf = (data: unknown) => (data as { errors: Record<string, string> }).errors;
const valuesOf = (data: unknown) => (data as { values: Record<string, string> }).values;
const statusOf = async (id: string) =>
  (
    await stack
      .adminClient()
      .from("tasks")
      .select("status, title")
      .eq("id", id)
      .single<{ status: string; title: string }>()
  ).data;

describe("the board", () => {
  it("loads for a member with its columns and what the role may do; 404 for an outsider; a redirect to log in for nobody", async () => {
    const seen = await call(board.loader, { url: boardUrl(), user: team.viewer, params: params() });
    expect(seen.status).toBe(200);
    const data = seen.data as {
      columns: Array<{ status: string; tasks: Array<{ title: string }> }>;
      can: Record<string, boolean>;
    };
    expect(data.columns.find((c) => c.status === "todo")?.tasks.map((t) => t.title)).toEqual(["Book the room"]);
    expect(data.can).toMatchObject({ editTasks: false, manageProjects: false });
    expect((await call(board.loader, { url: boardUrl(), user: team.outsider, params: params() })).status).toBe(404);
    const anonymous = await call(board.loader, { url: boardUrl(), user: null, params: params() });
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(boardUrl())}`);
  });

  it("moves a card (the drag and drop's fetcher): done, refused for a viewer, an illegal transition, a bad place, an unknown intent", async () => {
    const [first] = team.taskIds;
    const moved = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: first, status: "todo", position: "0" },
    });
    expect(moved).toMatchObject({ status: 200, data: { intent: "move", ok: true } });
    expect((await statusOf(first))?.status).toBe("todo");

    const viewer = await call(board.action, {
      url: boardUrl(),
      user: team.viewer,
      params: params(),
      form: { intent: "move", taskId: first, status: "backlog", position: "0" },
    });
    expect(viewer.status).toBe(403);
    expect(errorsOf(viewer.data).form).toBe(FORBIDDEN);

    const illegal = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: first, status: "done", position: "0" },
    });
    expect(illegal.status).toBe(400);
    expect(errorsOf(illegal.data).form).toBe("A task can't move from todo to done.");

    const badPlace = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: first, status: "todo", position: "-3" },
    });
    expect(badPlace.status).toBe(400);
    expect(errorsOf(badPlace.data).position).toBeTruthy();

    expect(
      (await call(board.action, { url: boardUrl(), user: team.member, params: params(), form: { intent: "explode" } }))
        .status,
    ).toBe(404);
    expect((await statusOf(first))?.status).toBe("todo");
  });

  it("archives and unarchives for an admin, refuses a member, and an archived project refuses moves and new tasks", async () => {
    const member = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "archive" },
    });
    expect(member.status).toBe(403);

    const archived = await call(board.action, {
      url: boardUrl(),
      user: team.admin,
      params: params(),
      form: { intent: "archive" },
    });
    expect(archived).toMatchObject({ status: 200, data: { intent: "archive", ok: true } });

    const move = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: team.taskIds[1], status: "todo", position: "0" },
    });
    expect(move.status).toBe(400);
    expect(errorsOf(move.data).form).toBe(ARCHIVED);
    const create = await call(newTask.action, {
      url: `${boardUrl()}/tasks/new`,
      user: team.member,
      params: params(),
      form: { title: "Too late" },
    });
    expect(create.status).toBe(400);
    expect(errorsOf(create.data).form).toBe(ARCHIVED);
    expect(valuesOf(create.data).title).toBe("Too late");
    expect(
      (await call(newTask.loader, { url: `${boardUrl()}/tasks/new`, user: team.member, params: params() })).status,
    ).toBe(400);

    const active = await call(board.action, {
      url: boardUrl(),
      user: team.admin,
      params: params(),
      form: { intent: "unarchive" },
    });
    expect(active).toMatchObject({ status: 200, data: { intent: "unarchive", ok: true } });
  });
});

describe("a new task", () => {
  it("is created and opened, keeping the board's filters; a missing title comes back with the values; a viewer gets 403", async () => {
    const url = `${boardUrl()}/tasks/new?assignee=me`;
    const created = await call(newTask.action, {
      url,
      user: team.member,
      params: params(),
      form: { title: "Write the launch post", labels: "launch, copy", status: "todo" },
    });
    expect(created.status).toBe(302);
    expect(created.location).toMatch(new RegExp(`^${boardUrl()}/tasks/\\d+\\?assignee=me$`));

    const invalid = await call(newTask.action, {
      url,
      user: team.member,
      params: params(),
      form: { title: " ", labels: "a, b", dueOn: "2099-02-30" },
    });
    expect(invalid.status).toBe(400);
    expect(errorsOf(invalid.data)).toMatchObject({
      title: "Enter a title.",
      dueOn: "Enter a real date between 2000-01-01 and 2100-12-31.",
    });
    expect(valuesOf(invalid.data)).toMatchObject({ labels: "a, b", dueOn: "2099-02-30" });

    const viewer = await call(newTask.action, { url, user: team.viewer, params: params(), form: { title: "Sneaky" } });
    expect(viewer.status).toBe(403);
    expect((await call(newTask.loader, { url, user: team.viewer, params: params() })).status).toBe(403);
  });
});

describe("the task panel", () => {
  const taskUrl = (n = 2, search = "") => `${boardUrl()}/tasks/${n}${search}`;

  it("loads the task with its comments; 404 for a task that doesn't exist", async () => {
    const loaded = await call(task.loader, { url: taskUrl(), user: team.viewer, params: params({ number: "2" }) });
    expect(loaded.status).toBe(200);
    expect((loaded.data as { task: { title: string } }).task.title).toBe("Book the room");
    expect(
      (await call(task.loader, { url: taskUrl(999), user: team.member, params: params({ number: "999" }) })).status,
    ).toBe(404);
    expect(
      (await call(task.loader, { url: taskUrl(1), user: team.member, params: params({ number: "x1" }) })).status,
    ).toBe(404);
  });

  it("saves the fields (back to the task, filters kept), and a rejected edit says why beside the field", async () => {
    const saved = await call(task.action, {
      url: taskUrl(2, "?q=room"),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "update", title: "Book the big room", priority: "high" },
    });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`${taskUrl(2)}?q=room`);
    expect((await statusOf(team.taskIds[1]))?.title).toBe("Book the big room");

    const rejected = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "update", title: "", priority: "extreme" },
    });
    expect(rejected.status).toBe(400);
    expect(rejected.data).toMatchObject({
      intent: "update",
      errors: { title: "Enter a title.", priority: "Choose a priority." },
      values: { priority: "extreme" },
    });

    const outsiderAssignee = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "update", title: "Book the big room", assignee: team.outsider.id },
    });
    expect(outsiderAssignee.status).toBe(400);
    expect(errorsOf(outsiderAssignee.data).assignee).toBeTruthy();
  });

  it("moves with the plain form (places count from 1), and refuses an illegal transition", async () => {
    const moved = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "move", status: "in_progress", position: "1" },
    });
    expect(moved.status).toBe(302);
    expect((await statusOf(team.taskIds[1]))?.status).toBe("in_progress");
    const illegal = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "move", status: "backlog", position: "" },
    });
    expect(illegal.status).toBe(400);
    expect(illegal.data).toMatchObject({
      intent: "move",
      errors: { status: "A task can't move from in_progress to backlog." },
    });
  });

  it("refuses a viewer any write (403 with the values) and a member the delete; an admin deletes and goes back to the board", async () => {
    const viewer = await call(task.action, {
      url: taskUrl(),
      user: team.viewer,
      params: params({ number: "2" }),
      form: { intent: "update", title: "Sneaky edit" },
    });
    expect(viewer.status).toBe(403);
    expect(viewer.data).toMatchObject({
      intent: "update",
      errors: { form: FORBIDDEN },
      values: { title: "Sneaky edit" },
    });

    const member = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "delete-task" },
    });
    expect(member.status).toBe(403);
    expect(
      (
        await call(task.action, {
          url: taskUrl(),
          user: team.member,
          params: params({ number: "2" }),
          form: { intent: "rename" },
        })
      ).status,
    ).toBe(404);

    const deleted = await call(task.action, {
      url: taskUrl(2, "?label=x"),
      user: team.admin,
      params: params({ number: "2" }),
      form: { intent: "delete-task" },
    });
    expect(deleted.status).toBe(302);
    expect(deleted.location).toBe(`${boardUrl()}?label=x`);
    expect(await statusOf(team.taskIds[1])).toBeNull();
  });
});

describe("comments (their own route)", () => {
  const url = (search = "") => `${boardUrl()}/tasks/1/comments${search}`;
  const p = () => params({ number: "1" });
  const commentsOn = async () =>
    (
      await stack
        .adminClient()
        .from("comments")
        .select("id, body, author_id")
        .eq("task_id", team.taskIds[0])
        .order("created_at")
    ).data as Array<{ id: string; body: string; author_id: string }>;

  it("posts, edits and deletes; each answers with the task's page", async () => {
    const posted = await call(comments.action, {
      url: url("?q=plan"),
      user: team.member,
      params: p(),
      form: { intent: "comment", body: "  Draft is in the doc.  " },
    });
    expect(posted.status).toBe(302);
    expect(posted.location).toBe(`${boardUrl()}/tasks/1?q=plan`);
    const [comment] = await commentsOn();
    expect(comment.body).toBe("Draft is in the doc.");

    const cursor = "2025-01-01T00:00:00Z_00000000-0000-4000-8000-000000000001";
    const edited = await call(comments.action, {
      url: url(`?timeline.before=${cursor}`),
      user: team.member,
      params: p(),
      form: { intent: "edit-comment", commentId: comment.id, body: "Draft is in the shared doc." },
    });
    expect(edited.status).toBe(302);
    expect(edited.location).toBe(`${boardUrl()}/tasks/1?${new URLSearchParams({ "timeline.before": cursor })}`);
    expect((await commentsOn())[0].body).toBe("Draft is in the shared doc.");

    const deleted = await call(comments.action, {
      url: url(),
      user: team.member,
      params: p(),
      form: { intent: "delete-comment", commentId: comment.id },
    });
    expect(deleted.status).toBe(302);
    expect(await commentsOn()).toHaveLength(0);
  });

  it("refuses an empty comment and an empty edit beside the field, another's comment, a viewer, and a malformed delete", async () => {
    const empty = await call(comments.action, {
      url: url(),
      user: team.member,
      params: p(),
      form: { intent: "comment", body: "   " },
    });
    expect(empty.status).toBe(400);
    expect(empty.data).toMatchObject({ intent: "comment", errors: { body: "Write a comment." } });

    await call(comments.action, {
      url: url(),
      user: team.member,
      params: p(),
      form: { intent: "comment", body: "Mine." },
    });
    const [mine] = await commentsOn();
    const emptyEdit = await call(comments.action, {
      url: url(),
      user: team.member,
      params: p(),
      form: { intent: "edit-comment", commentId: mine.id, body: "" },
    });
    expect(emptyEdit.status).toBe(400);
    expect(emptyEdit.data).toMatchObject({
      intent: "edit-comment",
      errors: { body: "Write a comment." },
      values: { commentId: mine.id },
    });

    const notTheirs = await call(comments.action, {
      url: url(),
      user: team.admin,
      params: p(),
      form: { intent: "edit-comment", commentId: mine.id, body: "Rewritten" },
    });
    expect(notTheirs.status).toBe(403);
    expect((await commentsOn())[0].body).toBe("Mine.");

    const viewer = await call(comments.action, {
      url: url(),
      user: team.viewer,
      params: p(),
      form: { intent: "comment", body: "hi" },
    });
    expect(viewer.status).toBe(403);
    expect(errorsOf(viewer.data).form).toBe(FORBIDDEN);

    expect(
      (
        await call(comments.action, {
          url: url(),
          user: team.member,
          params: p(),
          form: { intent: "delete-comment", commentId: "nope" },
        })
      ).status,
    ).toBe(404);
    // an admin may delete anyone's comment
    expect(
      (
        await call(comments.action, {
          url: url(),
          user: team.admin,
          params: p(),
          form: { intent: "delete-comment", commentId: mine.id },
        })
      ).status,
    ).toBe(302);
  });
});
