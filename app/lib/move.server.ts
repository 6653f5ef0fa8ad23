import { backendError, redirect } from "./http.server";
import type { SupabaseClient } from "./supabase-types";

/**
 * Moving a task to another project and duplicating it (docs/product.md §18;
 * docs/decisions/0046-move-and-duplicate.md): what the Move page shows, and the two
 * calls (move_task_to_project, duplicate_task: one transaction each).
 */
export interface MoveTarget {
  id: string;
  key: string;
  name: string;
}

export interface TargetStatus {
  id: string;
  name: string;
  category: string;
}

export interface TaskToMove {
  id: string;
  number: number;
  title: string;
  statusCategory: string;
  parentId: string | null;
  subtasks: number;
  /** its field values' fields, by name and kind */
  fields: Array<{ name: string; kind: string }>;
}

export async function readTaskToMove(supabase: SupabaseClient, taskId: string): Promise<TaskToMove> {
  const [task, subtasks, values] = await Promise.all([
    supabase
      .from("tasks")
      .select("id, number, title, parent_id, status:project_statuses!tasks_status_in_project_fkey(category)")
      .eq("id", taskId)
      .single(),
    supabase.from("tasks").select("id", { count: "exact", head: true }).eq("parent_id", taskId),
    supabase.from("field_values").select("field:fields(name, kind)").eq("task_id", taskId),
  ]);
  const error = task.error ?? subtasks.error ?? values.error;
  if (error) throw backendError(error);
  const row = task.data as unknown as {
    id: string;
    number: number;
    title: string;
    parent_id: string | null;
    status: { category: string } | null;
  };
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    statusCategory: row.status?.category ?? "unstarted",
    parentId: row.parent_id,
    subtasks: subtasks.count ?? 0,
    fields: (values.data as unknown as Array<{ field: { name: string; kind: string } | null }>)
      .map((v) => v.field)
      .filter((f): f is { name: string; kind: string } => f !== null),
  };
}

/** The team's other projects the person may add tasks to: not archived (private ones only if they see them). */
export async function readTargets(supabase: SupabaseClient, teamId: string): Promise<MoveTarget[]> {
  const { data, error } = await supabase
    .from("projects")
    .select("id, key, name")
    .eq("team_id", teamId)
    .is("archived_at", null)
    .order("key");
  if (error) throw backendError(error);
  return data;
}

/** A project's statuses in board order, and its fields (name and kind). */
export async function readTargetShape(supabase: SupabaseClient, projectId: string) {
  const [statuses, fields] = await Promise.all([
    supabase.from("project_statuses").select("id, name, category").eq("project_id", projectId).order("position"),
    supabase.from("fields").select("name, kind").eq("project_id", projectId),
  ]);
  const error = statuses.error ?? fields.error;
  if (error) throw backendError(error);
  return { statuses: statuses.data as TargetStatus[], fields: fields.data as Array<{ name: string; kind: string }> };
}

/** The status a move picks unless told otherwise: the first of the same category, else the first open one. */
export function statusLike(category: string, statuses: TargetStatus[]): TargetStatus | undefined {
  return (
    statuses.find((s) => s.category === category) ??
    statuses.find((s) => s.category !== "completed" && s.category !== "canceled") ??
    statuses[0]
  );
}

/** The names of the task's fields the target has no field for (same name in any capitals, same kind). */
export function fieldsDropped(task: TaskToMove, targetFields: Array<{ name: string; kind: string }>): string[] {
  const has = new Set(targetFields.map((f) => `${f.name.trim().toLowerCase()}\u0000${f.kind}`));
  return task.fields.filter((f) => !has.has(`${f.name.trim().toLowerCase()}\u0000${f.kind}`)).map((f) => f.name);
}

export interface MoveAnswer {
  project_key: string;
  number: number;
  dropped_fields: string[];
  unassigned?: string[];
}

export async function moveTaskToProject(
  supabase: SupabaseClient,
  taskId: string,
  targetProject: string,
  targetStatus: string | null,
) {
  const { data, error } = await supabase.rpc("move_task_to_project", {
    task_id: taskId,
    target_project: targetProject,
    ...(targetStatus ? { target_status: targetStatus } : {}),
  });
  return { answer: data as unknown as MoveAnswer | null, error };
}

export async function duplicateTask(supabase: SupabaseClient, taskId: string, targetProject: string, title: string) {
  const { data, error } = await supabase.rpc("duplicate_task", {
    task_id: taskId,
    target_project: targetProject,
    title,
  });
  return { answer: data as unknown as MoveAnswer | null, error };
}

/**
 * A task's old address (it moved: WEB-12 is OPS-7 now) as a permanent redirect to the new one,
 * the rest of the address kept; null when the key was never moved or the reader can't see where.
 */
export async function movedTaskRedirect(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string; number: number },
  url: URL,
): Promise<Response | null> {
  const { data, error } = await supabase.rpc(
    "moved_task_address",
    { team_slug: names.teamSlug, project_key: names.projectKey, task_number: names.number },
    { get: true },
  );
  if (error) throw backendError(error);
  const to = data as unknown as { project_key: string; number: number } | null;
  if (!to) return null;
  const prefix = `/teams/${encodeURIComponent(names.teamSlug)}/projects/`;
  const rest = url.pathname.slice(url.pathname.indexOf("/tasks/") + "/tasks/".length).replace(/^\d+/, "");
  return redirect(`${prefix}${encodeURIComponent(to.project_key)}/tasks/${to.number}${rest}${url.search}`, 301);
}

/**
 * The address of the task a search names by its key (`WEB-12`, any capitals), as it is now or
 * was before it moved, in the reader's teams; null unless exactly one task answers.
 */
export async function taskAddressByKey(supabase: SupabaseClient, q: string): Promise<string | null> {
  const m = /^([A-Za-z][A-Za-z0-9]{1,9})-(\d{1,9})$/.exec(q.trim());
  if (!m) return null;
  const key = m[1].toUpperCase();
  const number = Number(m[2]);
  const projects = await supabase.from("projects").select("id").eq("key", key);
  if (projects.error) throw backendError(projects.error);
  const ids = projects.data.map((p) => p.id);
  if (ids.length === 0) return null;
  const moves = await supabase
    .from("task_moves")
    .select("task_id")
    .in("from_project_id", ids)
    .eq("from_number", number);
  if (moves.error) throw backendError(moves.error);
  const moved = moves.data.map((r) => r.task_id);
  let query = supabase.from("tasks").select("number, project:projects!inner(key, team:teams!inner(slug))");
  query = moved.length
    ? query.or(`and(project_id.in.(${ids.join(",")}),number.eq.${number}),id.in.(${moved.join(",")})`)
    : query.in("project_id", ids).eq("number", number);
  const tasks = await query.limit(2);
  if (tasks.error) throw backendError(tasks.error);
  const rows = tasks.data as unknown as Array<{ number: number; project: { key: string; team: { slug: string } } }>;
  if (rows.length !== 1) return null;
  const [t] = rows;
  return `/teams/${encodeURIComponent(t.project.team.slug)}/projects/${encodeURIComponent(t.project.key)}/tasks/${t.number}`;
}
