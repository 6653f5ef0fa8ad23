/**
 * Archive and trash (docs/product.md §18, docs/decisions/0045): every call
 * through the REST API with a person's own token (supabase-js), so row-level
 * security and the functions' own checks decide. Archived tasks leave the
 * board, list and search (found with the filter) and come back at the end of
 * their column; deleted ones go to the trash with everything they had,
 * restorable by admins+ (whoever could delete them), and the purge-trash job,
 * run by the stack's scheduler on a clock the test moves, removes them 30
 * days later while their activity stays.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../stack/cron/clock.ts";
import { activityTeam, comment, createTask, statusId, type ActivityTeam } from "../support/activity.ts";
import { advanceClock } from "../support/cron-clock.ts";
import { Inbox, subscribed } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

// the scheduler's clock starts at 03:20 UTC a month from now; the job runs at 03:29
const DAY = 86_400_000;
const jobDay = new Date(Math.floor((Date.now() + 31 * DAY) / DAY) * DAY);
const at = (hhmm: string) => `${jobDay.toISOString().slice(0, 10)}T${hhmm}:00Z`;
const clock = new ManualClock(Date.parse(at("03:20")));

let stack: TestStack;
let t: ActivityTeam;
let slug: string;
let todo: string;

beforeAll(async () => {
  stack = await startTestStack({ scheduler: { cron: true, clock } });
  await stack.db.query("select cron.unschedule('send-notifications')");
  t = await activityTeam(stack);
  slug = (await stack.db.query<{ slug: string }>("select slug from teams where id = $1", [t.team])).rows[0].slug;
  todo = await statusId(stack, t.project, "To do");
});
afterAll(async () => {
  await t?.member.client.removeAllChannels();
  await stack?.close();
});

/** Three tasks in To do, made by the owner, in this order (positions 0, 1, 2 when the column was empty). */
async function column(prefix: string) {
  const made = [];
  for (const n of [1, 2, 3]) {
    const task = await createTask(t.owner, t.project, { title: `${prefix} ${n}` });
    expect((await t.owner.client.rpc("move_task", { task_id: task.id, status_id: todo })).error).toBeNull();
    made.push(task);
  }
  return made;
}

/** The board's To do column as the member reads it: titles in order, with positions. */
async function board(prefix: string) {
  const { data, error } = await t.member.client.rpc("board_view", { team_slug: slug, project_key: "RT" });
  expect(error).toBeNull();
  const statuses = (data as { statuses: { id: string; cards: { title: string; position: number }[] }[] }).statuses;
  return statuses
    .find((s) => s.id === todo)!
    .cards.filter((c) => c.title.startsWith(prefix))
    .map((c) => c.title);
}

async function positions(prefix: string) {
  const { rows } = await stack.db.query<{ title: string; position: number }>(
    `select title, position from tasks where project_id = $1 and status_id = $2
       and archived_at is null and deleted_at is null order by position`,
    [t.project, todo],
  );
  const all = rows.map((r) => r.position);
  expect(all).toEqual(all.map((_, i) => i)); // the column's places stay 0..n-1
  return rows.filter((r) => r.title.startsWith(prefix)).map((r) => r.title);
}

describe("archive", () => {
  it("takes a task off the board, list and search, finds it with the filter, and puts it back at the end", async () => {
    const [a, b] = await column("Arch");
    expect((await t.viewer.client.rpc("archive_task", { task_id: a.id })).error?.code).toBe("42501");
    expect((await t.member.client.rpc("archive_task", { task_id: a.id })).error).toBeNull();

    expect(await board("Arch")).toEqual(["Arch 2", "Arch 3"]);
    expect(await positions("Arch")).toEqual(["Arch 2", "Arch 3"]);
    const list = await t.member.client.rpc("task_table", { project_id: t.project });
    expect((list.data as { title: string }[]).map((r) => r.title)).not.toContain("Arch 1");
    const found = await t.member.client.rpc("search_tasks", { query: "Arch" });
    expect((found.data as { title: string }[]).map((r) => r.title).sort()).toEqual(["Arch 2", "Arch 3"]);
    const archived = await t.member.client.rpc("search_tasks", { query: "Arch", archived: true });
    expect((archived.data as { title: string }[]).map((r) => r.title)).toEqual(["Arch 1"]);
    // still readable at its address (the task page), and not movable on a board it isn't on
    expect((await t.member.client.from("tasks").select("id").eq("id", a.id)).data).toHaveLength(1);
    const move = await t.member.client.rpc("move_task", { task_id: a.id, status_id: todo, position: 0 });
    expect(move.error?.message).toMatch(/archived/);

    // a task made meanwhile takes the next place; the unarchived one comes after it
    await t.member.client.rpc("move_task", { task_id: b.id, status_id: todo, position: 0 });
    expect((await t.member.client.rpc("archive_task", { task_id: a.id, archived: false })).error).toBeNull();
    expect(await board("Arch")).toEqual(["Arch 2", "Arch 3", "Arch 1"]);
    expect(await positions("Arch")).toEqual(["Arch 2", "Arch 3", "Arch 1"]);
  });

  it("notifies nobody about an archived task", async () => {
    const task = await createTask(t.owner, t.project, { title: "Quiet", assignee_id: t.other.id });
    await t.member.client.rpc("archive_task", { task_id: task.id });
    await comment(t.member, task.id, "Anyone?");
    const { rows } = await stack.db.query("select 1 from notifications where task_id = $1 and kind = 'comment'", [
      task.id,
    ]);
    expect(rows).toHaveLength(0);
  });
});

describe("trash", () => {
  it("hides a deleted task from everyone, restorable by admins+ only, with its comments, attachments and labels", async () => {
    const [a] = await column("Bin");
    await comment(t.member, a.id, "Keep this comment");
    await t.member.client.rpc("set_task_labels", { task_id: a.id, names: ["keep"] });
    await stack.db.query(
      `insert into attachments (task_id, object_path, file_name, size_bytes, uploaded_by)
       values ($1::uuid, $1::text || '/plan.txt', 'plan.txt', 4, $2)`,
      [a.id, t.member.id],
    );

    // only those who may delete (admins+) may send it to the trash
    expect((await t.member.client.rpc("trash_tasks", { task_ids: [a.id] })).error?.code).toBe("42501");
    expect((await t.owner.client.rpc("trash_tasks", { task_ids: [a.id] })).data).toBe(1);

    expect(await board("Bin")).toEqual(["Bin 2", "Bin 3"]);
    expect(await positions("Bin")).toEqual(["Bin 2", "Bin 3"]);
    for (const who of [t.member, t.owner]) {
      expect((await who.client.from("tasks").select("id").eq("id", a.id)).data).toEqual([]);
    }
    // a trashed task can't be changed through the API meanwhile
    await t.owner.client.from("tasks").update({ title: "Changed" }).eq("id", a.id);
    // the trash: admins+ see it, members see nothing and may not restore
    const trash = await t.owner.client.rpc("project_trash", { project_id: t.project });
    expect(
      (trash.data as { title: string; deleted_by_name: string }[]).map((r) => [r.title, r.deleted_by_name]),
    ).toEqual([["Bin 1", "Olive"]]);
    expect((await t.member.client.rpc("project_trash", { project_id: t.project })).data).toEqual([]);
    expect((await t.member.client.rpc("restore_task", { task_id: a.id })).error?.code).toBe("42501");
    expect((await t.member.client.rpc("purge_task", { task_id: a.id })).error?.code).toBe("42501");

    expect((await t.owner.client.rpc("restore_task", { task_id: a.id })).error).toBeNull();
    expect(await board("Bin")).toEqual(["Bin 2", "Bin 3", "Bin 1"]);
    expect(await positions("Bin")).toEqual(["Bin 2", "Bin 3", "Bin 1"]);
    const back = await t.member.client
      .from("tasks")
      .select("title, comments(body), attachments(file_name), labels:task_labels(label:labels(name))")
      .eq("id", a.id)
      .single();
    expect(back.data).toEqual({
      title: "Bin 1",
      comments: [{ body: "Keep this comment" }],
      attachments: [{ file_name: "plan.txt" }],
      labels: [{ label: { name: "keep" } }],
    });
    // restoring twice: it is no longer in the trash
    expect((await t.owner.client.rpc("restore_task", { task_id: a.id })).error?.code).toBe("PT404");
  });

  it("tells an open board through Realtime (its status rows), though the task itself is no longer visible", async () => {
    const task = await createTask(t.owner, t.project, { title: "Live delete" });
    const backlog = await statusId(stack, t.project, "Backlog");
    type Change = { eventType: string; table: string; new: { id?: string } };
    const inbox = new Inbox<Change>();
    // what the board listens to (app/routes/teams.$team.projects.$key.tsx)
    const channel = t.member.client.channel(`trash-${Math.random().toString(36).slice(2)}`);
    for (const table of ["tasks", "project_statuses"]) {
      channel.on(
        "postgres_changes",
        { schema: "public", table, event: "*", filter: `project_id=eq.${t.project}` } as never,
        (change: Change) => inbox.push(change),
      );
    }
    await subscribed(channel);
    await t.owner.client.rpc("trash_tasks", { task_ids: [task.id] });
    const got = await inbox.until((items) => items.some((i) => i.table === "project_statuses"));
    expect(got.filter((i) => i.table === "project_statuses").map((i) => [i.eventType, i.new.id])).toEqual([
      ["UPDATE", backlog],
    ]);
    expect(got.filter((i) => i.new.id === task.id)).toEqual([]);
  });

  it("bulk delete sends tasks to the trash", async () => {
    const [, b, c] = await column("Bulk");
    const done = await t.owner.client.rpc("bulk_edit_tasks", { task_ids: [b.id, c.id], change: "delete" });
    expect(done.error).toBeNull();
    const { rows } = await stack.db.query("select 1 from tasks where id = any($1) and deleted_at is not null", [
      [b.id, c.id],
    ]);
    expect(rows).toHaveLength(2);
    expect(await positions("Bulk")).toEqual(["Bulk 1"]);
  });

  it("purges after 30 days with the scheduled job; the task's activity stays", async () => {
    const old = await createTask(t.owner, t.project, { title: "Old mistake" });
    const recent = await createTask(t.owner, t.project, { title: "Recent mistake" });
    await comment(t.member, old.id, "Gone with it");
    await t.owner.client.rpc("trash_tasks", { task_ids: [old.id, recent.id] });
    // deleted 30 days and a minute, and 29 days, before the job's run at 03:29
    await stack.db.query("update tasks set deleted_at = $2 where id = $1", [
      old.id,
      new Date(Date.parse(at("03:29")) - 30 * DAY - 60_000),
    ]);
    await stack.db.query("update tasks set deleted_at = $2 where id = $1", [
      recent.id,
      new Date(Date.parse(at("03:29")) - 29 * DAY),
    ]);

    await advanceClock(stack, clock, at("03:31"));
    const { rows: runs } = await stack.db.query<{ status: string }>(
      `select d.status from cron.job_run_details d join cron.job j using (jobid) where j.jobname = 'purge-trash'`,
    );
    expect(runs.map((r) => r.status)).toEqual(["succeeded"]);
    const { rows: left } = await stack.db.query<{ title: string }>(
      "select title from tasks where id = any($1) order by title",
      [[old.id, recent.id]],
    );
    expect(left.map((r) => r.title)).toEqual(["Recent mistake"]);
    const { rows: comments } = await stack.db.query("select 1 from comments where task_id = $1", [old.id]);
    expect(comments).toHaveLength(0);

    // one task_deleted event, by the owner, still in the team's activity with the number and title
    const { rows: events } = await stack.db.query<{ kind: string; actor_id: string; task_id: string | null }>(
      `select kind, actor_id, task_id from task_events
       where team_id = $1 and task_number = $2 and project_id = $3 order by created_at, id`,
      [t.team, old.number, t.project],
    );
    expect(events.map((e) => e.kind)).toEqual(["task_created", "comment_posted", "task_deleted"]);
    expect(events.every((e) => e.task_id === null)).toBe(true);
    expect(events.at(-1)!.actor_id).toBe(t.owner.id);
    const activity = await t.member.client.rpc("team_activity", { team_slug: slug });
    expect(JSON.stringify(activity.data)).toContain("Old mistake");
  });
});
