import type { StatusCategory, StatusColumnInfo } from "./board";
import type { PaletteColor } from "./palette";
import type { TablesInsert } from "./database.types";
import type { SupabaseClient } from "./supabase-types";

/**
 * A project's statuses (docs/product.md §11). Adding, renaming, recolouring
 * and WIP limits are plain writes row-level security allows admins; the
 * order and removal go through move_status() and remove_status(), which keep
 * the order dense and move a removed status's tasks in the same transaction.
 */

/** A status on the settings page: with how many tasks it holds, counted. */
export type StatusWithCount = StatusColumnInfo & { count: number };

/** The settings page's list: each status with how many tasks it holds. */
export async function listStatuses(supabase: SupabaseClient, projectId: string) {
  const { data, error } = await supabase
    .from("project_statuses")
    .select("id, name, color, category, position, wip_limit, tasks(count)")
    .eq("project_id", projectId)
    .order("position")
    .returns<Array<Omit<StatusColumnInfo, "count"> & { tasks: Array<{ count: number }> }>>();
  const statuses = (data ?? []).map(({ tasks, ...status }): StatusWithCount => ({
    ...status,
    count: tasks[0]?.count ?? 0,
  }));
  return { error, statuses };
}

export async function addStatus(
  supabase: SupabaseClient,
  projectId: string,
  fields: { name: string; color: PaletteColor; category: StatusCategory; wipLimit: number | null },
) {
  const row = {
    project_id: projectId,
    name: fields.name,
    color: fields.color,
    category: fields.category,
    wip_limit: fields.wipLimit,
  } satisfies Omit<TablesInsert<"project_statuses">, "position">;
  return (
    supabase
      .from("project_statuses")
      // the generated Insert type requires position, which the project_statuses_before_insert trigger fills in (the end)
      .insert(row as TablesInsert<"project_statuses">)
      .select("id")
      .single()
  );
}

export async function updateStatus(
  supabase: SupabaseClient,
  projectId: string,
  statusId: string,
  fields: { name: string; color: PaletteColor; wipLimit: number | null },
) {
  return supabase
    .from("project_statuses")
    .update({ name: fields.name, color: fields.color, wip_limit: fields.wipLimit })
    .eq("id", statusId)
    .eq("project_id", projectId)
    .select("id")
    .maybeSingle();
}

export async function moveStatus(supabase: SupabaseClient, statusId: string, position: number) {
  return supabase.rpc("move_status", { status_id: statusId, position });
}

export async function removeStatus(supabase: SupabaseClient, statusId: string, moveTo: string | null) {
  return supabase.rpc("remove_status", moveTo ? { status_id: statusId, move_to: moveTo } : { status_id: statusId });
}
