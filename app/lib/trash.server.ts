import type { SupabaseClient } from "@supabase/supabase-js";
import { removeQueuedFiles } from "./storage.server";

/**
 * Archive and trash (docs/product.md §18, docs/decisions/0045): the database
 * decides who may (archive_task: members+; trash_tasks, restore_task,
 * purge_task: admins+, whoever could delete) and keeps the column's places.
 */

export interface TrashedTask {
  id: string;
  number: number;
  title: string;
  deleted_at: string;
  deleted_by_name: string | null;
  /** when the purge job removes it for good */
  purge_on: string;
}

export interface ArchivedTask {
  id: string;
  number: number;
  title: string;
  archived_at: string;
}

/** Archives a task (off the board, lists and calendars), or puts it back at the end of its column. */
export async function archiveTask(supabase: SupabaseClient, taskId: string, archived: boolean) {
  return supabase
    .rpc("archive_task", { task_id: taskId, archived })
    .select("id, number")
    .maybeSingle<{ id: string; number: number }>();
}

/** The project's trash, newest first (empty for someone who may not restore). */
export async function readTrash(supabase: SupabaseClient, projectId: string) {
  const { data, error } = await supabase.rpc("project_trash", { project_id: projectId });
  return { error, tasks: (data ?? []) as TrashedTask[] };
}

/** The project's archived tasks, last archived first (at most 500). */
export async function readArchived(supabase: SupabaseClient, projectId: string) {
  const { data, error } = await supabase
    .from("tasks")
    .select("id, number, title, archived_at")
    .eq("project_id", projectId)
    .not("archived_at", "is", null)
    .order("archived_at", { ascending: false })
    .order("number", { ascending: false })
    .limit(500);
  return { error, tasks: (data ?? []) as ArchivedTask[] };
}

export async function restoreTask(supabase: SupabaseClient, taskId: string) {
  return supabase
    .rpc("restore_task", { task_id: taskId })
    .select("id, number")
    .maybeSingle<{ id: string; number: number }>();
}

/** Deletes a task of the trash for good; its files follow through the cleanup queue, its activity stays. */
export async function purgeTask(supabase: SupabaseClient, taskId: string) {
  const result = await supabase.rpc("purge_task", { task_id: taskId });
  if (!result.error) await removeQueuedFiles();
  return result;
}
