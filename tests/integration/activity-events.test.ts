/**
 * Task events (PRODUCT.md §10 "Activity"): written by the database for every
 * change, whoever makes it and through whichever client; one event per save;
 * readable by the team's members only; nobody can write, change or delete
 * one. Every change here is made through the REST API with a person's own
 * token (supabase-js), as the app or anyone holding the token would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityTeam, comment, createTask, eventsOf, type ActivityTeam } from "../support/activity.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
let t: ActivityTeam;

beforeAll(async () => {
  stack = await startTestStack();
  t = await activityTeam(stack);
});
afterAll(() => stack?.close());

describe("events for each change, with their actor", () => {
  it("records a task's creation, a save of several fields as one event, a move, and not a move within its column", async () => {
    const task = await createTask(t.member, t.project, { title: "Write the brief" });
    const save = await t.member.client
      .from("tasks")
      .update({ title: "Write the short brief", priority: "high", due_on: "2026-12-24", labels: ["docs", "q4"] })
      .eq("id", task.id);
    expect(save.error).toBeNull();
    expect((await t.owner.client.rpc("move_task", { task_id: task.id, status: "todo" })).error).toBeNull();
    // a second card in the column, and the first moved under it: positions only
    const second = await createTask(t.owner, t.project, { title: "Second" });
    await t.owner.client.rpc("move_task", { task_id: second.id, status: "todo", position: 0 });
    expect((await t.owner.client.rpc("move_task", { task_id: task.id, status: "todo", position: 1 })).error).toBeNull();

    expect(await eventsOf(stack, task.id)).toEqual([
      {
        kind: "task_created",
        actor_id: t.member.id,
        data: { title: "Write the brief", status: "backlog", assignee: null, mentions: [] },
      },
      {
        kind: "task_updated",
        actor_id: t.member.id,
        data: {
          changes: {
            title: { from: "Write the brief", to: "Write the short brief" },
            priority: { from: "none", to: "high" },
            due_on: { from: null, to: "2026-12-24" },
            labels: { added: ["docs", "q4"], removed: [] },
          },
          mentions: [],
        },
      },
      {
        kind: "task_updated",
        actor_id: t.owner.id,
        data: { changes: { status: { from: "backlog", to: "todo" } }, mentions: [] },
      },
    ]);
  });

  it("records assignee set and cleared, a description edit, labels removed", async () => {
    const task = await createTask(t.owner, t.project, { description: "old", assignee_id: t.member.id });
    await t.owner.client
      .from("tasks")
      .update({ assignee_id: t.other.id, description: "new", labels: ["x"] })
      .eq("id", task.id);
    await t.owner.client.from("tasks").update({ assignee_id: null, labels: [] }).eq("id", task.id);
    const events = await eventsOf(stack, task.id);
    expect(events.map((e) => e.data.changes)).toEqual([
      undefined,
      {
        assignee: { from: t.member.id, to: t.other.id },
        description: { from: "old", to: "new" },
        labels: { added: ["x"], removed: [] },
      },
      { assignee: { from: t.other.id, to: null }, labels: { added: [], removed: ["x"] } },
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

  it("merges two statements of one transaction by one person into one event; a field changed back drops out", async () => {
    const task = await createTask(t.owner, t.project, { title: "Before" });
    await stack.db.asRequest(
      { role: "authenticated", claims: { sub: t.owner.id, role: "authenticated", aud: "authenticated" } },
      async (tx) => {
        await tx.query("update tasks set title = 'Middle', priority = 'low' where id = $1", [task.id]);
        await tx.query("update tasks set title = 'After', priority = 'none', labels = '{a}' where id = $1", [task.id]);
      },
    );
    const events = await eventsOf(stack, task.id);
    expect(events).toHaveLength(2);
    expect(events[1].data.changes).toEqual({
      title: { from: "Before", to: "After" },
      labels: { added: ["a"], removed: [] },
    });
  });

  it("keeps a task's events with it and removes them with it", async () => {
    const task = await createTask(t.owner, t.project);
    await comment(t.member, task.id, "Bye");
    const { error } = await t.owner.client.from("tasks").delete().eq("id", task.id);
    expect(error).toBeNull();
    expect(await eventsOf(stack, task.id)).toEqual([]);
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
        data: { title: "A task", status: "backlog", assignee: null, mentions: [] },
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
