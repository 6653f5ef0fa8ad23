import { signAttachments, type AttachmentRow } from "./attachments.server";
import type { AttachmentView } from "./attachments.server";
import type { Json, TablesInsert } from "./database.types";
import type { TaskComment } from "./comments.server";
import { TIMELINE_PAGE_SIZE, type TimelineCursor } from "./comments";
import { actorName, describeEvent, type TaskEvent } from "./activity";
import type { Mentionable } from "./mentions";
import { readRepeats } from "./recurrence.server";
import type { SupabaseClient } from "./supabase-types";
import type { LabelChip, Priority, StatusCategory, StatusRef, TaskDetail } from "./board";
import type { PaletteColor } from "./palette";
import { backendError, notFound } from "./http.server";
import { refusedFieldInput, type FieldDef, type FieldValues } from "./fields";
import { refusalKey } from "./db-messages";

export interface ChecklistItem {
  id: string;
  title: string;
  done: boolean;
  position: number;
  ticked_at: string | null;
  ticked_by: { display_name: string } | null;
}

export interface SubTask {
  id: string;
  number: number;
  title: string;
  status: StatusRef;
}

export type RelationKind = "blocks" | "relates" | "duplicates";

/** A relation as the task on one side sees it: `outgoing` when this task is its "from" (blocks, duplicates). */
export interface TaskRelation {
  id: string;
  kind: RelationKind;
  outgoing: boolean;
  task: { id: string; number: number; title: string; project_key: string; closed: boolean };
}

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
    .select("id, status_id, project:projects!inner(key, team:teams!inner(slug))")
    .eq("number", names.number)
    .eq("project.key", names.projectKey)
    .eq("project.team.slug", names.teamSlug)
    .maybeSingle<TaskRef & { project: unknown }>();
  if (error) throw backendError(error);
  return data ? { id: data.id, status_id: data.status_id } : null;
}

export interface TaskRef {
  id: string;
  status_id: string;
}

/**
 * One item of a task's timeline: a comment, or an event (docs/product.md §10) with
 * its words made here (`who` `what`), so the browser needs no wording code.
 */
export type TimelineItem =
  | (TaskComment & { type: "comment" })
  | (Pick<TaskEvent, "id" | "kind" | "created_at"> & { type: "event"; who: string; what: string });

/**
 * The task panel: the task named in the URL, its labels, checklist,
 * sub-tasks and relations, one page of its timeline, its attachments (with
 * signed URLs), its watchers.
 */
export interface TaskPanel {
  task: TaskDetail;
  labels: LabelChip[];
  checklist: ChecklistItem[];
  subtasks: SubTask[];
  relations: TaskRelation[];
  /** the project's fields, in order (the task's values are task.fields) */
  fields: FieldDef[];
  /** oldest first */
  timeline: TimelineItem[];
  hasEarlier: boolean;
  commentCount: number;
  watchers: number;
  watching: boolean;
  /** the team's members, for names in events and @mentions */
  members: Mentionable[];
  attachments: AttachmentView[];
}

interface RawTimelineItem {
  type: "comment" | "event";
  id: string;
  created_at: string;
  actor_id: string | null;
  actor: { display_name: string; avatar_path?: string | null } | null;
  body: string | null;
  edited_at: string | null;
  kind: string | null;
  data: Record<string, unknown> | null;
}

/** A comment as it was written (the route renders it), an event in words. */
function timelineItem(raw: RawTimelineItem, names: ReadonlyMap<string, string>): TimelineItem {
  if (raw.type === "comment") {
    return {
      type: "comment",
      id: raw.id,
      body: raw.body ?? "",
      created_at: raw.created_at,
      edited_at: raw.edited_at,
      author_id: raw.actor_id,
      author: raw.actor,
    };
  }
  const event = { kind: raw.kind ?? "", data: raw.data ?? {}, actor_id: raw.actor_id, actor: raw.actor };
  return {
    type: "event",
    id: raw.id,
    kind: event.kind,
    created_at: raw.created_at,
    who: actorName(event),
    what: describeEvent(event, { names, subject: "this" }),
  };
}

/**
 * The task panel in one round trip (`task_panel`, as the caller: row-level
 * security decides), named by the URL's team slug, project key and number so
 * it needs no earlier read and runs beside the team lookup; one more only
 * when there are attachments to sign. A thrown 404 for a task the person
 * can't see. The timeline: the latest page, or the page before `before`,
 * newest first by (created_at, id) — rows written in one transaction share
 * created_at, so the id keeps the order total — shown oldest first.
 */
export async function requireTaskPanel(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string; number: number },
  before: TimelineCursor | null,
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
        page_size: TIMELINE_PAGE_SIZE,
        // a read: GET, like the REST reads it replaces (and the request log shows which task)
      },
      { get: true },
    ),
    // its repeat rule (task_panel predates repeating tasks): beside it, not after
    readRepeats(supabase, names),
  ]);
  if (error || repeats.error) throw backendError(error ?? repeats.error);
  const row = data as unknown as
    | (Pick<TaskPanel, "task" | "labels" | "checklist" | "subtasks" | "relations" | "watching" | "fields"> & {
        timeline: RawTimelineItem[];
        comment_count: number;
        watchers: number;
        members: Array<{ id: string; username: string; display_name: string }>;
        attachments: AttachmentRow[];
      })
    | null;
  if (!row) throw notFound();
  // the function reads one item more than a page: there are earlier ones when it came
  const hasEarlier = row.timeline.length > TIMELINE_PAGE_SIZE;
  const people = new Map(row.members.map((m) => [m.id, m.display_name]));
  const members = row.members.map((m) => ({ id: m.id, username: m.username, name: m.display_name }));
  const timeline = row.timeline
    .slice(0, TIMELINE_PAGE_SIZE)
    .map((raw) => timelineItem(raw, people))
    .reverse();
  return {
    task: { ...row.task, recurrence: repeats.rules.get(row.task.id) ?? null },
    labels: row.labels,
    checklist: row.checklist,
    subtasks: row.subtasks,
    relations: row.relations,
    fields: row.fields ?? [],
    timeline,
    hasEarlier,
    commentCount: Number(row.comment_count),
    watchers: Number(row.watchers),
    watching: row.watching,
    members,
    attachments: await signAttachments(supabase, row.attachments),
  };
}

export interface TaskFields {
  title: string;
  description: string;
  priority: Priority;
  assignee: string | null;
  dueOn: string | null;
  /** undefined: the form had no such input (the column stays) */
  startOn?: string | null;
  /** "14:30" on the due date, in the first assignee's zone (else the creator's); undefined: stays */
  dueTime?: string | null;
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
    ...(fields.startOn !== undefined ? { start_on: fields.startOn } : {}),
    ...(fields.dueTime !== undefined ? { due_time: fields.dueTime } : {}),
    recurrence: fields.recurrence,
  };
}

/** "Stop repeating": the series ends with this task (its completion makes no successor). */
export async function stopRepeating(supabase: SupabaseClient, taskId: string) {
  return supabase.from("tasks").update({ recurrence: null }).eq("id", taskId).select("id").maybeSingle();
}

/**
 * A new task (a sub-task when `parentId` is given; no status: the project's
 * first backlog one). created_by, number and position come from the database
 * (default and trigger).
 */
export async function createTask(
  supabase: SupabaseClient,
  projectId: string,
  fields: TaskFields & { statusId: string | null; parentId?: string | null },
) {
  const row = {
    project_id: projectId,
    ...(fields.statusId ? { status_id: fields.statusId } : {}),
    ...(fields.parentId ? { parent_id: fields.parentId } : {}),
    ...columnsOf(fields),
  } satisfies Omit<TablesInsert<"tasks">, "number" | "status_id">;
  return (
    supabase
      .from("tasks")
      // the generated Insert type requires `number` and `status_id`, which the tasks_before_insert trigger fills in
      .insert(row as TablesInsert<"tasks">)
      .select("id, number")
      .single<{ id: string; number: number }>()
  );
}

/** What one save of the task form writes: its columns, labels, assignees and field values (save_task). */
export interface TaskSave extends TaskFields {
  /** null: the form didn't list them (they stay) */
  labels: string[] | null;
  /** null: the form didn't list them (they stay) */
  assignees: string[] | null;
  /** null: the form had no fields (they stay) */
  fields: FieldValues | null;
}

function changesOf(save: TaskSave): { [key: string]: Json | undefined } {
  return {
    title: save.title,
    description: save.description,
    priority: save.priority,
    due_on: save.dueOn,
    ...(save.startOn !== undefined ? { start_on: save.startOn } : {}),
    ...(save.dueTime !== undefined ? { due_time: save.dueTime } : {}),
    recurrence: save.recurrence,
    ...(save.labels ? { labels: save.labels } : {}),
    ...(save.assignees ? { assignees: save.assignees } : {}),
    ...(save.fields ? { fields: save.fields as Json } : {}),
  };
}

/**
 * The task form saved by one call (`save_task`, as the caller): the columns,
 * labels, assignees and field values in one transaction, so a refusal of any
 * leaves the task as it was (issue 36 §2).
 */
export async function saveTask(supabase: SupabaseClient, taskId: string, save: TaskSave) {
  return supabase.rpc("save_task", { task_id: taskId, changes: changesOf(save) });
}

/** One field of the task saved in place (the panel, issue 42 §15): save_task with that field alone; the rest stay. */
export async function saveTaskField(
  supabase: SupabaseClient,
  taskId: string,
  change:
    | { title: string }
    | { priority: Priority }
    | { due_on: string | null; recurrence: string | null }
    | { assignees: string[] }
    | { labels: string[] },
) {
  return supabase.rpc("save_task", { task_id: taskId, changes: change });
}

/** A new task with its labels, assignees and field values, by one call (`create_task`): all or nothing. */
export async function createWholeTask(
  supabase: SupabaseClient,
  projectId: string,
  save: TaskSave & { statusId: string | null },
) {
  const { data, error } = await supabase.rpc("create_task", {
    project_id: projectId,
    changes: { ...changesOf(save), status_id: save.statusId },
  });
  return { data: data as { id: string; number: number } | null, error };
}

/** Which of the task form's fields a refusal of save_task / create_task belongs beside. */
export function saveFailureField(error: { message?: string; details?: string | null; hint?: string | null }) {
  const detail = error.details ?? "";
  if (detail.startsWith("task_labels") || detail.startsWith("labels_")) return "labels";
  if (detail.startsWith("task_assignees") || /assignee/i.test(error.message ?? "")) return "assignees";
  const key = refusalKey(error);
  if (key === "tasks_start_before_due" || key === "tasks_start_on_range") return "startOn";
  if (key === "tasks_due_time_needs_due_on" || key === "tasks_due_time_minutes") return "dueTime";
  return refusedFieldInput(error) ?? "form";
}

/** Status and place change only through the RPC (any status of the project; dense positions). */
export async function moveTask(supabase: SupabaseClient, taskId: string, statusId: string, position: number | null) {
  // no position: the RPC's default (null) puts the task last
  const args =
    position === null ? { task_id: taskId, status_id: statusId } : { task_id: taskId, status_id: statusId, position };
  return supabase
    .rpc("move_task", args)
    .single<{ id: string; status_id: string; position: number; successor_id: string | null }>();
}

/** The next task of a repeating series (made when its predecessor was completed): where it went. */
export async function readSuccessor(supabase: SupabaseClient, successorId: string) {
  const { data: next } = await supabase
    .from("tasks")
    .select("number, due_on, status_id")
    .eq("id", successorId)
    .maybeSingle<{ number: number; due_on: string | null; status_id: string }>();
  if (!next) return null;
  const { data: status } = await supabase
    .from("project_statuses")
    .select("name")
    .eq("id", next.status_id)
    .maybeSingle();
  return { number: next.number, due_on: next.due_on, status: status as { name: string } | null };
}

/**
 * Deleting a task moves it to the project's trash with everything it has (docs/decisions/0045);
 * `data` is how many went (0 or 1). Files stay until the trash is emptied.
 */
export async function deleteTask(supabase: SupabaseClient, taskId: string) {
  return supabase.rpc("trash_tasks", { task_ids: [taskId] });
}

export interface SearchHit {
  id: string;
  number: number;
  title: string;
  status_name: string;
  status_color: PaletteColor;
  project_key: string;
  project_name: string;
  project_archived: boolean;
  team_slug: string;
  team_name: string;
}

/** docs/product.md §9: at most 50 results (search_tasks clamps its limit there too). */
export const SEARCH_LIMIT = 50;

/**
 * The best matches, at most SEARCH_LIMIT; archived tasks only when asked (and then only they). The RPC can't return more, so a full
 * page means there may be more (`capped`): the page says so and asks for more words.
 */
export async function searchTasks(supabase: SupabaseClient, query: string, { archived = false } = {}) {
  const { data, error } = await supabase
    .rpc("search_tasks", { query, limit: SEARCH_LIMIT, archived })
    .select(
      "id, number, title, status_name, status_color, project_key, project_name, project_archived, team_slug, team_name",
    );
  const hits = (data ?? []) as unknown as SearchHit[];
  return { error, hits, capped: hits.length >= SEARCH_LIMIT };
}

export interface Overview {
  /** tasks of the team's active projects, per status category */
  counts: Record<StatusCategory, number>;
  my_open_tasks: Array<{
    id: string;
    number: number;
    title: string;
    status: StatusRef;
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
