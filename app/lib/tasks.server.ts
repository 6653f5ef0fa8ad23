import type { TablesInsert } from "./database.types";
import { removeQueuedFiles } from "./storage.server";
import type { SupabaseClient } from "./supabase-types";
import type { Priority, Status } from "./board";
import { backendError, notFound } from "./http.server";
import type { RequestClient } from "./supabase.server";

export interface TaskDetail {
  id: string;
  number: number;
  title: string;
  description: string;
  status: Status;
  priority: Priority;
  assignee_id: string | null;
  due_on: string | null;
  labels: string[];
  position: number;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  creator: { display_name: string } | null;
}

/** The task panel's task: every field it edits, and who made it (two foreign keys reach profiles, so the embed names one). */
export async function getTask(supabase: SupabaseClient, projectId: string, number: number) {
  return supabase
    .from("tasks")
    .select(
      "id, number, title, description, status, priority, assignee_id, due_on, labels, position, created_at, updated_at, created_by, creator:profiles!tasks_created_by_fkey(display_name)",
    )
    .eq("project_id", projectId)
    .eq("number", number)
    .maybeSingle<TaskDetail>();
}

/** Just enough to act on a task named in the URL. */
export async function getTaskRef(supabase: SupabaseClient, projectId: string, number: number) {
  return supabase
    .from("tasks")
    .select("id, status")
    .eq("project_id", projectId)
    .eq("number", number)
    .maybeSingle<{ id: string; status: Status }>();
}

/** The task named in the URL, for the panel, or a thrown 404 (503 when the backend is down). */
export async function requireTask(client: RequestClient, projectId: string, number: number): Promise<TaskDetail> {
  const { data, error } = await getTask(client.supabase, projectId, number);
  if (error) throw backendError(error, client.headers);
  if (!data) throw notFound(client.headers);
  return data;
}

/** Just enough of the task named in the URL to act on it, or a thrown 404. */
export async function requireTaskRef(
  client: RequestClient,
  projectId: string,
  number: number,
): Promise<{ id: string; status: Status }> {
  const { data, error } = await getTaskRef(client.supabase, projectId, number);
  if (error) throw backendError(error, client.headers);
  if (!data) throw notFound(client.headers);
  return data;
}

export interface TaskFields {
  title: string;
  description: string;
  priority: Priority;
  assignee: string | null;
  dueOn: string | null;
  labels: string[];
}

function columnsOf(fields: TaskFields) {
  return {
    title: fields.title,
    description: fields.description,
    priority: fields.priority,
    assignee_id: fields.assignee,
    due_on: fields.dueOn,
    labels: fields.labels,
  };
}

/** created_by, number and position come from the database (default and trigger). */
export async function createTask(supabase: SupabaseClient, projectId: string, fields: TaskFields & { status: Status }) {
  const row = { project_id: projectId, status: fields.status, ...columnsOf(fields) } satisfies Omit<
    TablesInsert<"tasks">,
    "number"
  >;
  return (
    supabase
      .from("tasks")
      // the generated Insert type requires `number`, which the tasks_before_insert trigger fills in
      .insert(row as TablesInsert<"tasks">)
      .select("number")
      .single<{ number: number }>()
  );
}

export async function updateTask(supabase: SupabaseClient, taskId: string, fields: TaskFields) {
  return supabase.from("tasks").update(columnsOf(fields)).eq("id", taskId).select("id").maybeSingle();
}

/** Status and place change only through the RPC (transition rules, dense positions). */
export async function moveTask(supabase: SupabaseClient, taskId: string, status: Status, position: number | null) {
  // no position: the RPC's default (null) puts the task last
  const args = position === null ? { task_id: taskId, status } : { task_id: taskId, status, position };
  return supabase.rpc("move_task", args).single<{ id: string; status: Status; position: number }>();
}

/** Deletes a task with its comments and attachment rows; the files follow through the cleanup queue. */
export async function deleteTask(supabase: SupabaseClient, taskId: string) {
  const result = await supabase.from("tasks").delete().eq("id", taskId).select("id").maybeSingle();
  if (!result.error && result.data) await removeQueuedFiles();
  return result;
}

export interface SearchHit {
  id: string;
  number: number;
  title: string;
  status: Status;
  project_key: string;
  project_name: string;
  project_archived: boolean;
  team_slug: string;
  team_name: string;
}

/** docs/product.md §9: at most 50 results (search_tasks clamps its limit there too). */
export const SEARCH_LIMIT = 50;

/**
 * The best matches, at most SEARCH_LIMIT. The RPC can't return more, so a full
 * page means there may be more (`capped`): the page says so and asks for more words.
 */
export async function searchTasks(supabase: SupabaseClient, query: string) {
  const { data, error } = await supabase
    .rpc("search_tasks", { query, limit: SEARCH_LIMIT })
    .select("id, number, title, status, project_key, project_name, project_archived, team_slug, team_name");
  const hits = (data ?? []) as unknown as SearchHit[];
  return { error, hits, capped: hits.length >= SEARCH_LIMIT };
}

export interface Overview {
  counts: Record<Status, number>;
  my_open_tasks: Array<{
    id: string;
    number: number;
    title: string;
    status: Status;
    priority: Priority;
    due_on: string | null;
    project_key: string;
    project_name: string;
  }>;
}

export async function teamOverview(supabase: SupabaseClient, teamId: string) {
  const { data, error } = await supabase.rpc("team_overview", { team_id: teamId });
  // team_overview returns jsonb (typed Json); its shape is the function's, above
  return { error, overview: (data ?? { counts: {}, my_open_tasks: [] }) as unknown as Overview };
}
