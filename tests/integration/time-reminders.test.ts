/**
 * Due-date reminders and recurring tasks in the database (docs/product.md §12):
 * the due-reminders job run by the stack's scheduler on a clock the test
 * moves (08:00 in each person's zone, once, not for completed tasks, not for
 * the person's own change), each reminder a `due_date` notification (for
 * the assignee, and for watchers who chose due-date emails), a repeating
 * task's successor made once per completion through the API (supabase-js as
 * the person) with its labels and checklist, and the new table's and
 * columns' row-level security called with another person's token.
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

/** A task in the status of that name (a new project's: Backlog, To do, In progress, Done, Canceled). */
async function task(project: string, fields: { assignee?: string; due_on?: string; status?: string; title?: string }) {
  const { rows } = await stack.db.query<{ id: string }>(
    `insert into tasks (project_id, title, status_id, assignee_id, due_on)
     values ($1, $2, (select id from project_statuses where project_id = $1 and name = $3), $4, $5) returning id`,
    [project, fields.title ?? "A task", fields.status ?? "To do", fields.assignee ?? null, fields.due_on ?? null],
  );
  return rows[0].id;
}

async function statusOf(project: string, name: string) {
  const { rows } = await stack.db.query<{ id: string }>(
    "select id from project_statuses where project_id = $1 and name = $2",
    [project, name],
  );
  return rows[0].id;
}

/** The due_date notifications of these tasks: "task index:recipient:email". */
async function notified(taskIds: string[], people: Record<string, Person>) {
  const { rows } = await stack.db.query<{ task_id: string; recipient_id: string; email: string; kind: string }>(
    `select task_id, recipient_id, email, kind from notifications
     where task_id = any($1::uuid[]) and kind = 'due_date'
     order by created_at, recipient_id`,
    [taskIds],
  );
  const name = (id: string) => Object.keys(people).find((k) => people[k].id === id) ?? id;
  return rows.map((r) => `${taskIds.indexOf(r.task_id)}:${name(r.recipient_id)}:${r.kind}:${r.email}`);
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
      await task(project, { assignee: berlin.id, due_on: "2026-11-27", status: "Done" }),
      await task(project, { assignee: newYork.id, due_on: "2026-11-27", status: "Canceled" }),
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
    // each one in the bell; not emailed (due-date emails are off unless chosen)
    expect(await notified(tasks, { berlin, newYork })).toEqual(["0:berlin:due_date:none", "1:newYork:due_date:none"]);

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

  it("reach the task's watchers who chose due-date emails, emailed, at 08:00 in their zone", async () => {
    const lead = await makePerson(stack, "lead-w");
    const keen = await makePerson(stack, "keen");
    const quiet = await makePerson(stack, "quiet");
    const { project } = await makeTeam(stack, [
      [lead, "owner"],
      [keen, "member"],
      [quiet, "member"],
    ]);
    await zone(lead, "UTC");
    await zone(keen, "Asia/Tokyo"); // 08:00 is 23:00 UTC the day before
    await zone(quiet, "UTC");
    const id = await task(project, { assignee: lead.id, due_on: "2026-12-10" });
    await stack.db.query(
      // (the assignee watches already)
      "insert into task_watchers (task_id, user_id) values ($1, $2), ($1, $3), ($1, $4) on conflict do nothing",
      [id, lead.id, keen.id, quiet.id],
    );
    // keen chose due-date emails; quiet kept the default (never): no reminder for a watcher
    await stack.db.query(
      "insert into notification_settings (user_id, kind, email) values ($1, 'due_date', 'instant')",
      [keen.id],
    );
    await stack.db.query("select remind_due_tasks('2026-12-08T23:30:00Z')"); // Tokyo: the 9th, 08:30
    expect(await reminders([id])).toEqual(["0:before:2026-12-10"]);
    expect(await notified([id], { lead, keen, quiet })).toEqual(["0:keen:due_date:pending"]);
    await stack.db.query("select remind_due_tasks('2026-12-09T08:00:00Z')"); // UTC: the 9th, 08:00
    expect(await notified([id], { lead, keen, quiet })).toEqual(["0:keen:due_date:pending", "0:lead:due_date:none"]);
    // keen reads it as their own notification; lead's is lead's
    const mine = await keen.client.from("notifications").select("kind").eq("task_id", id).eq("kind", "due_date");
    expect(mine.data).toEqual([{ kind: "due_date" }]);
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
  async function complete(person: Person, project: string, id: string) {
    for (const name of ["In progress", "Done"]) {
      const { error } = await person.client.rpc("move_task", { task_id: id, status_id: await statusOf(project, name) });
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
        status_id: await statusOf(project, "In progress"),
        priority: "high",
        assignee_id: owner.id,
        due_on: "2026-11-27",
        recurrence: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR",
      })
      .select("id")
      .single();
    expect(created.error).toBeNull();
    const first = created.data!.id;
    expect((await owner.client.rpc("set_task_labels", { task_id: first, names: ["home", "garden"] })).error).toBeNull();
    const items = await owner.client
      .from("checklist_items")
      .insert([
        { task_id: first, title: "Ferns" },
        { task_id: first, title: "Cactus" },
      ])
      .select("id");
    expect(items.error).toBeNull();
    expect(
      (await owner.client.from("checklist_items").update({ done: true }).eq("id", items.data![0].id)).error,
    ).toBeNull();

    await complete(owner, project, first);
    const series = async () =>
      (
        await owner.client
          .from("tasks")
          .select(
            "id, title, description, status_id, priority, assignee_id, due_on, recurrence, successor_id, completed_at",
          )
          .eq("project_id", project)
          .order("number")
      ).data!;
    let tasks = await series();
    expect(tasks).toHaveLength(2);
    const done = await statusOf(project, "Done");
    expect(tasks[0]).toMatchObject({ id: first, status_id: done, successor_id: tasks[1].id });
    // the first unstarted status, whatever the completed one came from
    expect(tasks[1]).toMatchObject({
      title: "Water the plants",
      description: "All of them",
      status_id: await statusOf(project, "To do"),
      priority: "high",
      assignee_id: owner.id,
      due_on: "2026-11-30",
      recurrence: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR",
      successor_id: null,
      completed_at: null,
    });
    // its labels, and its checklist in order with nothing ticked
    const labels = await owner.client.from("task_labels").select("labels(name)").eq("task_id", tasks[1].id);
    expect((labels.data as unknown as Array<{ labels: { name: string } }>).map((l) => l.labels.name).sort()).toEqual([
      "garden",
      "home",
    ]);
    const checklist = await owner.client
      .from("checklist_items")
      .select("title, done, position")
      .eq("task_id", tasks[1].id)
      .order("position");
    expect(checklist.data).toEqual([
      { title: "Ferns", done: false, position: 0 },
      { title: "Cactus", done: false, position: 1 },
    ]);

    // reopened and completed again: still one successor
    expect(
      (await owner.client.rpc("move_task", { task_id: first, status_id: await statusOf(project, "To do") })).error,
    ).toBeNull();
    await complete(owner, project, first);
    expect(await series()).toHaveLength(2);

    // nobody writes successor_id; a viewer can't complete
    const forged = await owner.client.from("tasks").update({ successor_id: null }).eq("id", first);
    expect(forged.error?.code).toBe("42501");
    const inProgress = await statusOf(project, "In progress");
    expect((await viewer.client.rpc("move_task", { task_id: tasks[1].id, status_id: inProgress })).error?.code).toBe(
      "42501",
    );

    // stop repeating: the next completion makes nothing
    expect((await owner.client.from("tasks").update({ recurrence: null }).eq("id", tasks[1].id)).error).toBeNull();
    await complete(owner, project, tasks[1].id);
    tasks = await series();
    expect(tasks).toHaveLength(2);
    expect(tasks[1]).toMatchObject({ status_id: done, successor_id: null });
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

describe("start dates and due times (§17)", () => {
  it("the database checks them and keeps the instant a time names, in the first assignee's zone, else the creator's", async () => {
    const berlin = await makePerson(stack, "start-berlin");
    const tokyo = await makePerson(stack, "start-tokyo");
    const { project } = await makeTeam(stack, [
      [tokyo, "owner"],
      [berlin, "member"],
    ]);
    await zone(berlin, "Europe/Berlin"); // UTC+1 in November
    await zone(tokyo, "Asia/Tokyo"); // UTC+9
    const status = await statusOf(project, "To do");
    const insert = (fields: Record<string, unknown>) =>
      tokyo.client
        .from("tasks")
        .insert({ project_id: project, status_id: status, title: "Dated", ...fields })
        .select("id, due_at")
        .single<{ id: string; due_at: string | null }>();

    const late = await insert({ start_on: "2026-12-05", due_on: "2026-12-04" });
    expect([late.error?.code, late.error?.message]).toEqual([
      "23514",
      expect.stringContaining('"tasks_start_before_due"'),
    ]);
    const timeOnly = await insert({ due_time: "10:00" });
    expect(timeOnly.error?.message).toContain('"tasks_due_time_needs_due_on"');
    expect((await insert({ start_on: "2026-12-04", due_on: "2026-12-04" })).error).toBeNull();
    // a start date alone is fine; a day without a time names no instant
    expect((await insert({ start_on: "2026-12-04" })).data?.due_at).toBeNull();
    expect((await insert({ due_on: "2026-12-04" })).data?.due_at).toBeNull();

    // unassigned: the creator's zone (Tokyo); assigned: the first assignee's (Berlin)
    const made = await insert({ due_on: "2026-11-30", due_time: "14:30" });
    expect(made.error).toBeNull();
    const dueAt = async () =>
      new Date(
        (await tokyo.client.from("tasks").select("due_at").eq("id", made.data!.id).single<{ due_at: string }>()).data!
          .due_at,
      ).toISOString();
    expect(await dueAt()).toBe("2026-11-30T05:30:00.000Z");
    expect(
      (await tokyo.client.rpc("set_task_assignees", { task_id: made.data!.id, people: [berlin.id] })).error,
    ).toBeNull();
    expect(await dueAt()).toBe("2026-11-30T13:30:00.000Z");
    expect(
      (await tokyo.client.rpc("save_task", { task_id: made.data!.id, changes: { due_time: "09:05" } })).error,
    ).toBeNull();
    expect(await dueAt()).toBe("2026-11-30T08:05:00.000Z");
    // the same refusal through the form's call, and nobody writes the instant itself
    const refused = await tokyo.client.rpc("save_task", {
      task_id: made.data!.id,
      changes: { start_on: "2026-12-01" },
    });
    expect(refused.error?.message).toContain('"tasks_start_before_due"');
    const forged = await tokyo.client.from("tasks").update({ due_at: "2030-01-01T00:00:00Z" }).eq("id", made.data!.id);
    expect(forged.error?.code).toBe("42501");
  });

  it("a timed due date is also reminded in the hour before it; a day's, as before", async () => {
    const person = await makePerson(stack, "hourly");
    const { project } = await makeTeam(stack, [[person, "owner"]]);
    await zone(person, "Europe/Berlin");
    const tasks = [
      await task(project, { assignee: person.id, due_on: "2026-12-01" }),
      await task(project, { assignee: person.id, due_on: "2026-12-01" }),
      await task(project, { assignee: person.id, due_on: "2026-12-01", status: "Done" }),
    ];
    // 14:30 in Berlin is 13:30 UTC
    await stack.db.query("update tasks set due_time = '14:30' where id = any($1::uuid[])", [[tasks[1], tasks[2]]]);
    const runAt = async (iso: string) => {
      await clock.set(at(iso));
      await stack.scheduler.cron.settled();
      expect((await stack.scheduler.cron.runNow("due-reminders")).status).toBe("succeeded");
    };
    await runAt("2026-11-30T07:05:00Z");
    // (one run's reminders share a time: sorted)
    const sorted = async () => (await reminders(tasks)).sort();
    expect(await sorted()).toEqual(["0:before:2026-12-01", "1:before:2026-12-01"]);
    await runAt("2026-12-01T12:29:00Z");
    expect(await sorted()).toEqual([
      "0:before:2026-12-01",
      "0:due:2026-12-01",
      "1:before:2026-12-01",
      "1:due:2026-12-01",
    ]);
    await runAt("2026-12-01T12:31:00Z");
    await runAt("2026-12-01T12:46:00Z");
    expect((await reminders(tasks)).slice(4)).toEqual(["1:hour:2026-12-01"]);
    // past its time: nothing more
    await runAt("2026-12-01T13:31:00Z");
    expect(await reminders(tasks)).toHaveLength(5);
    expect((await notified(tasks, { person })).filter((n) => n.startsWith("1:"))).toHaveLength(3);
  });

  it("the next task of a series keeps every assignee in order, the start date's distance and the time", async () => {
    const owner = await makePerson(stack, "series-owner");
    const second = await makePerson(stack, "series-second");
    const { project } = await makeTeam(stack, [
      [owner, "owner"],
      [second, "member"],
    ]);
    const made = await owner.client.rpc("create_task", {
      project_id: project,
      changes: {
        title: "Weekly report",
        status_id: await statusOf(project, "In progress"),
        assignees: [second.id, owner.id],
        start_on: "2026-11-25",
        due_on: "2026-11-27",
        due_time: "09:00",
        recurrence: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR",
      },
    });
    expect(made.error).toBeNull();
    const first = (made.data as { id: string }).id;
    expect(
      (await owner.client.rpc("move_task", { task_id: first, status_id: await statusOf(project, "Done") })).error,
    ).toBeNull();
    const { data } = await owner.client
      .from("tasks")
      .select("id, assignee_id, assignee_ids, start_on, due_on, due_time")
      .eq("project_id", project)
      .neq("id", first)
      .single();
    expect(data).toMatchObject({
      assignee_id: second.id,
      assignee_ids: [second.id, owner.id],
      start_on: "2026-11-28",
      due_on: "2026-11-30",
      due_time: "09:00:00",
    });
    const rows = await owner.client
      .from("task_assignees")
      .select("person_id, position")
      .eq("task_id", data!.id)
      .order("position");
    expect(rows.data!.map((r) => r.person_id)).toEqual([second.id, owner.id]);
  });
});
