import { signAttachments, type AttachmentRow } from "./attachments.server";
import type { AttachmentView } from "./attachments.server";
import type { TablesInsert } from "./database.types";
import type { TaskComment } from "./comments.server";
import { COMMENTS_PAGE_SIZE, type CommentCursor } from "./comments";
import { readRepeats } from "./recurrence.server";
import { removeQueuedFiles } from "./storage.server";
import type { SupabaseClient } from "./supabase-types";
import type { Priority, Status, TaskDetail } from "./board";
import { backendError, notFound } from "./http.server";

/**
 * Just enough to act on the task named in the URL: by the team's slug, the
 * project's key and its number (RLS decides), so it runs beside the
 * project context's reads instead of after them. Null when there's no such
 * task the person can see.
 */
export async function findTaskRef(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string; number: number },
): Promise<TaskRef | null> {
  const { data, error } = await supabase
    .from("tasks")
    .select("id, status, project:projects!inner(key, team:teams!inner(slug))")
    .eq("number", names.number)
    .eq("project.key", names.projectKey)
    .eq("project.team.slug", names.teamSlug)
    .maybeSingle<TaskRef & { project: unknown }>();
  if (error) throw backendError(error);
  return data ? { id: data.id, status: data.status } : null;
}

export interface TaskRef {
  id: string;
  status: Status;
}

/** The task panel: the task named in the URL, one page of its comments, its attachments (with signed URLs). */
export interface TaskPanel {
  task: TaskDetail;
  comments: TaskComment[];
  /** how many comments this page reaches back over (all of them on the latest page) */
  reached: number;
  hasOlder: boolean;
  attachments: AttachmentView[];
}

/**
 * The task panel in one round trip (`task_panel`, as the caller: row-level
 * security decides), named by the URL's team slug, project key and number so
 * it needs no earlier read and runs beside the team lookup; one more only
 * when there are attachments to sign. A thrown 404 for a task the person
 * can't see. Comments: the latest page, or the page before `before`, newest
 * first by (created_at, id) — comments written in one transaction share
 * created_at, so the id keeps the order total — shown oldest first.
 */
export async function requireTaskPanel(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string; number: number },
  before: CommentCursor | null,
): Promise<TaskPanel> {
  const [{ data, error }, repeats] = await Promise.all([
    supabase.rpc(
      "task_panel",
      {
        team_slug: names.teamSlug,
        project_key: names.projectKey,
        task_number: names.number,
        before_created_at: before?.createdAt,
        before_id: before?.id,
        page_size: COMMENTS_PAGE_SIZE,
        // a read: GET, like the REST reads it replaces (and the request log shows which task)
      },
      { get: true },
    ),
    // its repeat rule (task_panel predates repeating tasks): beside it, not after
    readRepeats(supabase, names),
  ]);
  if (error || repeats.error) throw backendError(error ?? repeats.error);
  const row = data as unknown as {
    task: TaskDetail;
    comments: TaskComment[];
    reached: number;
    attachments: AttachmentRow[];
  } | null;
  if (!row) throw notFound();
  const comments = [...row.comments].reverse();
  const reached = Number(row.reached);
  return {
    task: { ...row.task, recurrence: repeats.rules.get(row.task.id) ?? null },
    comments,
    reached,
    hasOlder: reached > comments.length,
    attachments: await signAttachments(supabase, row.attachments),
  };
}

export interface TaskFields {
  title: string;
  description: string;
  priority: Priority;
  assignee: string | null;
  dueOn: string | null;
  labels: string[];
  /** the repeat rule (lib/recurrence.ts), null when the task doesn't repeat */
  recurrence: string | null;
}

function columnsOf(fields: TaskFields) {
  return {
    title: fields.title,
    description: fields.description,
    priority: fields.priority,
    assignee_id: fields.assignee,
    due_on: fields.dueOn,
    labels: fields.labels,
    recurrence: fields.recurrence,
  };
}

/** "Stop repeating": the series ends with this task (its completion makes no successor). */
export async function stopRepeating(supabase: SupabaseClient, taskId: string) {
  return supabase.from("tasks").update({ recurrence: null }).eq("id", taskId).select("id").maybeSingle();
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
