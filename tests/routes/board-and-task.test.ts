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
let trash: typeof import("~/routes/teams.$team.projects.$key_.trash");
let archivedPage: typeof import("~/routes/teams.$team.projects.$key_.archived");
let search: typeof import("~/routes/search");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  board = await import("~/routes/teams.$team.projects.$key");
  task = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  comments = await import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
  newTask = await import("~/routes/teams.$team.projects.$key.tasks.new");
  trash = await import("~/routes/teams.$team.projects.$key_.trash");
  archivedPage = await import("~/routes/teams.$team.projects.$key_.archived");
  search = await import("~/routes/search");
  const { rows } = await stack.db.query<{ name: string; id: string }>(
    "select name, id from project_statuses where project_id = $1",
    [team.projectId],
  );
  S = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  const ops = await stack.db.query<{ id: string }>(
    "insert into projects (team_id, key, name) values ($1, 'OPS', 'Ops') returning id",
    [team.id],
  );
  elsewhere = (
    await stack.db.query<{ id: string }>("select id from project_statuses where project_id = $1 and name = 'Done'", [
      ops.rows[0].id,
    ])
  ).rows[0].id;
});
afterAll(() => stack?.close());

const boardUrl = () => `/teams/${team.slug}/projects/WEB`;
const params = (extra: Record<string, string> = {}) => ({ team: team.slug, key: "WEB", ...extra });
const errorsOf = (data: unknown) => (data as { errors: Record<string, string> }).errors;
const valuesOf = (data: unknown) => (data as { values: Record<string, string> }).values;
/** The task's status (by name) and title, or null once it's gone. */
const statusOf = async (id: string) => {
  const { rows } = await stack.db.query<{ status: string; title: string }>(
    "select s.name as status, t.title from tasks t join project_statuses s on s.id = t.status_id where t.id = $1",
    [id],
  );
  return rows[0] ?? null;
};
/** The project's status ids by name: Backlog, To do, In progress, Done, Canceled. */
let S: Record<string, string>;
/** a status of another project of the team */
let elsewhere: string;

describe("the board", () => {
  it("loads for a member with its columns and what the role may do; 404 for an outsider; a redirect to log in for nobody", async () => {
    const seen = await call(board.loader, { url: boardUrl(), user: team.viewer, params: params() });
    expect(seen.status).toBe(200);
    const data = seen.data as {
      columns: Array<{ status: { name: string }; tasks: Array<{ title: string }> }>;
      can: Record<string, boolean>;
    };
    expect(data.columns.map((c) => c.status.name)).toEqual(["Backlog", "To do", "In progress", "Done", "Canceled"]);
    expect(data.columns.find((c) => c.status.name === "To do")?.tasks.map((t) => t.title)).toEqual(["Book the room"]);
    expect(data.can).toMatchObject({ editTasks: false, manageProjects: false });
    expect((await call(board.loader, { url: boardUrl(), user: team.outsider, params: params() })).status).toBe(404);
    const anonymous = await call(board.loader, { url: boardUrl(), user: null, params: params() });
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(boardUrl())}`);
  });

  it("moves a card (the drag and drop's fetcher): to any status, refused for a viewer, another project's status, a bad place, an unknown intent", async () => {
    const [first] = team.taskIds;
    const moved = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: first, status: S.Done, position: "0" },
    });
    expect(moved).toMatchObject({ status: 200, data: { intent: "move", ok: true } });
    expect((await statusOf(first))?.status).toBe("Done");
    // back from done to the backlog: every move between statuses is allowed (§4)
    const back = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: first, status: S.Backlog, position: "0" },
    });
    expect(back).toMatchObject({ status: 200, data: { intent: "move", ok: true } });
    await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: first, status: S["To do"], position: "0" },
    });

    const viewer = await call(board.action, {
      url: boardUrl(),
      user: team.viewer,
      params: params(),
      form: { intent: "move", taskId: first, status: S.Backlog, position: "0" },
    });
    expect(viewer.status).toBe(403);
    expect(errorsOf(viewer.data).form).toBe(FORBIDDEN);

    // the database refuses it; the person reads the app's words, not the database's
    const foreign = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: first, status: elsewhere, position: "0" },
    });
    expect(foreign.status).toBe(400);
    expect(errorsOf(foreign.data).form).toBe(
      "That status isn't one of this project's. Reload the page to see its statuses.",
    );

    const badPlace = await call(board.action, {
      url: boardUrl(),
      user: team.member,
      params: params(),
      form: { intent: "move", taskId: first, status: S["To do"], position: "-3" },
    });
    expect(badPlace.status).toBe(400);
    expect(errorsOf(badPlace.data).position).toBeTruthy();

    expect(
      (await call(board.action, { url: boardUrl(), user: team.member, params: params(), form: { intent: "explode" } }))
        .status,
    ).toBe(404);
    expect((await statusOf(first))?.status).toBe("To do");
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
      form: { intent: "move", taskId: team.taskIds[1], status: S["To do"], position: "0" },
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
      form: { title: "Write the launch post", labels: "launch, Copy", status: S["To do"] },
    });
    expect(created.status).toBe(302);
    expect(created.location).toMatch(new RegExp(`^${boardUrl()}/tasks/\\d+\\?assignee=me$`));
    // its labels became the team's labels, and it went to the column asked for
    const { rows } = await stack.db.query<{ status: string; labels: string[] }>(
      `select s.name as status, array(select l.name from task_labels tl join labels l on l.id = tl.label_id
                                      where tl.task_id = t.id order by l.name) as labels
       from tasks t join project_statuses s on s.id = t.status_id where t.title = 'Write the launch post'`,
    );
    expect(rows).toEqual([{ status: "To do", labels: ["Copy", "launch"] }]);

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

  it("moves with the plain form to any status (places count from 1); another project's status is refused in the app's words", async () => {
    const moved = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "move", status: S["In progress"], position: "1" },
    });
    expect(moved.status).toBe(302);
    expect((await statusOf(team.taskIds[1]))?.status).toBe("In progress");
    const back = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "move", status: S.Backlog, position: "" },
    });
    expect(back.status).toBe(302);
    expect((await statusOf(team.taskIds[1]))?.status).toBe("Backlog");
    const foreign = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "move", status: elsewhere, position: "" },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.data).toMatchObject({
      intent: "move",
      errors: { status: "That status isn't one of this project's. Reload the page to see its statuses." },
      values: { status: elsewhere },
    });
  });

  it("saves labels by name: the team's own whatever their capitals, new ones made; more than 10 is refused beside the field", async () => {
    const saved = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "update", title: "Book the big room", labels: "LAUNCH, venue" },
    });
    expect(saved.status).toBe(302);
    const { rows } = await stack.db.query<{ name: string }>(
      `select l.name from task_labels tl join labels l on l.id = tl.label_id where tl.task_id = $1 order by l.name`,
      [team.taskIds[1]],
    );
    expect(rows.map((r) => r.name)).toEqual(["launch", "venue"]);
    const tooMany = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: {
        intent: "update",
        title: "Book the big room",
        labels: Array.from({ length: 11 }, (_, i) => `l${i}`).join(", "),
      },
    });
    expect(tooMany.status).toBe(400);
    expect(errorsOf(tooMany.data).labels).toBe("A task has at most 10 labels.");
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
    // in the trash (docs/product.md §18): off the board, its row kept
    const { rows } = await stack.db.query("select 1 from tasks where id = $1 and deleted_at is not null", [
      team.taskIds[1],
    ]);
    expect(rows).toHaveLength(1);
    const seen = await call(board.loader, { url: boardUrl(), user: team.admin, params: params() });
    const columns = (seen.data as { columns: Array<{ tasks: Array<{ title: string }> }> }).columns;
    expect(columns.flatMap((c) => c.tasks.map((t) => t.title))).not.toContain("Book the big room");
    expect(
      (await call(task.loader, { url: taskUrl(), user: team.admin, params: params({ number: "2" }) })).status,
    ).toBe(404);
  });
});

describe("trash and archived tasks (without JavaScript)", () => {
  const taskUrl = () => `${boardUrl()}/tasks/2`;
  const trashUrl = () => `${boardUrl()}/trash`;
  const archivedUrl = () => `${boardUrl()}/archived`;
  const titlesOnBoard = async () => {
    const seen = await call(board.loader, { url: boardUrl(), user: team.member, params: params() });
    return (seen.data as { columns: Array<{ tasks: Array<{ title: string }> }> }).columns.flatMap((c) =>
      c.tasks.map((t) => t.title),
    );
  };

  it("lists the deleted task for admins; a member may not restore; an admin restores it to the board", async () => {
    const asAdmin = await call(trash.loader, { url: trashUrl(), user: team.admin, params: params() });
    expect(asAdmin.status).toBe(200);
    const listed = asAdmin.data as { mayRestore: boolean; tasks: Array<{ id: string; number: number; title: string }> };
    expect(listed.tasks.map((t) => [t.number, t.title])).toEqual([[2, "Book the big room"]]);
    const asMember = (await call(trash.loader, { url: trashUrl(), user: team.member, params: params() })).data;
    expect(asMember).toMatchObject({ mayRestore: false, tasks: [] });

    const form = { intent: "restore", taskId: team.taskIds[1] };
    const refused = await call(trash.action, { url: trashUrl(), user: team.member, params: params(), form });
    expect(refused.status).toBe(403);
    expect(errorsOf(refused.data).form).toBe(FORBIDDEN);
    const bogus = await call(trash.action, {
      url: trashUrl(),
      user: team.admin,
      params: params(),
      form: { intent: "restore", taskId: team.taskIds[0] },
    });
    expect(bogus.status).toBe(404);
    expect(errorsOf(bogus.data).form).toBe("That task isn't in the trash.");

    const restored = await call(trash.action, { url: trashUrl(), user: team.admin, params: params(), form });
    expect(restored.status).toBe(302);
    expect(restored.location).toBe(trashUrl());
    expect(await titlesOnBoard()).toContain("Book the big room");
    expect(
      (await call(task.loader, { url: taskUrl(), user: team.member, params: params({ number: "2" }) })).status,
    ).toBe(200);
  });

  it("archives from the task page (off the board, under Archived, found by search with the filter) and unarchives from the Archived page", async () => {
    const archived = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: { intent: "archive-task" },
    });
    expect(archived.status).toBe(302);
    expect(archived.location).toBe(boardUrl());
    expect(await titlesOnBoard()).not.toContain("Book the big room");
    const page = (await call(archivedPage.loader, { url: archivedUrl(), user: team.viewer, params: params() }))
      .data as { mayUnarchive: boolean; tasks: Array<{ number: number; title: string }> };
    expect(page).toMatchObject({ mayUnarchive: false, tasks: [{ number: 2, title: "Book the big room" }] });
    // still at its address, saying it is archived
    const panel = await call(task.loader, { url: taskUrl(), user: team.member, params: params({ number: "2" }) });
    expect((panel.data as { task: { archived_at: string | null } }).task.archived_at).toBeTruthy();
    const plain = (await call(search.loader, { url: "/search?q=room", user: team.member, params: {} })).data;
    expect((plain as { hits: unknown[] }).hits).toEqual([]);
    const filtered = (await call(search.loader, { url: "/search?q=room&archived=1", user: team.member, params: {} }))
      .data as { hits: Array<{ number: number }> };
    expect(filtered.hits.map((h) => h.number)).toEqual([2]);

    const viewer = await call(archivedPage.action, {
      url: archivedUrl(),
      user: team.viewer,
      params: params(),
      form: { intent: "unarchive", taskId: team.taskIds[1] },
    });
    expect(viewer.status).toBe(403);
    const back = await call(archivedPage.action, {
      url: archivedUrl(),
      user: team.member,
      params: params(),
      form: { intent: "unarchive", taskId: team.taskIds[1] },
    });
    expect(back.status).toBe(302);
    expect(back.location).toBe(archivedUrl());
    expect(await titlesOnBoard()).toContain("Book the big room");
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
    const [comment] = await commentsOn();
    expect(comment.body).toBe("Draft is in the doc.");
    // the page lands at the new comment, the board's filter kept
    expect(posted.location).toBe(`${boardUrl()}/tasks/1?q=plan#comment-${comment.id}`);

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
