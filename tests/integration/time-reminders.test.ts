/**
 * Due-date reminders and recurring tasks in the database (PRODUCT.md §12):
 * the due-reminders job run by the stack's scheduler on a clock the test
 * moves (08:00 in each person's zone, once, not for completed tasks, not for
 * the person's own change), a repeating task's successor made once per
 * completion through the API (supabase-js as the person), and the new
 * table's and columns' row-level security called with another person's token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../stack/cron/clock.ts";
import { makePerson, makeTeam, type Person } from "../support/realtime.ts";
import { advanceClock } from "../support/cron-clock.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const at = (iso: string) => Date.parse(iso);
const clock = new ManualClock(at("2026-11-26T06:50:00Z"));
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ scheduler: { cron: true, clock } });
  // the migrations' other job (send-notifications every minute) is not what these tests watch
  await stack.db.query("select cron.unschedule('send-notifications')");
});
afterAll(() => stack?.close());

const advanceTo = (iso: string) => advanceClock(stack, clock, iso);

async function zone(person: Person, timeZone: string) {
  await stack.db.query("update profiles set time_zone = $2 where id = $1", [person.id, timeZone]);
}

async function task(project: string, fields: { assignee?: string; due_on?: string; status?: string; title?: string }) {
  const { rows } = await stack.db.query<{ id: string }>(
    `insert into tasks (project_id, title, status, assignee_id, due_on) values ($1, $2, $3, $4, $5) returning id`,
    [project, fields.title ?? "A task", fields.status ?? "todo", fields.assignee ?? null, fields.due_on ?? null],
  );
  return rows[0].id;
}

async function reminders(taskIds: string[]) {
  const { rows } = await stack.db.query<{ task_id: string; recipient_id: string; due_on: string; day: string }>(
    `select task_id, recipient_id, due_on::text, day from due_reminders where task_id = any($1::uuid[])
     order by created_at, day`,
    [taskIds],
  );
  return rows.map((r) => `${taskIds.indexOf(r.task_id)}:${r.day}:${r.due_on}`);
}

async function jobRuns() {
  const { rows } = await stack.db.query<{ n: number }>(
    `select count(*)::int as n from cron.job_run_details d join cron.job j using (jobid)
     where j.jobname = 'due-reminders' and d.status = 'succeeded'`,
  );
  return rows[0].n;
}

describe("due-date reminders", () => {
  it("reach each person at 08:00 in their own zone, the day before and on the day, once; not for completed tasks", async () => {
    const berlin = await makePerson(stack, "berlin");
    const newYork = await makePerson(stack, "newyork");
    const { project } = await makeTeam(stack, [
      [berlin, "owner"],
      [newYork, "member"],
    ]);
    await zone(berlin, "Europe/Berlin"); // 08:00 is 07:00 UTC in November
    await zone(newYork, "America/New_York"); // 08:00 is 13:00 UTC
    const tasks = [
      await task(project, { assignee: berlin.id, due_on: "2026-11-27" }),
      await task(project, { assignee: newYork.id, due_on: "2026-11-27" }),
      await task(project, { assignee: berlin.id, due_on: "2026-11-27", status: "done" }),
      await task(project, { assignee: newYork.id, due_on: "2026-11-27", status: "canceled" }),
      await task(project, { due_on: "2026-11-27" }), // nobody's
      await task(project, { assignee: berlin.id, due_on: "2026-11-30" }), // not yet
    ];

    await advanceTo("2026-11-26T06:59:00Z");
    expect(await reminders(tasks)).toEqual([]);
    await advanceTo("2026-11-26T07:00:30Z");
    expect(await reminders(tasks)).toEqual(["0:before:2026-11-27"]);
    await advanceTo("2026-11-26T12:59:00Z");
    expect(await reminders(tasks)).toEqual(["0:before:2026-11-27"]);
    await advanceTo("2026-11-26T13:00:30Z");
    expect(await reminders(tasks)).toEqual(["0:before:2026-11-27", "1:before:2026-11-27"]);
    expect(await jobRuns()).toBe(25); // every quarter hour from 07:00 to 13:00

    // the job run again at once adds nothing
    const again = await stack.scheduler.cron.runNow("due-reminders");
    expect(again.status).toBe("succeeded");
    expect(await reminders(tasks)).toEqual(["0:before:2026-11-27", "1:before:2026-11-27"]);

    // the next day, a late run (the scheduler was down at 07:00 UTC) still reminds Berlin on the due date; New York's 08:00 is to come
    await clock.set(at("2026-11-27T11:22:00Z")); // (not a quarter hour: only runNow runs)
    await stack.scheduler.cron.settled();
    await stack.scheduler.cron.runNow("due-reminders");
    expect(await reminders(tasks)).toEqual(["0:before:2026-11-27", "1:before:2026-11-27", "0:due:2026-11-27"]);
    await clock.set(at("2026-11-27T13:17:00Z"));
    await stack.scheduler.cron.settled();
    await stack.scheduler.cron.runNow("due-reminders");
    await stack.scheduler.cron.runNow("due-reminders");
    expect(await reminders(tasks)).toEqual([
      "0:before:2026-11-27",
      "1:before:2026-11-27",
      "0:due:2026-11-27",
      "1:due:2026-11-27",
    ]);
    // a day gone by is not caught up: the 28th reminds of nothing due on the 27th
    await clock.set(at("2026-11-28T13:17:00Z"));
    await stack.scheduler.cron.settled();
    await stack.scheduler.cron.runNow("due-reminders");
    expect(await reminders(tasks)).toHaveLength(4);
  });

  it("not for the person's own change: a due date they set themselves after that day's 08:00", async () => {
    // a zone where it is now past 09:00 and before 23:00, so the day-before reminder's 08:00 has gone
    const hour = new Date().getUTCHours();
    const offset = [...Array(27).keys()]
      .map((i) => i - 12)
      .find((h) => (hour + h + 24) % 24 >= 9 && (hour + h + 24) % 24 < 23)!;
    const timeZone = offset === 0 ? "UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`; // Etc/GMT-3 is UTC+3
    const me = await makePerson(stack, "self");
    const lead = await makePerson(stack, "lead");
    const { project } = await makeTeam(stack, [
      [me, "owner"],
      [lead, "member"],
    ]);
    await zone(me, timeZone);
    const { rows } = await stack.db.query<{ tomorrow: string }>(
      "select ((now() at time zone $1)::date + 1)::text as tomorrow",
      [timeZone],
    );
    const tomorrow = rows[0].tomorrow;
    const mine = await task(project, { assignee: me.id, title: "Mine" });
    const theirs = await task(project, { assignee: me.id, title: "Theirs" });
    expect((await me.client.from("tasks").update({ due_on: tomorrow }).eq("id", mine)).error).toBeNull();
    expect((await lead.client.from("tasks").update({ due_on: tomorrow }).eq("id", theirs)).error).toBeNull();

    // the rule itself, at this moment (the clock the job reads is the test's; this change was made now)
    await stack.db.query("select remind_due_tasks(now())");
    expect(await reminders([mine, theirs])).toEqual([`1:before:${tomorrow}`]);
  });

  it("are each person's own: nobody reads another's, and nobody writes them", async () => {
    const owner = await makePerson(stack, "owner");
    const other = await makePerson(stack, "other");
    const { project } = await makeTeam(stack, [
      [owner, "owner"],
      [other, "member"],
    ]);
    const id = await task(project, { assignee: owner.id, due_on: "2026-12-02" });
    await stack.db.query("select remind_due_tasks('2026-12-01T12:00:00Z')");

    const mine = await owner.client.from("due_reminders").select("task_id, day").eq("task_id", id);
    expect(mine.data).toEqual([{ task_id: id, day: "before" }]);
    const theirs = await other.client.from("due_reminders").select("task_id").eq("task_id", id);
    expect(theirs.data).toEqual([]);
    const write = await owner.client
      .from("due_reminders")
      .insert({ task_id: id, recipient_id: owner.id, due_on: "2026-12-09", day: "due" });
    expect(write.error?.code).toBe("42501");
    const call = await owner.client.rpc("remind_due_tasks", { run_at: "2026-12-02T12:00:00Z" });
    expect(call.error?.code).toBe("42501");
  });
});

describe("recurring tasks, through the API", () => {
  async function complete(person: Person, id: string) {
    for (const status of ["in_progress", "done"]) {
      const { error } = await person.client.rpc("move_task", { task_id: id, status });
      expect(error).toBeNull();
    }
  }

  it("completing makes the next task of the series once per completion; stop repeating ends it", async () => {
    const owner = await makePerson(stack, "repeat");
    const viewer = await makePerson(stack, "viewer");
    const { project } = await makeTeam(stack, [
      [owner, "owner"],
      [viewer, "viewer"],
    ]);
    const created = await owner.client
      .from("tasks")
      .insert({
        project_id: project,
        title: "Water the plants",
        description: "All of them",
        status: "todo",
        priority: "high",
        assignee_id: owner.id,
        due_on: "2026-11-27",
        labels: ["home"],
        recurrence: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR",
      })
      .select("id")
      .single();
    expect(created.error).toBeNull();
    const first = created.data!.id;

    await complete(owner, first);
    const series = async () =>
      (
        await owner.client
          .from("tasks")
          .select("id, title, description, status, priority, assignee_id, due_on, labels, recurrence, successor_id")
          .eq("project_id", project)
          .order("number")
      ).data!;
    let tasks = await series();
    expect(tasks).toHaveLength(2);
    expect(tasks[0]).toMatchObject({ id: first, status: "done", successor_id: tasks[1].id });
    expect(tasks[1]).toMatchObject({
      title: "Water the plants",
      description: "All of them",
      status: "todo",
      priority: "high",
      assignee_id: owner.id,
      due_on: "2026-11-30",
      labels: ["home"],
      recurrence: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR",
      successor_id: null,
    });

    // reopened and completed again: still one successor
    expect((await owner.client.rpc("move_task", { task_id: first, status: "todo" })).error).toBeNull();
    await complete(owner, first);
    expect(await series()).toHaveLength(2);

    // nobody writes successor_id; a viewer can't complete
    const forged = await owner.client.from("tasks").update({ successor_id: null }).eq("id", first);
    expect(forged.error?.code).toBe("42501");
    expect((await viewer.client.rpc("move_task", { task_id: tasks[1].id, status: "in_progress" })).error?.code).toBe(
      "42501",
    );

    // stop repeating: the next completion makes nothing
    expect((await owner.client.from("tasks").update({ recurrence: null }).eq("id", tasks[1].id)).error).toBeNull();
    await complete(owner, tasks[1].id);
    tasks = await series();
    expect(tasks).toHaveLength(2);
    expect(tasks[1]).toMatchObject({ status: "done", successor_id: null });
  });

  it("refuses a rule it can't compute and a repeating task without a due date", async () => {
    const owner = await makePerson(stack, "rules");
    const { project } = await makeTeam(stack, [[owner, "owner"]]);
    const insert = (fields: Record<string, unknown>) =>
      owner.client.from("tasks").insert({ project_id: project, title: "Rule", ...fields });
    expect((await insert({ recurrence: "FREQ=DAILY;INTERVAL=1" })).error?.code).toBe("23514");
    expect((await insert({ recurrence: "FREQ=HOURLY;INTERVAL=1", due_on: "2026-11-27" })).error?.code).toBe("23514");
    expect(
      (await insert({ recurrence: "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1", due_on: "2026-11-30" })).error,
    ).toBeNull();
  });
});
