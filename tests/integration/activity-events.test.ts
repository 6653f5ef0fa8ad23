/**
 * Task events (docs/product.md §10 "Activity"): written by the database for every
 * change, whoever makes it and through whichever client; one event per save;
 * readable by the team's members only; nobody can write, change or delete
 * one. Every change here is made through the REST API with a person's own
 * token (supabase-js), as the app or anyone holding the token would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityTeam, comment, createTask, eventsOf, statusId, type ActivityTeam } from "../support/activity.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
let t: ActivityTeam;

const status = (id: string, name: string) => ({ id, name });
const label = (name: string) => ({ id: expect.any(String), name });

beforeAll(async () => {
  stack = await startTestStack();
  t = await activityTeam(stack);
});
afterAll(() => stack?.close());

describe("events for each change, with their actor", () => {
  it("records a task's creation, a save of several fields as one event, labels, a move, and not a move within its column", async () => {
    const [backlog, todo] = [await statusId(stack, t.project, "Backlog"), await statusId(stack, t.project, "To do")];
    const task = await createTask(t.member, t.project, { title: "Write the brief" });
    const save = await t.member.client
      .from("tasks")
      .update({ title: "Write the short brief", priority: "high", due_on: "2026-12-24" })
      .eq("id", task.id);
    expect(save.error).toBeNull();
    // two labels put on in one call: one event
    expect(
      (await t.member.client.rpc("set_task_labels", { task_id: task.id, names: ["q4", "docs"] })).error,
    ).toBeNull();
    expect((await t.owner.client.rpc("move_task", { task_id: task.id, status_id: todo })).error).toBeNull();
    // a second card in the column, and the first moved under it: positions only
    const second = await createTask(t.owner, t.project, { title: "Second" });
    await t.owner.client.rpc("move_task", { task_id: second.id, status_id: todo, position: 0 });
    expect(
      (await t.owner.client.rpc("move_task", { task_id: task.id, status_id: todo, position: 1 })).error,
    ).toBeNull();

    expect(await eventsOf(stack, task.id)).toEqual([
      {
        kind: "task_created",
        actor_id: t.member.id,
        data: {
          title: "Write the brief",
          status: status(backlog, "Backlog"),
          assignee: null,
          parent: null,
          mentions: [],
        },
      },
      {
        kind: "task_updated",
        actor_id: t.member.id,
        data: {
          changes: {
            title: { from: "Write the brief", to: "Write the short brief" },
            priority: { from: "none", to: "high" },
            due_on: { from: null, to: "2026-12-24" },
          },
          mentions: [],
        },
      },
      {
        kind: "task_updated",
        actor_id: t.member.id,
        data: { changes: { labels: { added: [label("docs"), label("q4")], removed: [] } }, mentions: [] },
      },
      {
        kind: "task_updated",
        actor_id: t.owner.id,
        data: { changes: { status: { from: status(backlog, "Backlog"), to: status(todo, "To do") } }, mentions: [] },
      },
    ]);
  });

  it("records assignees set and cleared, a description edit, labels removed", async () => {
    const task = await createTask(t.owner, t.project, { description: "old", assignee_id: t.member.id });
    await t.owner.client.from("tasks").update({ assignee_id: t.other.id, description: "new" }).eq("id", task.id);
    await t.owner.client.rpc("set_task_labels", { task_id: task.id, names: ["x"] });
    await t.owner.client.from("tasks").update({ assignee_id: null }).eq("id", task.id);
    await t.owner.client.rpc("set_task_labels", { task_id: task.id, names: [] });
    const events = await eventsOf(stack, task.id);
    expect(events.map((e) => e.data.changes)).toEqual([
      undefined,
      // the one-assignee column written: the task's assignees, before and after (…_task_assignees.sql)
      { assignees: { from: [t.member.id], to: [t.other.id] }, description: { from: "old", to: "new" } },
      { labels: { added: [label("x")], removed: [] } },
      { assignees: { from: [t.other.id], to: [] } },
      { labels: { added: [], removed: [label("x")] } },
    ]);
  });

  it("records checklist items added, ticked, renamed, unticked and removed, but not reordered", async () => {
    const task = await createTask(t.owner, t.project);
    const add = async (title: string) =>
      (await t.member.client.from("checklist_items").insert({ task_id: task.id, title }).select("id").single()).data!
        .id as string;
    const item = await add("Book the room");
    const second = await add("Send the invite");
    await t.member.client.from("checklist_items").update({ done: true }).eq("id", item);
    await t.owner.client.from("checklist_items").update({ title: "Book the big room" }).eq("id", item);
    await t.owner.client.from("checklist_items").update({ done: false }).eq("id", item);
    expect((await t.member.client.rpc("move_checklist_item", { item_id: second, position: 0 })).error).toBeNull();
    await t.member.client.from("checklist_items").delete().eq("id", item);
    expect((await eventsOf(stack, task.id)).slice(1)).toEqual([
      { kind: "checklist_item_added", actor_id: t.member.id, data: { item_id: item, text: "Book the room" } },
      { kind: "checklist_item_added", actor_id: t.member.id, data: { item_id: second, text: "Send the invite" } },
      { kind: "checklist_item_ticked", actor_id: t.member.id, data: { item_id: item, text: "Book the room" } },
      {
        kind: "checklist_item_renamed",
        actor_id: t.owner.id,
        data: { item_id: item, from: "Book the room", to: "Book the big room" },
      },
      { kind: "checklist_item_unticked", actor_id: t.owner.id, data: { item_id: item, text: "Book the big room" } },
      { kind: "checklist_item_removed", actor_id: t.member.id, data: { item_id: item, text: "Book the big room" } },
    ]);
  });

  it("records a sub-task on its parent (added, deleted) and its parent on the sub-task", async () => {
    const parent = await createTask(t.owner, t.project, { title: "Launch" });
    const { data: child, error } = await t.member.client
      .from("tasks")
      .insert({ project_id: t.project, title: "Write the post", parent_id: parent.id })
      .select("id, number")
      .single();
    expect(error).toBeNull();
    expect((await eventsOf(stack, child!.id))[0].data.parent).toEqual({
      id: parent.id,
      number: parent.number,
      title: "Launch",
      project_key: "RT",
    });
    await t.owner.client.from("tasks").delete().eq("id", child!.id);
    const sub = { subtask_id: child!.id, number: child!.number, title: "Write the post" };
    expect((await eventsOf(stack, parent.id)).slice(1)).toEqual([
      { kind: "subtask_added", actor_id: t.member.id, data: sub },
      { kind: "subtask_removed", actor_id: t.owner.id, data: sub },
    ]);
  });

  it("records a relation on both tasks, each as it reads it", async () => {
    const a = await createTask(t.owner, t.project, { title: "Fix the build" });
    const b = await createTask(t.owner, t.project, { title: "Release" });
    const { data: rel } = await t.member.client
      .from("task_relations")
      .insert({ from_task_id: a.id, to_task_id: b.id, kind: "blocks" })
      .select("id")
      .single();
    await t.owner.client.from("task_relations").delete().eq("id", rel!.id);
    const side = (relation: string, other: { id: string; number: number }, title: string) => ({
      relation,
      other_task_id: other.id,
      number: other.number,
      title,
      project_key: "RT",
    });
    expect((await eventsOf(stack, a.id)).slice(1)).toEqual([
      { kind: "relation_added", actor_id: t.member.id, data: side("blocks", b, "Release") },
      { kind: "relation_removed", actor_id: t.owner.id, data: side("blocks", b, "Release") },
    ]);
    expect((await eventsOf(stack, b.id)).slice(1)).toEqual([
      { kind: "relation_added", actor_id: t.member.id, data: side("blocked_by", a, "Fix the build") },
      { kind: "relation_removed", actor_id: t.owner.id, data: side("blocked_by", a, "Fix the build") },
    ]);
  });

  it("records comments posted, edited and deleted, and attachments added and removed", async () => {
    const task = await createTask(t.owner, t.project);
    const id = await comment(t.member, task.id, "First thoughts");
    await t.member.client.from("comments").update({ body: "Second thoughts" }).eq("id", id);
    await t.owner.client.from("comments").delete().eq("id", id);
    const { data: file } = await t.member.client
      .from("attachments")
      .insert({ task_id: task.id, object_path: `${task.id}/plan.pdf`, file_name: "plan.pdf", size_bytes: 1200 })
      .select("id")
      .single();
    await t.member.client.from("attachments").delete().eq("id", file!.id);
    const events = (await eventsOf(stack, task.id)).slice(1);
    expect(events).toEqual([
      { kind: "comment_posted", actor_id: t.member.id, data: { comment_id: id, mentions: [] } },
      { kind: "comment_edited", actor_id: t.member.id, data: { comment_id: id, mentions: [] } },
      { kind: "comment_deleted", actor_id: t.owner.id, data: { comment_id: id } },
      {
        kind: "attachment_added",
        actor_id: t.member.id,
        data: {
          attachment_id: file!.id,
          file_name: "plan.pdf",
          size_bytes: 1200,
          content_type: "application/octet-stream",
        },
      },
      { kind: "attachment_removed", actor_id: t.member.id, data: { attachment_id: file!.id, file_name: "plan.pdf" } },
    ]);
  });

  it("records the service role's changes with no actor", async () => {
    const task = await createTask(t.owner, t.project);
    const { error } = await stack
      .adminClient()
      .from("tasks")
      .update({ title: "Renamed by a script" })
      .eq("id", task.id);
    expect(error).toBeNull();
    const last = (await eventsOf(stack, task.id)).at(-1)!;
    expect(last).toMatchObject({ kind: "task_updated", actor_id: null });
  });

  it("merges the statements of one transaction by one person into one event; a field changed back drops out", async () => {
    const task = await createTask(t.owner, t.project, { title: "Before" });
    const asOwner = { role: "authenticated", claims: { sub: t.owner.id, role: "authenticated", aud: "authenticated" } };
    await stack.db.asRequest(asOwner, async (tx) => {
      await tx.query("update tasks set title = 'Middle', priority = 'low' where id = $1", [task.id]);
      await tx.query("update tasks set title = 'After', priority = 'none' where id = $1", [task.id]);
      await tx.query("select set_task_labels($1, '{a}')", [task.id]);
    });
    // labels taken off after a field edit of the same save stay in the event
    await stack.db.asRequest(asOwner, async (tx) => {
      await tx.query("update tasks set title = 'Final' where id = $1", [task.id]);
      await tx.query("select set_task_labels($1, '{}')", [task.id]);
    });
    const events = await eventsOf(stack, task.id);
    expect(events.map((e) => e.data.changes)).toEqual([
      undefined,
      { title: { from: "Before", to: "After" }, labels: { added: [label("a")], removed: [] } },
      { title: { from: "After", to: "Final" }, labels: { added: [], removed: [label("a")] } },
    ]);
  });

  it("keeps a task's events when it is deleted, with who deleted it; the team still reads them", async () => {
    const task = await createTask(t.owner, t.project, { title: "Short-lived" });
    await comment(t.member, task.id, "Bye");
    const { data: before } = await t.viewer.client.from("task_events").select("id").eq("task_id", task.id);
    const { error } = await t.owner.client.from("tasks").delete().eq("id", task.id);
    expect(error).toBeNull();
    expect(await eventsOf(stack, task.id)).toEqual([]);
    const ids = (before ?? []).map((e) => e.id);
    expect(ids).toHaveLength(2);
    // the viewer reads them all, named as the task was, and the deletion last
    const { data: after } = await t.viewer.client
      .from("task_events")
      .select("id, kind, actor_id, task_id, task_number, task_title, data")
      .or(`id.in.(${ids.join(",")}),and(kind.eq.task_deleted,task_title.eq.Short-lived)`)
      .order("created_at")
      .order("id");
    expect(after?.map((e) => [e.kind, e.task_id, e.task_number, e.task_title])).toEqual([
      ["task_created", null, task.number, "Short-lived"],
      ["comment_posted", null, task.number, "Short-lived"],
      ["task_deleted", null, task.number, "Short-lived"],
    ]);
    expect(after?.at(-1)).toMatchObject({ actor_id: t.owner.id, data: { number: task.number, title: "Short-lived" } });
  });

  it("removes a project's events with the project (no record of each task there)", async () => {
    const { data: project, error } = await stack
      .adminClient()
      .from("projects")
      .insert({ team_id: t.team, key: "GONE", name: "Gone" })
      .select("id")
      .single();
    if (error) throw error;
    const task = await createTask(t.owner, project.id);
    expect(await eventsOf(stack, task.id)).toHaveLength(1);
    expect((await stack.adminClient().from("projects").delete().eq("id", project.id)).error).toBeNull();
    const { rows } = await stack.db.query("select 1 from task_events where project_id = $1", [project.id]);
    expect(rows).toEqual([]);
  });

  it("prune-activity (daily) deletes events older than two years, nothing newer", async () => {
    const task = await createTask(t.owner, t.project);
    await stack.db.query(
      `insert into task_events (team_id, project_id, task_id, kind, created_at)
       values ($1, $2, $3, 'task_updated', now() - interval '2 years 1 day'),
              ($1, $2, $3, 'task_updated', now() - interval '2 years' + interval '1 day')`,
      [t.team, t.project, task.id],
    );
    expect((await eventsOf(stack, task.id)).map((e) => e.kind)).toEqual([
      "task_updated",
      "task_updated",
      "task_created",
    ]);
    expect(await stack.scheduler.cron.runNow("prune-activity")).toMatchObject({ status: "succeeded" });
    expect((await eventsOf(stack, task.id)).map((e) => e.kind)).toEqual(["task_updated", "task_created"]);
  });
});

describe("who can see and touch events", () => {
  it("team members (viewers too) read the team's events; an outsider and anon read none", async () => {
    const task = await createTask(t.owner, t.project);
    const read = async (client: typeof t.owner.client) =>
      (await client.from("task_events").select("kind").eq("task_id", task.id)).data ?? [];
    expect(await read(t.viewer.client)).toEqual([{ kind: "task_created" }]);
    expect(await read(t.member.client)).toHaveLength(1);
    expect(await read(t.outsider.client)).toEqual([]);
    expect(await read(stack.anonClient())).toEqual([]);
  });

  it("nobody asks the database who in a team a text mentions (it would tell who is in the team)", async () => {
    const probe = { team_id: t.team, body: `@${t.member.username}` };
    expect((await t.outsider.client.rpc("mentioned_members", probe)).error?.code).toBe("42501");
    expect((await t.member.client.rpc("mentioned_members", probe)).error?.code).toBe("42501");
  });

  it("nobody inserts, edits or deletes an event, not even the service role", async () => {
    const task = await createTask(t.owner, t.project);
    const forged = { team_id: t.team, project_id: t.project, task_id: task.id, kind: "task_created", data: {} };
    for (const client of [t.owner.client, t.outsider.client, stack.anonClient(), stack.adminClient()]) {
      const insert = await client.from("task_events").insert(forged);
      expect(insert.error?.code).toBe("42501");
      const update = await client
        .from("task_events")
        .update({ data: { forged: true } })
        .eq("task_id", task.id);
      expect(update.error?.code).toBe("42501");
      const remove = await client.from("task_events").delete().eq("task_id", task.id);
      expect(remove.error?.code).toBe("42501");
    }
    expect(await eventsOf(stack, task.id)).toEqual([
      {
        kind: "task_created",
        actor_id: t.owner.id,
        data: {
          title: "A task",
          status: status(await statusId(stack, t.project, "Backlog"), "Backlog"),
          assignee: null,
          parent: null,
          mentions: [],
        },
      },
    ]);
  });
});

describe("watching", () => {
  it("the creator, the assignee, commenters and the mentioned watch; Watch and Stop watching are each person's own", async () => {
    const task = await createTask(t.owner, t.project, { assignee_id: t.member.id });
    await comment(t.other, task.id, `Looping in @${t.viewer.username}`);
    const watchers = async () =>
      ((await t.viewer.client.from("task_watchers").select("user_id").eq("task_id", task.id)).data ?? [])
        .map((w) => w.user_id as string)
        .sort();
    expect(await watchers()).toEqual([t.owner.id, t.member.id, t.other.id, t.viewer.id].sort());

    // stop watching: one's own row only
    expect(
      (await t.member.client.from("task_watchers").delete().eq("task_id", task.id).eq("user_id", t.other.id)).error,
    ).toBeNull();
    expect(await watchers()).toContain(t.other.id);
    await t.member.client.from("task_watchers").delete().eq("task_id", task.id).eq("user_id", t.member.id);
    expect(await watchers()).not.toContain(t.member.id);
    // watch again; not on someone else's behalf, not as an outsider
    expect(
      (await t.member.client.from("task_watchers").insert({ task_id: task.id, user_id: t.member.id })).error,
    ).toBeNull();
    expect(
      (await t.member.client.from("task_watchers").insert({ task_id: task.id, user_id: t.outsider.id })).error?.code,
    ).toBe("42501");
    expect(
      (await t.outsider.client.from("task_watchers").insert({ task_id: task.id, user_id: t.outsider.id })).error?.code,
    ).toBe("42501");
    expect((await t.outsider.client.from("task_watchers").select("user_id").eq("task_id", task.id)).data).toEqual([]);
    expect(await watchers()).toContain(t.member.id);
  });
});
