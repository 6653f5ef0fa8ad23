import type { TablesInsert } from "./database.types";
import type { RelationKind } from "./tasks.server";
import type { RelationChoice } from "./relations";
import type { SupabaseClient } from "./supabase-types";

/**
 * Breaking a task down (docs/product.md §11): its checklist, its relations
 * to other tasks of the team. Every rule (limits, one team, no pair twice,
 * no mutual blocking) is the database's; these are the writes.
 */

export async function addChecklistItem(supabase: SupabaseClient, taskId: string, title: string) {
  const row = { task_id: taskId, title } satisfies Omit<TablesInsert<"checklist_items">, "project_id" | "position">;
  return (
    supabase
      .from("checklist_items")
      // the generated Insert type requires project_id and position, which the checklist_items_before_insert trigger fills in
      .insert(row as TablesInsert<"checklist_items">)
      .select("id")
      .single()
  );
}

export async function editChecklistItem(supabase: SupabaseClient, taskId: string, itemId: string, title: string) {
  return supabase
    .from("checklist_items")
    .update({ title })
    .eq("id", itemId)
    .eq("task_id", taskId)
    .select("id")
    .maybeSingle();
}

export async function tickChecklistItem(supabase: SupabaseClient, taskId: string, itemId: string, done: boolean) {
  return supabase
    .from("checklist_items")
    .update({ done })
    .eq("id", itemId)
    .eq("task_id", taskId)
    .select("id")
    .maybeSingle();
}

export async function moveChecklistItem(supabase: SupabaseClient, itemId: string, position: number) {
  return supabase.rpc("move_checklist_item", { item_id: itemId, position });
}

export async function removeChecklistItem(supabase: SupabaseClient, taskId: string, itemId: string) {
  return supabase.from("checklist_items").delete().eq("id", itemId).eq("task_id", taskId).select("id").maybeSingle();
}

/** The task named "KEY-12" in a team (RLS decides who may see it), or null. */
export async function findTeamTask(supabase: SupabaseClient, teamSlug: string, ref: { key: string; number: number }) {
  return supabase
    .from("tasks")
    .select("id, project:projects!inner(key, team:teams!inner(slug))")
    .eq("number", ref.number)
    .eq("project.key", ref.key)
    .eq("project.team.slug", teamSlug)
    .maybeSingle<{ id: string }>();
}

/** A relation picked from this task's side ("is blocked by" is the other task blocking this one). */
export function relationRow(taskId: string, otherId: string, choice: RelationChoice) {
  const kind: RelationKind =
    choice === "blocks" || choice === "blocked-by" ? "blocks" : choice === "relates" ? "relates" : "duplicates";
  const incoming = choice === "blocked-by" || choice === "duplicated-by";
  return { from_task_id: incoming ? otherId : taskId, to_task_id: incoming ? taskId : otherId, kind };
}

export async function addRelation(supabase: SupabaseClient, row: ReturnType<typeof relationRow>) {
  return (
    supabase
      .from("task_relations")
      // the generated Insert type requires team_id, which the task_relations_before_insert trigger fills in
      .insert(row as TablesInsert<"task_relations">)
      .select("id")
      .single()
  );
}

/** From either side: the relation must touch this task. */
export async function removeRelation(supabase: SupabaseClient, taskId: string, relationId: string) {
  return supabase
    .from("task_relations")
    .delete()
    .eq("id", relationId)
    .or(`from_task_id.eq.${taskId},to_task_id.eq.${taskId}`)
    .select("id")
    .maybeSingle();
}
