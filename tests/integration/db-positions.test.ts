/**
 * Places in a column after writes of many rows at once (issue 35: a bulk
 * delete of two tasks of one column failed with 23505 on
 * tasks_column_position_key, the per-row trigger shifting with a stale
 * position). Several tasks of one column, through the REST API and the RPCs
 * a person's client calls: each write succeeds and leaves every column
 * numbered 0..n-1 in the order it had. The same for a task's checklist.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
let owner: SupabaseClient;
let teamId: string;
let keys = 0;

async function person(name: string) {
  const email = uniqueEmail("positions");
  const { error } = await stack.adminClient().auth.admin.createUser({
    email,
    password: "positions-test-1",
    email_confirm: true,
    user_metadata: { display_name: name },
  });
  if (error) throw error;
  const client = serverClient(stack.url, stack.anonKey);
  await client.auth.signInWithPassword({ email, password: "positions-test-1" });
  return client;
}

beforeAll(async () => {
  stack = await startTestStack();
  owner = await person("Olive Owner");
  const { data: team, error } = await owner.rpc("create_team", { name: "Places", slug: `places-${process.pid}` });
  if (error) throw error;
  teamId = team.id;
});
afterAll(() => stack?.close());

/** A new project with its five statuses, and status ids by name. */
async function newProject() {
  const key = `P${String.fromCharCode(65 + keys++)}`;
  const { data, error } = await owner
    .from("projects")
    .insert({ team_id: teamId, key, name: key })
    .select("id")
    .single();
  if (error) throw error;
  const { data: statuses } = await owner.from("project_statuses").select("id, name").eq("project_id", data.id);
  const status = Object.fromEntries((statuses ?? []).map((s) => [s.name as string, s.id as string]));
  return { id: data.id as string, status };
}

/** Tasks titled `${prefix}1…n` in one column, made by one REST insert (as an import would). */
async function tasksIn(projectId: string, statusId: string, prefix: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    project_id: projectId,
    status_id: statusId,
    title: `${prefix}${i + 1}`,
  }));
  const { data, error } = await owner.from("tasks").insert(rows).select("id, title");
  if (error) throw error;
  return Object.fromEntries(data.map((t) => [t.title as string, t.id as string]));
}

/** Each column's titles by position; throws unless its positions are 0..n-1. */
async function board(projectId: string) {
  const { data, error } = await owner
    .from("tasks")
    .select("title, position, project_statuses(name)")
    .eq("project_id", projectId)
    .order("position");
  if (error) throw error;
  const columns: Record<string, string[]> = {};
  for (const t of data as unknown as { title: string; position: number; project_statuses: { name: string } }[]) {
    const column = (columns[t.project_statuses.name] ??= []);
    expect(t.position, `${t.title} in ${t.project_statuses.name}`).toBe(column.length);
    column.push(t.title);
  }
  return columns;
}

describe("places in a column after multi-row writes", () => {
  it("a REST insert of several tasks into one column numbers them in order", async () => {
    const p = await newProject();
    await tasksIn(p.id, p.status["To do"], "T", 5);
    expect(await board(p.id)).toEqual({ "To do": ["T1", "T2", "T3", "T4", "T5"] });
  });

  it("bulk_edit_tasks deletes two, then three tasks of one column (first, middle, last)", async () => {
    const p = await newProject();
    const t = await tasksIn(p.id, p.status["To do"], "T", 7);
    await tasksIn(p.id, p.status["Backlog"], "B", 2);
    const two = await owner.rpc("bulk_edit_tasks", { task_ids: [t.T2, t.T3], change: "delete" });
    expect(two.error).toBeNull();
    expect(two.data).toBe(2);
    expect(await board(p.id)).toEqual({ Backlog: ["B1", "B2"], "To do": ["T1", "T4", "T5", "T6", "T7"] });
    const three = await owner.rpc("bulk_edit_tasks", { task_ids: [t.T7, t.T1, t.T5], change: "delete" });
    expect(three.error).toBeNull();
    expect(await board(p.id)).toEqual({ Backlog: ["B1", "B2"], "To do": ["T4", "T6"] });
  });

  it("a REST delete of several tasks in two columns at once", async () => {
    const p = await newProject();
    const t = await tasksIn(p.id, p.status["To do"], "T", 5);
    const b = await tasksIn(p.id, p.status["Backlog"], "B", 4);
    const { error, count } = await owner
      .from("tasks")
      .delete({ count: "exact" })
      .in("id", [t.T1, t.T2, t.T4, b.B2, b.B3]);
    expect(error).toBeNull();
    expect(count).toBe(5);
    expect(await board(p.id)).toEqual({ Backlog: ["B1", "B4"], "To do": ["T3", "T5"] });
  });

  it("bulk_edit_tasks moves several tasks of one column to another that has tasks (to its end, in order)", async () => {
    const p = await newProject();
    const t = await tasksIn(p.id, p.status["To do"], "T", 6);
    await tasksIn(p.id, p.status["In progress"], "I", 3);
    const moved = await owner.rpc("bulk_edit_tasks", {
      task_ids: [t.T5, t.T2, t.T3],
      change: "status",
      value: p.status["In progress"],
    });
    expect(moved.error).toBeNull();
    expect(await board(p.id)).toEqual({
      "To do": ["T1", "T4", "T6"],
      "In progress": ["I1", "I2", "I3", "T2", "T3", "T5"],
    });
    // and to a closed status and back
    const done = await owner.rpc("bulk_edit_tasks", {
      task_ids: [t.T1, t.T6, t.T2],
      change: "status",
      value: p.status.Done,
    });
    expect(done.error).toBeNull();
    const back = await owner.rpc("bulk_edit_tasks", {
      task_ids: [t.T6, t.T1],
      change: "status",
      value: p.status["To do"],
    });
    expect(back.error).toBeNull();
    expect(await board(p.id)).toEqual({
      "To do": ["T4", "T1", "T6"],
      "In progress": ["I1", "I2", "I3", "T3", "T5"],
      Done: ["T2"],
    });
  });

  it("removing a status moves its tasks after the target's own, and both stay numbered", async () => {
    const p = await newProject();
    await tasksIn(p.id, p.status["In progress"], "I", 4);
    await tasksIn(p.id, p.status["To do"], "T", 3);
    const { error } = await owner.rpc("remove_status", {
      status_id: p.status["In progress"],
      move_to: p.status["To do"],
    });
    expect(error).toBeNull();
    expect(await board(p.id)).toEqual({ "To do": ["T1", "T2", "T3", "I1", "I2", "I3", "I4"] });
    // then a bulk delete in the merged column
    const { data } = await owner.from("tasks").select("id, title").eq("project_id", p.id);
    const id = Object.fromEntries((data ?? []).map((t) => [t.title, t.id]));
    expect((await owner.rpc("bulk_edit_tasks", { task_ids: [id.T3, id.I1], change: "delete" })).error).toBeNull();
    expect(await board(p.id)).toEqual({ "To do": ["T1", "T2", "I2", "I3", "I4"] });
  });

  it("move_task in one column, then a delete, keeps the order the person made", async () => {
    const p = await newProject();
    const t = await tasksIn(p.id, p.status["To do"], "T", 5);
    expect(
      (await owner.rpc("move_task", { task_id: t.T5, status_id: p.status["To do"], position: 0 })).error,
    ).toBeNull();
    expect(
      (await owner.rpc("move_task", { task_id: t.T1, status_id: p.status.Backlog, position: 0 })).error,
    ).toBeNull();
    expect(await board(p.id)).toEqual({ Backlog: ["T1"], "To do": ["T5", "T2", "T3", "T4"] });
    expect((await owner.from("tasks").delete().in("id", [t.T5, t.T3])).error).toBeNull();
    expect(await board(p.id)).toEqual({ Backlog: ["T1"], "To do": ["T2", "T4"] });
  });

  it("a REST delete of several checklist items of one task keeps the checklist numbered", async () => {
    const p = await newProject();
    const t = await tasksIn(p.id, p.status["To do"], "T", 1);
    const { data: items, error } = await owner
      .from("checklist_items")
      .insert(["a", "b", "c", "d", "e"].map((title) => ({ task_id: t.T1, title })))
      .select("id, title");
    expect(error).toBeNull();
    const id = Object.fromEntries((items ?? []).map((i) => [i.title, i.id]));
    const gone = await owner.from("checklist_items").delete().in("id", [id.a, id.c, id.d]);
    expect(gone.error).toBeNull();
    const { data: left } = await owner
      .from("checklist_items")
      .select("title, position")
      .eq("task_id", t.T1)
      .order("position");
    expect(left).toEqual([
      { title: "b", position: 0 },
      { title: "e", position: 1 },
    ]);
  });
});
