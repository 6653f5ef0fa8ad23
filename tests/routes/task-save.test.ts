/**
 * The task form saved by one call (issue 36 §2, issue 38): the columns,
 * labels, assignees and field values of a plain form post (no JavaScript)
 * are saved together by save_task / create_task, or none of them: a refused
 * value (Points = 101, an 11th label) leaves the task as it was, and the
 * form comes back with the message beside the field and what was typed.
 * The panel reads the assignees and the fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

let stack: TestStack;
let team: RouteTeam;
let task: typeof import("~/routes/teams.$team.projects.$key.tasks.$number");
let newTask: typeof import("~/routes/teams.$team.projects.$key.tasks.new");
let points: string;
let customer: string;
let acme: string;

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  task = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  newTask = await import("~/routes/teams.$team.projects.$key.tasks.new");
  points = (
    await stack.db.query<{ id: string }>(
      `insert into fields (project_id, name, kind, number_min, number_max, sum, on_card)
       values ($1, 'Points', 'number', 0, 100, true, true) returning id`,
      [team.projectId],
    )
  ).rows[0].id;
  customer = (
    await stack.db.query<{ id: string }>(
      "insert into fields (project_id, name, kind, on_card) values ($1, 'Customer', 'select', true) returning id",
      [team.projectId],
    )
  ).rows[0].id;
  acme = (
    await stack.db.query<{ id: string }>(
      "insert into field_options (field_id, name, color) values ($1, 'Acme', 'blue'), ($1, 'Globex', 'green') returning id",
      [customer],
    )
  ).rows[0].id;
});
afterAll(() => stack?.close());

const boardUrl = () => `/teams/${team.slug}/projects/WEB`;
const params = (extra: Record<string, string> = {}) => ({ team: team.slug, key: "WEB", ...extra });
const taskUrl = (n = 2) => `${boardUrl()}/tasks/${n}`;

async function taskRow(id: string) {
  const { rows } = await stack.db.query<{
    title: string;
    assignee_ids: string[];
    fields: Record<string, unknown>;
    labels: number;
  }>("select title, assignee_ids, fields, cardinality(label_ids) as labels from tasks where id = $1", [id]);
  return rows[0];
}

/** The update form as the panel sends it without JavaScript. */
const updateForm = (extra: Record<string, string>) => ({
  intent: "update",
  title: "Book the room",
  priority: "none",
  labels: "",
  assigneesShown: "1",
  fieldsShown: `${points},${customer}`,
  ...extra,
});

describe("the task form, saved by one call", () => {
  it("saves two assignees, the labels and both fields together", async () => {
    const saved = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: updateForm({
        title: "Book the big room",
        labels: "venue",
        [`assignee:${team.member.id}`]: "on",
        [`assignee:${team.admin.id}`]: "on",
        [`field:${points}`]: "5",
        [`field:${customer}`]: acme,
      }),
    });
    expect(saved.status).toBe(302);
    const row = await taskRow(team.taskIds[1]);
    expect(row.title).toBe("Book the big room");
    expect([...row.assignee_ids].sort()).toEqual([team.member.id, team.admin.id].sort());
    expect(row.fields).toEqual({ [points]: 5, [customer]: acme });
    expect(row.labels).toBe(1);

    // the panel reads them: the values, the fields, the assignees
    const panel = await call(task.loader, { url: taskUrl(), user: team.viewer, params: params({ number: "2" }) });
    const data = panel.data as {
      task: { assignee_ids: string[]; fields: Record<string, unknown> };
      fields: { name: string; options: { name: string }[] }[];
      timeline: { type: string; text?: string }[];
    };
    expect(data.fields.map((f) => f.name)).toEqual(["Points", "Customer"]);
    expect(data.fields[1].options.map((o) => o.name)).toEqual(["Acme", "Globex"]);
    expect(data.task.fields).toEqual({ [points]: 5, [customer]: acme });
    expect(data.task.assignee_ids).toHaveLength(2);
    // one save, one event, in words
    const said = JSON.stringify(data.timeline);
    expect(said).toContain("set Points to 5");
    expect(said).toContain("set Customer to Acme");
  });

  it("a refused value leaves everything as it was, and says why beside the field, keeping what was typed", async () => {
    const before = await taskRow(team.taskIds[1]);
    const refused = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: updateForm({
        title: "Renamed for nothing",
        labels: "one, two",
        [`assignee:${team.viewer.id}`]: "on",
        [`field:${points}`]: "101",
      }),
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      intent: "update",
      errors: { [`field:${points}`]: "Points is a number from 0 to 100." },
      values: { title: "Renamed for nothing", [`field:${points}`]: "101" },
    });
    expect(await taskRow(team.taskIds[1])).toEqual(before);

    const fine = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: updateForm({ title: "Renamed again", [`field:${points}`]: "7", labels: "" }),
    });
    expect(fine.status).toBe(302);
    expect((await taskRow(team.taskIds[1])).fields[points]).toBe(7);

    const abc = await call(task.action, {
      url: taskUrl(),
      user: team.member,
      params: params({ number: "2" }),
      form: updateForm({ [`field:${points}`]: "abc" }),
    });
    expect(abc.status).toBe(400);
    expect((abc.data as { errors: Record<string, string> }).errors[`field:${points}`]).toBe(
      "Points is a number from 0 to 100.",
    );
  });

  it("creates a task with its assignees and fields in one call, or not at all", async () => {
    const count = async () =>
      Number(
        (await stack.db.query<{ n: string }>("select count(*) as n from tasks where project_id = $1", [team.projectId]))
          .rows[0].n,
      );
    const before = await count();
    const refused = await call(newTask.action, {
      url: `${boardUrl()}/tasks/new`,
      user: team.member,
      params: params(),
      form: {
        title: "Half made?",
        labels: "a",
        assigneesShown: "1",
        [`assignee:${team.outsider.id}`]: "on",
        [`assignee:${team.member.id}`]: "on",
        fieldsShown: points,
        [`field:${points}`]: "3",
      },
    });
    expect(refused.status).toBe(400);
    expect(await count()).toBe(before);

    const made = await call(newTask.action, {
      url: `${boardUrl()}/tasks/new`,
      user: team.member,
      params: params(),
      form: {
        title: "Whole",
        labels: "a",
        assigneesShown: "1",
        [`assignee:${team.member.id}`]: "on",
        [`assignee:${team.admin.id}`]: "on",
        fieldsShown: points,
        [`field:${points}`]: "3",
      },
    });
    expect(made.status).toBe(302);
    const { rows } = await stack.db.query<{ id: string }>(
      "select id from tasks where project_id = $1 and title = 'Whole'",
      [team.projectId],
    );
    const row = await taskRow(rows[0].id);
    expect(row.assignee_ids).toHaveLength(2);
    expect(row.fields).toEqual({ [points]: 3 });
    expect(row.labels).toBe(1);
  });

  it("a start date and a due time, posted without JavaScript: saved, refused with the database's words beside the input, kept when not sent", async () => {
    const dates = async () =>
      (
        await stack.db.query<{ start_on: string | null; due_on: string | null; due_time: string | null }>(
          "select start_on::text, due_on::text, due_time::text from tasks where id = $1",
          [team.taskIds[1]],
        )
      ).rows[0];
    const post = (extra: Record<string, string>) =>
      call(task.action, {
        url: taskUrl(),
        user: team.member,
        params: params({ number: "2" }),
        form: updateForm(extra),
      });

    const saved = await post({ startOn: "2026-12-14", dueOn: "2026-12-18", dueTime: "16:45" });
    expect(saved.status).toBe(302);
    expect(await dates()).toEqual({ start_on: "2026-12-14", due_on: "2026-12-18", due_time: "16:45:00" });
    // the panel reads them
    const panel = await call(task.loader, { url: taskUrl(), user: team.viewer, params: params({ number: "2" }) });
    expect((panel.data as { task: Record<string, unknown> }).task).toMatchObject({
      start_on: "2026-12-14",
      due_on: "2026-12-18",
      due_time: "16:45:00",
      due_at: expect.any(String),
    });

    // after the due date: the database refuses, the form says so beside the start date and keeps what was typed
    const late = await post({ startOn: "2026-12-20", dueOn: "2026-12-18", dueTime: "16:45", title: "Kept" });
    expect(late.status).toBe(400);
    expect(late.data).toMatchObject({
      errors: { startOn: "The start date can't be after the due date." },
      values: { startOn: "2026-12-20", title: "Kept" },
    });
    const timeOnly = await post({ startOn: "", dueOn: "", dueTime: "10:00" });
    expect(timeOnly.status).toBe(400);
    expect((timeOnly.data as { errors: Record<string, string> }).errors).toEqual({
      dueTime: "A due time needs a due date.",
    });
    const badTime = await post({ dueOn: "2026-12-18", dueTime: "25:00" });
    expect((badTime.data as { errors: Record<string, string> }).errors).toEqual({
      dueTime: "Enter a time of day, such as 14:30.",
    });
    expect(await dates()).toEqual({ start_on: "2026-12-14", due_on: "2026-12-18", due_time: "16:45:00" });

    // a form without the two inputs leaves them; empty inputs clear them
    expect((await post({ dueOn: "2026-12-19" })).status).toBe(302);
    expect(await dates()).toEqual({ start_on: "2026-12-14", due_on: "2026-12-19", due_time: "16:45:00" });
    expect((await post({ startOn: "", dueOn: "2026-12-19", dueTime: "" })).status).toBe(302);
    expect(await dates()).toEqual({ start_on: null, due_on: "2026-12-19", due_time: null });

    const made = await call(newTask.action, {
      url: `${boardUrl()}/tasks/new`,
      user: team.member,
      params: params(),
      form: { title: "Timed", labels: "", startOn: "2026-12-01", dueOn: "2026-12-02", dueTime: "08:30" },
    });
    expect(made.status).toBe(302);
    const { rows } = await stack.db.query(
      "select start_on::text, due_time::text from tasks where project_id = $1 and title = 'Timed'",
      [team.projectId],
    );
    expect(rows).toEqual([{ start_on: "2026-12-01", due_time: "08:30:00" }]);
  });
});

/**
 * Issue 42 §5: labels are chosen, not typed. The form without JavaScript
 * sends a checkbox per team label (`label:<name>`) and a "New labels" field
 * for making one on purpose; nothing else makes a team label.
 */
describe("the label picker without JavaScript", () => {
  const labelsOf = async (id: string) =>
    (
      await stack.db.query<{ name: string }>(
        "select l.name from task_labels tl join labels l on l.id = tl.label_id where tl.task_id = $1 order by l.name",
        [id],
      )
    ).rows.map((r) => r.name);
  const teamLabels = async () =>
    (
      await stack.db.query<{ name: string }>("select name from labels where team_id = $1 order by name", [team.id])
    ).rows.map((r) => r.name);
  const pickerForm = (extra: Record<string, string>) => ({
    intent: "update",
    title: "Pick the labels",
    priority: "none",
    labelsShown: "1",
    newLabels: "",
    ...extra,
  });

  beforeAll(async () => {
    await stack.db.query(
      "insert into labels (team_id, name, color) values ($1, 'design', 'purple'), ($1, 'bug', 'red')",
      [team.id],
    );
  });

  it("saves the ticked labels, makes only the ones named as new, and never a typo", async () => {
    const before = await teamLabels();
    const ticked = await call(task.action, {
      url: taskUrl(1),
      user: team.member,
      params: params({ number: "1" }),
      // a stray comma-separated field beside the picker is not read: the picker decides
      form: pickerForm({ "label:design": "on", "label:bug": "on", labels: "desgin" }),
    });
    expect(ticked.status).toBe(302);
    expect(await labelsOf(team.taskIds[0])).toEqual(["bug", "design"]);
    expect(await teamLabels()).toEqual(before);

    const made = await call(task.action, {
      url: taskUrl(1),
      user: team.member,
      params: params({ number: "1" }),
      form: pickerForm({ "label:design": "on", newLabels: "urgent" }),
    });
    expect(made.status).toBe(302);
    expect(await labelsOf(team.taskIds[0])).toEqual(["design", "urgent"]);
    expect(await teamLabels()).toEqual([...before, "urgent"].sort());

    // nothing ticked: none
    const none = await call(task.action, {
      url: taskUrl(1),
      user: team.member,
      params: params({ number: "1" }),
      form: pickerForm({}),
    });
    expect(none.status).toBe(302);
    expect(await labelsOf(team.taskIds[0])).toEqual([]);
  });

  it("a refusal comes back beside the labels with the ticks kept; a new task takes its ticks", async () => {
    const refused = await call(task.action, {
      url: taskUrl(1),
      user: team.member,
      params: params({ number: "1" }),
      form: pickerForm({
        "label:design": "on",
        newLabels: Array.from({ length: 10 }, (_, i) => `n${i}`).join(", "),
      }),
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      intent: "update",
      errors: { labels: expect.stringContaining("10 labels") },
      values: { "label:design": "on", labelsShown: "1" },
    });
    expect(await labelsOf(team.taskIds[0])).toEqual([]);

    const made = await call(newTask.action, {
      url: `${boardUrl()}/tasks/new`,
      user: team.member,
      params: params(),
      form: { title: "Picked on creation", labelsShown: "1", "label:bug": "on" },
    });
    expect(made.status).toBe(302);
    const { rows } = await stack.db.query<{ id: string }>(
      "select id from tasks where project_id = $1 and title = 'Picked on creation'",
      [team.projectId],
    );
    expect(await labelsOf(rows[0].id)).toEqual(["bug"]);
  });
});

/**
 * Issue 42 §15: the panel's facts edited in place, one plain post per
 * field (no JavaScript): each saves that field alone through save_task and
 * leaves the others as they were; a refusal comes back for that form.
 */
describe("the panel's fields, one post each", () => {
  const read = async (id: string) =>
    (
      await stack.db.query<{
        title: string;
        priority: string;
        due_on: string | null;
        recurrence: string | null;
        assignee_ids: string[];
        description: string;
      }>("select title, priority, due_on::text, recurrence, assignee_ids, description from tasks where id = $1", [id])
    ).rows[0];
  const post = (form: Record<string, string>) =>
    call(task.action, { url: taskUrl(1), user: team.member, params: params({ number: "1" }), form });

  it("saves the title, the priority, the due date and the assignees, each alone", async () => {
    await stack.db.query("update tasks set description = 'Keep me' where id = $1", [team.taskIds[0]]);
    expect((await post({ intent: "set-priority", priority: "high" })).status).toBe(302);
    expect((await post({ intent: "set-title", title: "  Plan the offsite " })).status).toBe(302);
    expect((await post({ intent: "set-due", dueOn: "2031-03-14", repeat: "never" })).status).toBe(302);
    expect(
      (
        await post({
          intent: "set-assignees",
          assigneesShown: "1",
          [`assignee:${team.member.id}`]: "on",
          [`assignee:${team.admin.id}`]: "on",
        })
      ).status,
    ).toBe(302);
    const row = await read(team.taskIds[0]);
    expect(row).toMatchObject({
      title: "Plan the offsite",
      priority: "high",
      due_on: "2031-03-14",
      description: "Keep me",
    });
    expect([...row.assignee_ids].sort()).toEqual([team.member.id, team.admin.id].sort());

    // none ticked: unassigned
    await post({ intent: "set-assignees", assigneesShown: "1" });
    expect((await read(team.taskIds[0])).assignee_ids).toEqual([]);

    // the labels: the picker's ticks, alone
    expect((await post({ intent: "set-labels", labelsShown: "1", "label:bug": "on" })).status).toBe(302);
    const { rows } = await stack.db.query<{ name: string }>(
      "select l.name from task_labels tl join labels l on l.id = tl.label_id where tl.task_id = $1",
      [team.taskIds[0]],
    );
    expect(rows.map((r) => r.name)).toEqual(["bug"]);
    expect((await read(team.taskIds[0])).title).toBe("Plan the offsite");
  });

  it("a repeating task's new due date remakes its rule; a refusal comes back for that field", async () => {
    const weekly = await post({ intent: "set-due", dueOn: "2031-03-14", repeat: "weekly", every: "1" });
    expect(weekly.status).toBe(302);
    const rule = (await read(team.taskIds[0])).recurrence;
    expect(rule).toContain("WEEKLY");
    // a repeating task keeps a due date: said beside it, nothing changed
    const cleared = await post({ intent: "set-due", dueOn: "", repeat: "weekly", every: "1" });
    expect(cleared.status).toBe(400);
    expect(cleared.data).toMatchObject({ intent: "set-due", errors: { dueOn: expect.any(String) } });
    expect((await read(team.taskIds[0])).due_on).toBe("2031-03-14");

    const blank = await post({ intent: "set-title", title: " " });
    expect(blank.status).toBe(400);
    expect(blank.data).toMatchObject({
      intent: "set-title",
      errors: { title: "Enter a title." },
      values: { title: " " },
    });

    // a viewer may not
    const viewer = await call(task.action, {
      url: taskUrl(1),
      user: team.viewer,
      params: params({ number: "1" }),
      form: { intent: "set-priority", priority: "low" },
    });
    expect(viewer.status).toBe(403);
    expect((await read(team.taskIds[0])).priority).toBe("high");
  });
});
