import type { LabelChip } from "./board.server";
import type { PaletteColor } from "./palette";
import type { SupabaseClient } from "./supabase-types";

/**
 * A team's labels (docs/product.md §11): members+ create them (and put them
 * on tasks through the task form), admins+ rename, recolour and delete them;
 * row-level security decides.
 */

export interface TeamLabel extends LabelChip {
  /** how many tasks carry it */
  tasks: number;
}

/** The labels page: every label of the team (at most 100) by name, with how many tasks carry it. */
export async function listLabels(supabase: SupabaseClient, teamSlug: string) {
  const { data, error } = await supabase
    .from("labels")
    .select("id, name, color, task_labels(count), team:teams!inner(slug)")
    .eq("team.slug", teamSlug)
    .order("name")
    .returns<Array<LabelChip & { task_labels: Array<{ count: number }> }>>();
  const labels = (data ?? []).map(({ id, name, color, task_labels }): TeamLabel => ({
    id,
    name,
    color,
    tasks: task_labels[0]?.count ?? 0,
  }));
  labels.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }));
  return { error, labels };
}

export async function createLabel(
  supabase: SupabaseClient,
  teamId: string,
  fields: { name: string; color: PaletteColor },
) {
  // created_by is the database's default: the caller
  return supabase
    .from("labels")
    .insert({ team_id: teamId, name: fields.name, color: fields.color })
    .select("id")
    .single();
}

export async function updateLabel(
  supabase: SupabaseClient,
  teamId: string,
  labelId: string,
  fields: { name: string; color: PaletteColor },
) {
  return supabase
    .from("labels")
    .update({ name: fields.name, color: fields.color })
    .eq("id", labelId)
    .eq("team_id", teamId)
    .select("id")
    .maybeSingle();
}

/** A deleted label leaves every task that carried it. */
export async function deleteLabel(supabase: SupabaseClient, teamId: string, labelId: string) {
  return supabase.from("labels").delete().eq("id", labelId).eq("team_id", teamId).select("id").maybeSingle();
}
