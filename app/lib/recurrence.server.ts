import type { SupabaseClient } from "./supabase-types";

/**
 * The repeat rules of a project's tasks that still repeat (a rule and no
 * successor yet), or of one task, named by the URL's team slug, project key
 * (and number), so the read needs no earlier one and runs beside board_view
 * or task_panel, which predate repeating tasks and don't return the rule.
 * Row-level security decides, as for the page's own read.
 */
export async function readRepeats(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string; number?: number },
): Promise<{ error: unknown; rules: Map<string, string> }> {
  let query = supabase
    .from("tasks")
    .select("id, recurrence, projects!inner(key, teams!inner(slug))")
    .eq("projects.key", names.projectKey)
    .eq("projects.teams.slug", names.teamSlug)
    .not("recurrence", "is", null)
    .is("successor_id", null);
  if (names.number !== undefined) query = query.eq("number", names.number);
  const { data, error } = await query.returns<Array<{ id: string; recurrence: string }>>();
  return { error, rules: new Map((data ?? []).map((row) => [row.id, row.recurrence])) };
}
