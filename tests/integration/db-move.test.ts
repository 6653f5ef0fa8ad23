/**
 * Moving a task to another project and duplicating it (issue 39; docs/product.md §18;
 * 20261208000400_move_and_duplicate.sql): move_task_to_project takes the task, its sub-tasks
 * and every row of theirs to the target with the next keys there, in one transaction, and
 * the old keys keep leading to it; duplicate_task makes a copy with one event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RealtimeChannel } from "@supabase/supabase-js";
import { dbPeople, failure } from "../support/db-people.ts";
import { Inbox, makePerson, makeTeam, subscribed } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
const { call, teamWith, project, task, statusId } = dbPeople(() => stack);

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await stack.db.query<T>(sql, params)).rows;

async function field(projectId: string, name: string, kind: string, options: string[] = []) {
  const [f] = await q<{ id: string }>("insert into fields (project_id, name, kind) values ($1, $2, $3) returning id", [
    projectId,
    name,
    kind,
  ]);
  for (const [i, o] of options.entries())
    await q("insert into field_options (field_id, project_id, name, position) values ($1, $2, $3, $4)", [
      f.id,
      projectId,
      o,
      i,
    ]);
  return f.id;
}

/** A task in WEB with a sub-task and one row of every kind a task has. */
async function busyTask() {
  const people = await teamWith({ member: "member", viewer: "viewer" });
  const { team, owner, member } = people;
  const web = await project(team, "WEB");
  const ops = await project(team, "OPS");
  await task(web, { title: "first" }); // WEB-1: the moved task is WEB-2
  const t = await task(web, { title: "Fix the footer", status: "In progress" });
  const sub = await task(web, { title: "A sub-task", parent: t.id, status: "Done" });
  await task(ops, { title: "already in OPS" }); // OPS-1
  await call(member, "insert into comments (task_id, body) values ($1, 'a comment')", [t.id]);
  await call(member, "insert into checklist_items (task_id, title) values ($1, 'one item')", [t.id]);
  await call(owner, "insert into task_watchers (task_id, user_id) values ($1, $2)", [t.id, owner]);
  const [label] = await q<{ id: string }>("insert into labels (team_id, name) values ($1, 'bug') returning id", [team]);
  await call(member, "insert into task_labels (task_id, label_id) values ($1, $2)", [t.id, label.id]);
  await call(member, "insert into task_assignees (task_id, person_id) values ($1, $2)", [t.id, member]);
  await q(
    `insert into attachments (task_id, uploaded_by, file_name, content_type, size_bytes, object_path)
     values ($1, $2, 'a.txt', 'text/plain', 1, $3)`,
    [t.id, owner, `${t.id}/a.txt`],
  );
  const webPoints = await field(web, "Points", "number");
  const webSize = await field(web, "Size", "select", ["S", "M"]);
  await field(web, "Only in WEB", "text");
  await field(ops, "points", "number");
  await field(ops, "Size", "select", ["M", "L"]);
  for (const [f, v] of [
    [webPoints, 3],
    [webSize, "M"],
  ] as const)
    await call(member, "insert into field_values (task_id, field_id, value) values ($1, $2, $3)", [
      t.id,
      f,
      JSON.stringify(v),
    ]);
  await call(
    member,
    "insert into field_values (task_id, field_id, value) select $1, id, '\"x\"' from fields where project_id = $2 and name = 'Only in WEB'",
    [t.id, web],
  );
  return { ...people, member, viewer: people.viewer, web, ops, t, sub, label: label.id };
}

describe("moving a task to another project", () => {
  it("takes the task, its sub-task and every row of theirs to the next keys there, in one event per project", async () => {
    const { member, web, ops, t, sub } = await busyTask();
    const eventsBefore = await q<{ n: number }>("select count(*)::int as n from task_events");
    const [answer] = await call<{ move_task_to_project: Record<string, unknown> }>(
      member,
      "select move_task_to_project($1, $2, $3)",
      [t.id, ops, await statusId(ops, "To do")],
    );
    expect(answer.move_task_to_project).toMatchObject({
      project_key: "OPS",
      number: 2,
      tasks: 2,
      dropped_fields: ["Only in WEB"],
      unassigned: [],
    });
    const tasks = await q<{ id: string; project_id: string; number: number; status: string; parent_id: string }>(
      `select t.id, t.project_id, t.number, s.name as status, t.parent_id
       from tasks t join project_statuses s on s.id = t.status_id where t.id in ($1, $2) order by t.number`,
      [t.id, sub.id],
    );
    // the chosen status for the task; its sub-task's by category (Done → Done), still its sub-task
    expect(tasks).toEqual([
      { id: t.id, project_id: ops, number: 2, status: "To do", parent_id: null },
      { id: sub.id, project_id: ops, number: 3, status: "Done", parent_id: t.id },
    ]);
    for (const table of [
      "checklist_items",
      "comments",
      "attachments",
      "task_watchers",
      "task_labels",
      "task_assignees",
      "field_values",
      "task_events",
    ]) {
      // (but the old project's record of the move)
      const rows = await q<{ project_id: string }>(
        `select project_id from ${table} where task_id = $1
         ${table === "task_events" ? "and not (project_id = $2 and data -> 'changes' ? 'project')" : "and $2::uuid is not null"}`,
        [t.id, web],
      );
      expect(rows.length, table).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.project_id)), table).toEqual(new Set([ops]));
    }
    // field values: by name (any capitals) and kind; a select by its option's name
    const values = await q<{ name: string; value: unknown }>(
      "select f.name, v.value from field_values v join fields f on f.id = v.field_id where v.task_id = $1 order by f.name",
      [t.id],
    );
    expect(values.map((v) => v.name)).toEqual(["Size", "points"]);
    const [fields] = await q<{ fields: Record<string, unknown> }>("select fields from tasks where id = $1", [t.id]);
    expect(Object.keys(fields.fields)).toHaveLength(2);
    // one event in each project (the old one keeps its record), none for the writes it took
    const events = await q<{
      project_id: string;
      task_id: string | null;
      task_number: number | null;
      data: { changes: Record<string, unknown> };
    }>("select project_id, task_id, task_number, data from task_events");
    const eventsAfter = await q<{ n: number }>("select count(*)::int as n from task_events");
    expect(eventsAfter[0].n - eventsBefore[0].n).toBe(2);
    const moves = events.filter((e) => e.data?.changes && "project" in e.data.changes);
    expect(moves.map((e) => e.project_id).sort()).toEqual([web, ops].sort());
    // the old project's names the task as it was there; the task's own timeline has the move once
    expect(moves.find((e) => e.project_id === web)).toMatchObject({ task_id: null, task_number: 2 });
    expect(moves.find((e) => e.project_id === ops)).toMatchObject({ task_id: t.id });
    // In progress → To do: the target's record says the status change too (one of the same name would not)
    expect(moves.find((e) => e.project_id === ops)?.data.changes).toHaveProperty("status");
    // the next task of OPS gets OPS-4; WEB goes on at WEB-4 (its numbers are never handed out again)
    expect((await task(ops)).number).toBe(4);
    expect((await task(web)).number).toBe(4);
  });

  it("the old keys lead to the task, for who may see it", async () => {
    const { slug, member, ops, t } = await busyTask();
    await call(member, "select move_task_to_project($1, $2)", [t.id, ops]);
    const address = async (who: string, key: string, n: number) =>
      (await call<{ a: unknown }>(who, "select moved_task_address($1, $2, $3) as a", [slug, key, n]))[0].a;
    expect(await address(member, "WEB", 2)).toEqual({ project_key: "OPS", number: 2 });
    expect(await address(member, "web", 3)).toEqual({ project_key: "OPS", number: 3 });
    expect(await address(member, "WEB", 1)).toBeNull(); // never moved
    const stranger = (await teamWith()).owner;
    expect(await address(stranger, "WEB", 2)).toBeNull();
    // in text
    const [refs] = await call<{ r: { tasks: Array<Record<string, unknown>> } }>(
      member,
      "select text_references($1, array['WEB-2', 'OPS-1']) as r",
      [slug],
    );
    expect(refs.r.tasks).toEqual(
      expect.arrayContaining([
        { key: "WEB-2", number: 2, project_key: "OPS", title: "Fix the footer" },
        { key: "OPS-1", number: 1, project_key: "OPS", title: "already in OPS" },
      ]),
    );
    // moved on again: WEB-2 and OPS-2 both lead to where it is now
    const third = await q<{ id: string }>(
      "insert into projects (team_id, key, name) select team_id, 'DOC', 'Docs' from projects where id = $1 returning id",
      [ops],
    );
    await call(member, "select move_task_to_project($1, $2)", [t.id, third[0].id]);
    expect(await address(member, "WEB", 2)).toEqual({ project_key: "DOC", number: 1 });
    expect(await address(member, "OPS", 2)).toEqual({ project_key: "DOC", number: 1 });
  });

  it("needs member rights in both projects, and sight of the target", async () => {
    const { team, member, viewer, owner, web, ops, t } = await busyTask();
    expect(await failure(call(viewer, "select move_task_to_project($1, $2)", [t.id, ops]))).toMatchObject({
      code: "42501",
    });
    // a private project the member isn't in: as if it weren't there
    const [secret] = await q<{ id: string }>(
      "insert into projects (team_id, key, name, visibility) values ($1, 'SEC', 'Secret', 'private') returning id",
      [team],
    );
    expect(await failure(call(member, "select move_task_to_project($1, $2)", [t.id, secret.id]))).toMatchObject({
      code: "22023",
      detail: "move_target_unknown",
    });
    // another team's project, the same project, a status of another project
    const elsewhere = await project((await teamWith()).team, "XYZ");
    expect(await failure(call(member, "select move_task_to_project($1, $2)", [t.id, elsewhere]))).toMatchObject({
      detail: "move_target_unknown",
    });
    expect(await failure(call(member, "select move_task_to_project($1, $2)", [t.id, web]))).toMatchObject({
      detail: "move_target_same",
    });
    expect(
      await failure(call(member, "select move_task_to_project($1, $2, $3)", [t.id, ops, await statusId(web, "Done")])),
    ).toMatchObject({ detail: "status_not_in_project" });
    // nothing moved; the owner (admin+) sees SEC and may move it there: the member, not in it, is unassigned
    expect((await q<{ project_id: string }>("select project_id from tasks where id = $1", [t.id]))[0].project_id).toBe(
      web,
    );
    const [answer] = await call<{ r: { unassigned: string[] } }>(owner, "select move_task_to_project($1, $2) as r", [
      t.id,
      secret.id,
    ]);
    expect(answer.r.unassigned).toEqual(["member"]);
    expect(await q("select person_id from task_assignees where task_id = $1", [t.id])).toEqual([]);
    // a project's own updates still can't change it (only the move does)
    expect(await failure(stack.db.query("update tasks set project_id = $1 where id = $2", [web, t.id]))).toMatchObject({
      code: "23514",
      message: "A task stays in its project.",
    });
  });
});

describe("a task in the trash", () => {
  it("is not found to move or to duplicate, as it is not through the API", async () => {
    const { owner, ops, t } = await busyTask();
    await call(owner, "select trash_tasks(array[$1]::uuid[])", [t.id]);
    for (const sql of ["select move_task_to_project($1, $2)", "select duplicate_task($1, $2)"])
      expect(await failure(call(owner, sql, [t.id, ops])), sql).toMatchObject({ code: "PT404" });
  });
});

describe("both boards hear a move (Realtime)", () => {
  it("the old board hears the task leave, even by someone who can't see where it went; the new one hears it come", async () => {
    const [owner, webOnly] = await Promise.all([makePerson(stack, "owner"), makePerson(stack, "web-only")]);
    const { team, project: web } = await makeTeam(stack, [
      [owner, "owner"],
      [webOnly, "member"],
    ]);
    const [secret] = await q<{ id: string }>(
      "insert into projects (team_id, key, name, visibility) values ($1, 'SEC', 'Secret', 'private') returning id",
      [team],
    );
    const t = await task(web, { title: "Leaving" });
    const left = new Inbox<{ new: { task_id?: string } }>();
    const came = new Inbox<{ new: { id?: string } }>();
    const channels: RealtimeChannel[] = [
      webOnly.client
        .channel("old-board")
        .on(
          "postgres_changes",
          { schema: "public", table: "task_moves", event: "*", filter: `from_project_id=eq.${web}` } as never,
          (p: { new: { task_id?: string } }) => left.push(p),
        ),
      owner.client
        .channel("new-board")
        .on(
          "postgres_changes",
          { schema: "public", table: "tasks", event: "*", filter: `project_id=eq.${secret.id}` } as never,
          (p: { new: { id?: string } }) => came.push(p),
        ),
    ];
    try {
      await Promise.all(channels.map((c) => subscribed(c)));
      await call(owner.id, "select move_task_to_project($1, $2)", [t.id, secret.id]);
      expect((await left.until(1))[0].new.task_id).toBe(t.id);
      expect((await came.until((items) => items.some((i) => i.new.id === t.id))).length).toBeGreaterThan(0);
    } finally {
      await owner.client.removeAllChannels();
      await webOnly.client.removeAllChannels();
    }
  });
});

describe("duplicating a task", () => {
  it("copies title, description, fields, labels, assignees and checklist unticked; not comments; one event", async () => {
    const { member, web, ops, t, label } = await busyTask();
    await q("update checklist_items set done = true where task_id = $1", [t.id]);
    const before = await q<{ n: number }>("select count(*)::int as n from task_events");
    const [same] = await call<{ r: { project_key: string; number: number } }>(
      member,
      "select duplicate_task($1) as r",
      [t.id],
    );
    expect(same.r).toMatchObject({ project_key: "WEB", number: 4 });
    const [copy] = await q<{
      id: string;
      title: string;
      status_id: string;
      label_ids: string[];
      assignee_ids: string[];
      comment_count: number;
    }>("select * from tasks where project_id = $1 and number = 4", [web]);
    expect(copy).toMatchObject({
      title: "Copy of Fix the footer",
      status_id: await statusId(web, "In progress"),
      label_ids: [label],
      assignee_ids: [member],
      comment_count: 0,
    });
    expect(await q("select title, done from checklist_items where task_id = $1", [copy.id])).toEqual([
      { title: "one item", done: false },
    ]);
    expect(await q("select count(*)::int as n from field_values where task_id = $1", [copy.id])).toEqual([{ n: 3 }]);
    expect(await q("select count(*)::int as n from tasks where parent_id = $1", [copy.id])).toEqual([{ n: 0 }]);
    const after = await q<{ n: number }>("select count(*)::int as n from task_events");
    expect(after[0].n - before[0].n).toBe(1);
    const [event] = await q<{ kind: string; data: { copied_from: { number: number } } }>(
      "select kind, data from task_events where task_id = $1",
      [copy.id],
    );
    expect(event.kind).toBe("task_created");
    expect(event.data.copied_from.number).toBe(2);

    // into another project, with a title of one's own: statuses by category, fields by name and kind
    const [other] = await call<{ r: { project_key: string; number: number; dropped_fields: string[] } }>(
      member,
      "select duplicate_task($1, $2, 'Footer for OPS') as r",
      [t.id, ops],
    );
    expect(other.r).toMatchObject({ project_key: "OPS", number: 2, dropped_fields: ["Only in WEB"] });
    const [opsCopy] = await q<{ title: string; status_id: string }>(
      "select title, status_id from tasks where project_id = $1 and number = 2",
      [ops],
    );
    expect(opsCopy).toEqual({ title: "Footer for OPS", status_id: await statusId(ops, "In progress") });
  });
});
