/**
 * Shaping the work (docs/product.md §11, §16) as the database holds it:
 * project statuses and their rules, checklists, sub-tasks, relations and team
 * labels, with their limits, and what the board and panel reads make of them.
 * Calls run as a person, as the REST API runs them; a refusal carries the
 * key (DETAIL) the app maps to its own words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbPeople, failure } from "../support/db-people.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const { createUser, call, teamWith, project, statusId, task, column } = dbPeople(() => stack);
const BOUNDS = {
  code: "23514",
  message: "A project needs at least one open and one done status, and at most 12.",
  detail: "project_statuses_bounds",
};

async function statuses(projectId: string) {
  const { rows } = await stack.db.query<{ name: string; category: string; position: number }>(
    "select name, category::text, position from project_statuses where project_id = $1 order by position",
    [projectId],
  );
  return rows;
}

async function addStatus(userId: string, projectId: string, name: string, category = "started", more = {}) {
  const fields = { project_id: projectId, name, category, ...more };
  const columns = Object.keys(fields);
  const [row] = await call<{ id: string; position: number }>(
    userId,
    `insert into project_statuses (${columns.join(", ")}) values (${columns.map((_, i) => `$${i + 1}`).join(", ")})
     returning id, position`,
    Object.values(fields),
  );
  return row;
}

async function updatedAt(taskId: string) {
  const { rows } = await stack.db.query<{ at: string }>("select updated_at::text as at from tasks where id = $1", [
    taskId,
  ]);
  return rows[0].at;
}

describe("project statuses (§11)", () => {
  it("a new project starts with one status of each category, in the board's order", async () => {
    const t = await teamWith();
    expect(await statuses(await project(t.team))).toEqual([
      { name: "Backlog", category: "backlog", position: 0 },
      { name: "To do", category: "unstarted", position: 1 },
      { name: "In progress", category: "started", position: 2 },
      { name: "Done", category: "completed", position: 3 },
      { name: "Canceled", category: "canceled", position: 4 },
    ]);
  });

  it("admins add statuses at the end, at most 12; names are unique in the project whatever their capitals", async () => {
    const t = await teamWith({ ada: "admin" });
    const p = await project(t.team);
    const review = await addStatus(t.ada, p, "Review", "started", { color: "purple", wip_limit: 3 });
    expect(review.position).toBe(5);
    expect(await failure(addStatus(t.ada, p, "  review "))).toMatchObject({ code: "23505" });
    expect(await failure(addStatus(t.ada, p, "Done"))).toMatchObject({
      code: "23505",
      message: expect.stringContaining("project_statuses_name_key"),
    });
    // another project may have its own "Review"
    await addStatus(t.ada, await project(t.team, "OPS"), "Review");
    for (let i = 6; i < 12; i++) await addStatus(t.ada, p, `Step ${i}`);
    expect(await statuses(p)).toHaveLength(12);
    expect(await failure(addStatus(t.ada, p, "Thirteenth"))).toEqual(BOUNDS);
    expect(await statuses(p)).toHaveLength(12);
  });

  it("hold their own rules: name 1–30 characters, a colour of the palette, a WIP limit of 1–999", async () => {
    const t = await teamWith();
    const p = await project(t.team);
    expect(await failure(addStatus(t.owner, p, "   "))).toMatchObject({ code: "23514" });
    expect(await failure(addStatus(t.owner, p, "x".repeat(31)))).toMatchObject({ code: "23514" });
    expect(await failure(addStatus(t.owner, p, "QA", "started", { color: "magenta" }))).toMatchObject({
      code: "22P02",
    });
    expect(await failure(addStatus(t.owner, p, "QA", "started", { wip_limit: 0 }))).toMatchObject({ code: "23514" });
    expect(await failure(addStatus(t.owner, p, "QA", "started", { wip_limit: 1000 }))).toMatchObject({
      code: "23514",
    });
    const qa = await addStatus(t.owner, p, "x".repeat(30), "started", { color: "teal", wip_limit: 999 });
    // rename, recolour, set or clear the WIP limit
    await call(t.owner, "update project_statuses set name = 'QA', color = 'pink', wip_limit = null where id = $1", [
      qa.id,
    ]);
    expect(await call(t.owner, "select name, color, wip_limit from project_statuses where id = $1", [qa.id])).toEqual([
      { name: "QA", color: "pink", wip_limit: null },
    ]);
    expect(
      await failure(call(t.owner, "update project_statuses set name = 'to DO' where id = $1", [qa.id])),
    ).toMatchObject({ code: "23505" });
  });

  it("reorder with move_status: dense positions, clamped at the end", async () => {
    const t = await teamWith();
    const p = await project(t.team);
    await call(t.owner, "select move_status($1, 0)", [await statusId(p, "Done")]);
    await call(t.owner, "select move_status($1, 99)", [await statusId(p, "Backlog")]);
    await call(t.owner, "select move_status($1, 2)", [await statusId(p, "Canceled")]);
    expect((await statuses(p)).map((s) => [s.name, s.position])).toEqual([
      ["Done", 0],
      ["To do", 1],
      ["Canceled", 2],
      ["In progress", 3],
      ["Backlog", 4],
    ]);
  });

  it("remove_status moves its tasks to the chosen status in the same step, after that column's own, in order", async () => {
    const t = await teamWith();
    const p = await project(t.team);
    for (const title of ["D1", "D2"]) await task(p, { title, status: "Done" });
    for (const title of ["P1", "P2", "P3"]) await task(p, { title, status: "In progress" });
    const doing = await statusId(p, "In progress");
    // a status holding tasks needs somewhere for them to go
    expect(await failure(call(t.owner, "select remove_status($1)", [doing]))).toEqual({
      code: "22023",
      message: "Choose the status its tasks move to.",
      detail: "status_move_to_missing",
    });
    expect(
      await failure(
        call(t.owner, "select remove_status($1, $2)", [doing, await statusId(await project(t.team, "OPS"), "Done")]),
      ),
    ).toMatchObject({ code: "22023", detail: "status_not_in_project" });
    expect(await column(p, "In progress")).toHaveLength(3); // nothing moved

    await call(t.owner, "select remove_status($1, $2)", [doing, await statusId(p, "Done")]);
    expect(await column(p, "Done")).toEqual(
      ["D1", "D2", "P1", "P2", "P3"].map((title, position) => ({ title, position })),
    );
    const { rows } = await stack.db.query<{ open: number }>(
      "select count(*)::int as open from tasks where project_id = $1 and completed_at is null",
      [p],
    );
    expect(rows).toEqual([{ open: 0 }]); // they entered a completed status
    expect((await statuses(p)).map((s) => [s.name, s.position])).toEqual([
      ["Backlog", 0],
      ["To do", 1],
      ["Done", 2],
      ["Canceled", 3],
    ]);
    // an empty status goes without being asked where to
    await call(t.owner, "select remove_status($1)", [await statusId(p, "Canceled")]);
    expect(await statuses(p)).toHaveLength(3);
  });

  it("keep at least one unstarted and one completed status, however they are removed", async () => {
    const t = await teamWith();
    const p = await project(t.team);
    const todo = await statusId(p, "To do");
    const done = await statusId(p, "Done");
    await task(p, { status: "To do" });
    expect(await failure(call(t.owner, "select remove_status($1, $2)", [todo, await statusId(p, "Backlog")]))).toEqual(
      BOUNDS,
    );
    expect(await failure(call(t.owner, "select remove_status($1)", [done]))).toEqual(BOUNDS);
    expect(await column(p, "To do")).toHaveLength(1);
    // with a second one of the category, either may go
    const ready = await addStatus(t.owner, p, "Ready", "unstarted");
    await call(t.owner, "select remove_status($1, $2)", [todo, ready.id]);
    expect(await column(p, "Ready")).toHaveLength(1);
    // not even the service role can leave a project without them (checked at commit)
    expect(await failure(stack.db.query("delete from project_statuses where id = $1", [done]))).toMatchObject(BOUNDS);
    // deleting the whole project takes its statuses and tasks with it
    await stack.db.query("delete from projects where id = $1", [p]);
    expect(await statuses(p)).toEqual([]);
  });

  it("are managed by admins and owners only, in active projects", async () => {
    const t = await teamWith({ mia: "member", vic: "viewer", ada: "admin" });
    const outsider = await createUser("Outsider");
    const p = await project(t.team);
    const doing = await statusId(p, "In progress");
    for (const who of [t.mia, t.vic, outsider]) {
      expect(await failure(addStatus(who, p, "Nope"))).toMatchObject({ code: "42501" });
      expect(await call(who, "update project_statuses set name = 'Nope' where id = $1 returning id", [doing])).toEqual(
        [],
      );
      expect((await failure(call(who, "select move_status($1, 0)", [doing])))?.code).toMatch(/^(42501|PT404)$/);
      expect((await failure(call(who, "select remove_status($1)", [doing])))?.code).toMatch(/^(42501|PT404)$/);
    }
    expect(await failure(call(t.ada, "delete from project_statuses where id = $1", [doing]))).toMatchObject({
      code: "42501",
    });
    await stack.db.query("update projects set archived_at = now() where id = $1", [p]);
    expect(await failure(addStatus(t.ada, p, "Late"))).toMatchObject({ code: "42501" });
    expect(await failure(call(t.ada, "select move_status($1, 0)", [doing]))).toMatchObject({
      code: "P0001",
      detail: "project_archived",
    });
    expect((await statuses(p)).map((s) => s.name)).toEqual(["Backlog", "To do", "In progress", "Done", "Canceled"]);
  });

  it("a new task goes to the first backlog status, else the first unstarted one", async () => {
    const t = await teamWith();
    const p = await project(t.team);
    const [first] = await call<{ status_id: string }>(
      t.owner,
      "insert into tasks (project_id, title) values ($1, 'x') returning status_id",
      [p],
    );
    expect(first.status_id).toBe(await statusId(p, "Backlog"));
    await call(t.owner, "select remove_status($1, $2)", [await statusId(p, "Backlog"), await statusId(p, "Done")]);
    const [second] = await call<{ status_id: string }>(
      t.owner,
      "insert into tasks (project_id, title) values ($1, 'y') returning status_id",
      [p],
    );
    expect(second.status_id).toBe(await statusId(p, "To do"));
  });
});

describe("checklists (§11)", () => {
  it("add in order, at most 50 items of 1–200 characters; ticking records who and when", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const { id } = await task(p);
    const add = (title: string) =>
      call<{ id: string; position: number }>(
        t.mia,
        "insert into checklist_items (task_id, title) values ($1, $2) returning id, position",
        [id, title],
      );
    expect(await failure(add(" "))).toMatchObject({ code: "23514" });
    expect(await failure(add("x".repeat(201)))).toMatchObject({ code: "23514" });
    const [first] = await add("x".repeat(200));
    expect(first.position).toBe(0);
    for (let i = 1; i < 50; i++) await add(`Item ${i}`);
    expect(await failure(add("Item 51"))).toEqual({
      code: "23514",
      message: "A task can have at most 50 checklist items.",
      detail: "checklist_items_limit",
    });

    const [ticked] = await call<{ done: boolean; ticked_by: string; ticked: boolean }>(
      t.mia,
      "update checklist_items set done = true where id = $1 returning done, ticked_by, ticked_at is not null as ticked",
      [first.id],
    );
    expect(ticked).toEqual({ done: true, ticked_by: t.mia, ticked: true });
    const [unticked] = await call(
      t.mia,
      "update checklist_items set done = false where id = $1 returning ticked_by, ticked_at",
      [first.id],
    );
    expect(unticked).toEqual({ ticked_by: null, ticked_at: null });
  });

  it("reorder and remove keep positions dense; each change marks the task changed", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const { id } = await task(p);
    const ids: string[] = [];
    for (const title of ["A", "B", "C", "D"]) {
      const [row] = await call<{ id: string }>(
        t.mia,
        "insert into checklist_items (task_id, title) values ($1, $2) returning id",
        [id, title],
      );
      ids.push(row.id);
    }
    const list = async () =>
      (
        await stack.db.query<{ title: string; position: number }>(
          "select title, position from checklist_items where task_id = $1 order by position",
          [id],
        )
      ).rows.map((r) => `${r.position}:${r.title}`);
    await call(t.mia, "select move_checklist_item($1, 0)", [ids[3]]);
    expect(await list()).toEqual(["0:D", "1:A", "2:B", "3:C"]);
    await call(t.mia, "select move_checklist_item($1, 10)", [ids[0]]);
    expect(await list()).toEqual(["0:D", "1:B", "2:C", "3:A"]);
    const before = await updatedAt(id);
    await call(t.mia, "delete from checklist_items where id = $1", [ids[1]]);
    expect(await list()).toEqual(["0:D", "1:C", "2:A"]);
    expect(await updatedAt(id)).not.toBe(before);
  });
});

describe("sub-tasks (§11)", () => {
  it("have a parent in the same project, one level deep, at most 50; a deleted parent leaves them be", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const other = await project(t.team, "OPS");
    const parent = await task(p, { title: "Parent" });
    const child = await task(p, { title: "Child", parent: parent.id });
    expect(await failure(task(p, { title: "Grandchild", parent: child.id }))).toEqual({
      code: "23514",
      message: "A sub-task can't have sub-tasks of its own.",
      detail: "tasks_one_level",
    });
    expect(await failure(task(other, { title: "Elsewhere", parent: parent.id }))).toMatchObject({
      code: "23503",
      message: expect.stringContaining("tasks_parent_in_project_fkey"),
    });
    for (let i = 2; i <= 50; i++) await task(p, { title: `Child ${i}`, parent: parent.id });
    expect(await failure(task(p, { title: "Child 51", parent: parent.id }))).toEqual({
      code: "23514",
      message: "A task can have at most 50 sub-tasks.",
      detail: "tasks_subtasks_limit",
    });
    // members make them through the API; the parent can't be changed afterwards
    const [made] = await call<{ parent_id: string }>(
      t.mia,
      "insert into tasks (project_id, title, parent_id) values ($1, 'By Mia', $2) returning parent_id",
      [other, (await task(other)).id],
    );
    expect(made.parent_id).toBeTruthy();
    expect(await failure(call(t.mia, "update tasks set parent_id = null where id = $1", [child.id]))).toMatchObject({
      code: "42501",
    });

    await stack.db.query("delete from tasks where id = $1", [parent.id]);
    const { rows } = await stack.db.query("select parent_id from tasks where id = $1", [child.id]);
    expect(rows).toEqual([{ parent_id: null }]);
  });
});

describe("relations (§11)", () => {
  async function relate(userId: string, from: string, to: string, kind: string) {
    return call(userId, "insert into task_relations (from_task_id, to_task_id, kind) values ($1, $2, $3)", [
      from,
      to,
      kind,
    ]);
  }

  it("no task to itself, no pair twice either way round, no two tasks blocking each other, one team only", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const ops = await project(t.team, "OPS");
    const [a, b, c] = [await task(p), await task(p), await task(ops)];
    expect(await failure(relate(t.mia, a.id, a.id, "relates"))).toMatchObject({ code: "23514" });
    await relate(t.mia, a.id, b.id, "blocks");
    expect(await failure(relate(t.mia, a.id, b.id, "blocks"))).toEqual({
      code: "23514",
      message: "Those tasks are already related that way.",
      detail: "task_relations_duplicate",
    });
    expect(await failure(relate(t.mia, b.id, a.id, "blocks"))).toEqual({
      code: "23514",
      message: "A task can't block a task that blocks it.",
      detail: "task_relations_mutual_block",
    });
    await relate(t.mia, a.id, b.id, "relates");
    expect(await failure(relate(t.mia, b.id, a.id, "relates"))).toMatchObject({ detail: "task_relations_duplicate" });
    await relate(t.mia, c.id, a.id, "duplicates"); // across projects of one team
    const elsewhere = await teamWith();
    const foreign = await task(await project(elsewhere.team));
    expect(
      await failure(
        stack.db.query("insert into task_relations (from_task_id, to_task_id, kind) values ($1, $2, 'relates')", [
          a.id,
          foreign.id,
        ]),
      ),
    ).toMatchObject({ code: "23514", detail: "task_relations_same_team" });
    // the unique index holds even where the trigger is bypassed
    await stack.db.query("alter table task_relations disable trigger task_relations_before_insert");
    try {
      expect(
        await failure(
          stack.db.query(
            "insert into task_relations (team_id, from_task_id, to_task_id, kind) values ($1, $2, $3, 'blocks')",
            [t.team, b.id, a.id],
          ),
        ),
      ).toMatchObject({ code: "23505" });
    } finally {
      await stack.db.query("alter table task_relations enable trigger task_relations_before_insert");
    }
  });

  it("no loop of blocks through other tasks (issue 35 L6): three, four or more, across projects", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const ops = await project(t.team, "OPS");
    const [a, b, c, d, e] = [await task(p), await task(p), await task(ops), await task(p), await task(ops)];
    const loop = {
      code: "23514",
      message: "Those tasks would block each other in a loop.",
      detail: "task_relations_block_cycle",
    };
    await relate(t.mia, a.id, b.id, "blocks");
    await relate(t.mia, b.id, c.id, "blocks");
    expect(await failure(relate(t.mia, c.id, a.id, "blocks"))).toEqual(loop);
    await relate(t.mia, c.id, d.id, "blocks");
    expect(await failure(relate(t.mia, d.id, a.id, "blocks"))).toEqual(loop);
    expect(await failure(relate(t.mia, d.id, b.id, "blocks"))).toEqual(loop);
    // a branch that rejoins is no loop; other kinds of relation may point back
    await relate(t.mia, a.id, d.id, "blocks");
    await relate(t.mia, e.id, a.id, "blocks");
    await relate(t.mia, d.id, e.id, "relates");
    expect(await failure(relate(t.mia, d.id, e.id, "blocks"))).toEqual(loop);
    // even the owner, and even straight into the table as the service role would
    expect(
      await failure(
        stack.db.query("insert into task_relations (from_task_id, to_task_id, kind) values ($1, $2, 'blocks')", [
          d.id,
          e.id,
        ]),
      ),
    ).toEqual(loop);
    // once the chain is broken, the relation is allowed
    await stack.db.query("delete from task_relations where from_task_id = $1 and to_task_id = $2", [c.id, d.id]);
    await relate(t.mia, d.id, b.id, "blocks");
  });

  it("a card is Blocked while a blocker is not completed or canceled, shown from both sides", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const ops = await project(t.team, "OPS");
    const blocked = await task(p, { title: "Waits" });
    const blocker = await task(ops, { title: "Blocker" });
    await relate(t.mia, blocker.id, blocked.id, "blocks");
    // counts: [ticked, items, sub-tasks closed, sub-tasks, open blockers]
    const card = async () => {
      const [{ board }] = await call<{ board: { statuses: { cards: { id: string; counts: number[] }[] }[] } }>(
        t.mia,
        "select board_view($1, 'WEB') as board",
        [t.slug],
      );
      const found = board.statuses.flatMap((s) => s.cards).find((c) => c.id === blocked.id)!;
      return { blocked: found.counts[4] > 0 };
    };
    expect((await card()).blocked).toBe(true);
    const before = await updatedAt(blocked.id);
    await call(t.mia, "select move_task($1, $2)", [blocker.id, await statusId(ops, "Canceled")]);
    expect((await card()).blocked).toBe(false);
    // the blocked task heard of it (its board is another project's)
    expect(await updatedAt(blocked.id)).not.toBe(before);
    await call(t.mia, "select move_task($1, $2)", [blocker.id, await statusId(ops, "In progress")]);
    expect((await card()).blocked).toBe(true);

    const panel = async (key: string, number: number) => {
      const [{ panel }] = await call<{
        panel: { relations: { kind: string; outgoing: boolean; task: { title: string } }[] };
      }>(t.mia, "select task_panel($1, $2, $3) as panel", [t.slug, key, number]);
      return panel.relations.map((r) => [r.kind, r.outgoing, r.task.title]);
    };
    expect(await panel("WEB", blocked.number)).toEqual([["blocks", false, "Blocker"]]);
    expect(await panel("OPS", blocker.number)).toEqual([["blocks", true, "Waits"]]);
    await call(t.mia, "delete from task_relations where to_task_id = $1", [blocked.id]);
    expect((await card()).blocked).toBe(false);
  });
});

describe("team labels (§11)", () => {
  it("are unique in the team whatever their capitals, 1–24 characters, at most 100", async () => {
    const t = await teamWith({ mia: "member" });
    const add = (name: string, who = t.mia) =>
      call(who, "insert into labels (team_id, name, color) values ($1, $2, 'red')", [t.team, name]);
    await add("Bug");
    expect(await failure(add(" bug"))).toMatchObject({
      code: "23505",
      message: expect.stringContaining("labels_name_key"),
    });
    expect(await failure(add("x".repeat(25)))).toMatchObject({ code: "23514" });
    expect(await failure(add(""))).toMatchObject({ code: "23514" });
    for (let i = 2; i <= 100; i++) await add(`Label ${i}`);
    expect(await failure(add("Label 101"))).toEqual({
      code: "23514",
      message: "A team can have at most 100 labels.",
      detail: "labels_limit",
    });
  });

  it("set_task_labels puts up to 10 on a task by name, making the team's new ones; a deleted label leaves every task", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const { id } = await task(p);
    const [{ set_task_labels: first }] = await call<{ set_task_labels: { name: string; color: string }[] }>(
      t.mia,
      "select set_task_labels($1, $2)",
      [id, ["Design", " bug ", "design", ""]],
    );
    expect(first.map((l) => l.name)).toEqual(["bug", "Design"]);
    expect(new Set(first.map((l) => l.color)).size).toBe(2);
    const [{ set_task_labels: second }] = await call<{ set_task_labels: { name: string }[] }>(
      t.mia,
      "select set_task_labels($1, $2)",
      [id, ["BUG", "UX"]],
    );
    expect(second.map((l) => l.name)).toEqual(["bug", "UX"]);
    const { rows: team } = await stack.db.query("select name from labels where team_id = $1 order by name", [t.team]);
    expect(team).toEqual([{ name: "Design" }, { name: "UX" }, { name: "bug" }]);

    const eleven = Array.from({ length: 11 }, (_, i) => `L${i}`);
    expect(await failure(call(t.mia, "select set_task_labels($1, $2)", [id, eleven]))).toMatchObject({
      detail: "task_labels_limit",
    });
    expect(await failure(call(t.mia, "select set_task_labels($1, $2)", [id, ["x".repeat(25)]]))).toMatchObject({
      detail: "labels_name_length",
    });
    // the same limit through the table itself
    await call(t.mia, "select set_task_labels($1, $2)", [id, eleven.slice(0, 10)]);
    const [{ uxId }] = await call<{ uxId: string }>(t.mia, `select id as "uxId" from labels where name = 'UX'`);
    expect(
      await failure(call(t.mia, "insert into task_labels (task_id, label_id) values ($1, $2)", [id, uxId])),
    ).toMatchObject({ code: "23514", detail: "task_labels_limit" });

    // a label of another team never goes on a task
    const other = await teamWith();
    const [{ id: foreign }] = await call<{ id: string }>(
      other.owner,
      "insert into labels (team_id, name) values ($1, 'Theirs') returning id",
      [other.team],
    );
    await call(t.mia, "select set_task_labels($1, '{}')", [id]);
    expect(
      await failure(stack.db.query("insert into task_labels (task_id, label_id) values ($1, $2)", [id, foreign])),
    ).toMatchObject({ detail: "task_labels_same_team" });

    await call(t.mia, "select set_task_labels($1, $2)", [id, ["UX"]]);
    await call(t.owner, "delete from labels where id = $1", [uxId]);
    const { rows } = await stack.db.query("select count(*)::int as n from task_labels where task_id = $1", [id]);
    expect(rows).toEqual([{ n: 0 }]);
  });
});

describe("what a card shows, kept on the task row", () => {
  /** [label ids, checklist ticked, items, sub-tasks closed, sub-tasks, open blockers] as the triggers keep them */
  async function kept(id: string) {
    const { rows } = await stack.db.query<{ row: unknown[] }>(
      `select json_build_array(label_ids, checklist_done, checklist_total, subtasks_done, subtasks_total, open_blockers) as row
       from tasks where id = $1`,
      [id],
    );
    return rows[0].row;
  }
  /** the same, counted from the rows themselves */
  async function counted(id: string) {
    const { rows } = await stack.db.query<{ row: unknown[] }>(
      `select json_build_array(
         coalesce((select array_agg(label_id order by label_id) from task_labels where task_id = $1), '{}'),
         (select count(*) filter (where done) from checklist_items where task_id = $1),
         (select count(*) from checklist_items where task_id = $1),
         (select count(*) filter (where completed_at is not null) from tasks where parent_id = $1),
         (select count(*) from tasks where parent_id = $1),
         (select count(*) from task_relations r join tasks b on b.id = r.from_task_id
           where r.to_task_id = $1 and r.kind = 'blocks' and b.completed_at is null)) as row`,
      [id],
    );
    return rows[0].row;
  }

  it("follow every change to labels, checklists, sub-tasks and blockers, by anyone, however made", async () => {
    const t = await teamWith({ mia: "member" });
    const p = await project(t.team);
    const ops = await project(t.team, "OPS");
    const main = await task(p, { title: "Main" });
    const expectInStep = async (step: string) => expect(await kept(main.id), step).toEqual(await counted(main.id));
    await call(t.mia, "select set_task_labels($1, $2)", [main.id, ["b", "a", "c"]]);
    await expectInStep("three labels");
    await call(t.mia, "select set_task_labels($1, $2)", [main.id, ["a"]]);
    await expectInStep("one label left");
    const [{ id: item }] = await call<{ id: string }>(
      t.mia,
      "insert into checklist_items (task_id, title) values ($1, 'one') returning id",
      [main.id],
    );
    await call(t.mia, "insert into checklist_items (task_id, title, done) values ($1, 'two', true)", [main.id]);
    await call(t.mia, "update checklist_items set done = true where id = $1", [item]);
    await expectInStep("two items ticked");
    await call(t.mia, "delete from checklist_items where id = $1", [item]);
    await expectInStep("an item removed");
    const sub = await task(p, { title: "Sub", parent: main.id });
    await task(p, { title: "Sub 2", parent: main.id, status: "Done" });
    await expectInStep("two sub-tasks, one done");
    await call(t.mia, "select move_task($1, $2)", [sub.id, await statusId(p, "Canceled")]);
    await expectInStep("a sub-task canceled");
    await stack.db.query("delete from tasks where id = $1", [sub.id]);
    await expectInStep("a sub-task deleted");
    const blocker = await task(ops, { title: "Blocker" });
    await call(t.mia, "insert into task_relations (from_task_id, to_task_id, kind) values ($1, $2, 'blocks')", [
      blocker.id,
      main.id,
    ]);
    await expectInStep("blocked");
    await call(t.mia, "select move_task($1, $2)", [blocker.id, await statusId(ops, "Done")]);
    await expectInStep("the blocker done");
    await call(t.mia, "select move_task($1, $2)", [blocker.id, await statusId(ops, "To do")]);
    await expectInStep("the blocker reopened");
    await stack.db.query("delete from tasks where id = $1", [blocker.id]);
    await expectInStep("the blocker deleted");
    await call(t.owner, "delete from labels where team_id = $1", [t.team]);
    await expectInStep("the team's labels deleted");
    expect(await kept(main.id)).toEqual([[], 1, 1, 1, 1, 0]);
  });

  it("can't be written by anyone but the triggers", async () => {
    const t = await teamWith();
    const { id } = await task(await project(t.team));
    for (const column of ["label_ids = '{}'", "checklist_total = 9", "subtasks_done = 9", "open_blockers = 9"]) {
      expect(await failure(call(t.owner, `update tasks set ${column} where id = $1`, [id])), column).toMatchObject({
        code: "42501",
      });
    }
  });
});

describe("the board's read (board_view)", () => {
  it("gives the statuses in order with colour, WIP limit and count, and each card's tallies; ?label= by name", async () => {
    const t = await teamWith();
    const p = await project(t.team);
    const review = await addStatus(t.owner, p, "Review", "started", { color: "purple", wip_limit: 1 });
    await call(t.owner, "select move_status($1, 3)", [review.id]);
    const parent = await task(p, { title: "Parent", status: "Review" });
    await task(p, { title: "Also in review", status: "Review" });
    await task(p, { title: "Sub one", status: "Done", parent: parent.id });
    await task(p, { title: "Sub two", status: "To do", parent: parent.id });
    for (const [title, done] of [
      ["a", true],
      ["b", false],
      ["c", true],
    ] as const) {
      await call(t.owner, "insert into checklist_items (task_id, title, done) values ($1, $2, $3)", [
        parent.id,
        title,
        done,
      ]);
    }
    await call(t.owner, "select set_task_labels($1, $2)", [parent.id, ["Bug"]]);

    const [{ board }] = await call<{
      board: {
        statuses: {
          name: string;
          color: string;
          wip_limit: number | null;
          count: number | null;
          cards: { title: string; counts: number[]; label_ids: string[] }[];
        }[];
        labels: { id: string; name: string; color: string }[];
      };
    }>(t.owner, "select board_view($1, 'WEB', limits => $2) as board", [t.slug, JSON.stringify({ [review.id]: 1 })]);
    // a column is counted where a WIP limit asks for it
    expect(board.statuses.map((s) => [s.name, s.color, s.wip_limit, s.count])).toEqual([
      ["Backlog", "gray", null, null],
      ["To do", "blue", null, null],
      ["In progress", "yellow", null, null],
      ["Review", "purple", 1, 2],
      ["Done", "green", null, null],
      ["Canceled", "red", null, null],
    ]);
    const inReview = board.statuses[3].cards;
    // one card asked for, and one more to know there are more
    expect(inReview.map((c) => c.title)).toEqual(["Parent", "Also in review"]);
    // [checklist ticked, checklist items, sub-tasks closed, sub-tasks, open blockers, comments, attachments]
    expect(inReview[0].counts).toEqual([2, 3, 1, 2, 0, 0, 0]);
    expect(inReview[0].label_ids).toEqual([board.labels.find((l) => l.name === "Bug")!.id]);
    expect(board.labels).toMatchObject([{ name: "Bug", color: "blue" }]);
    expect(inReview[1]).toMatchObject({ counts: [0, 0, 0, 0, 0, 0, 0], label_ids: [] });

    const [{ filtered }] = await call<{ filtered: { statuses: { count: number; cards: { title: string }[] }[] } }>(
      t.owner,
      "select board_view($1, 'WEB', label => 'bug') as filtered",
      [t.slug],
    );
    expect(filtered.statuses.flatMap((s) => s.cards.map((c) => c.title))).toEqual(["Parent"]);
    expect(filtered.statuses[3].count).toBe(2); // the WIP count is the column's, whatever the filters
    const [{ none }] = await call<{ none: { statuses: { cards: unknown[] }[] } }>(
      t.owner,
      "select board_view($1, 'WEB', label => 'no such label') as none",
      [t.slug],
    );
    expect(none.statuses.flatMap((s) => s.cards)).toEqual([]);
  });
});
