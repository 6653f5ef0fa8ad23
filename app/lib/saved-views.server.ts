import type { SupabaseClient } from "./supabase-types";
import { isViewKind, type SavedView, type ViewKind } from "./views";

interface SavedViewRow {
  id: string;
  name: string;
  kind: string;
  query: string;
  shared: boolean;
  owner_id: string;
}

/**
 * The saved views of the project named by the URL (team slug and key) that
 * the person may see: their own and the team's shared ones (row-level
 * security decides), shared first, then by name. Named by the URL, so it
 * runs beside the team lookup. At most 20 per person; shared ones are few.
 */
export async function listSavedViews(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string },
  userId: string,
): Promise<{ error: unknown; views: SavedView[] }> {
  const { data, error } = await supabase
    .from("saved_views")
    .select("id, name, kind, query, shared, owner_id, project:projects!inner(key, team:teams!inner(slug))")
    .eq("project.key", names.projectKey)
    .eq("project.team.slug", names.teamSlug)
    .order("shared", { ascending: false })
    .order("name")
    .order("id")
    .limit(200);
  if (error) return { error, views: [] };
  const rows = (data ?? []) as unknown as SavedViewRow[];
  return {
    error: null,
    views: rows
      .filter((row) => isViewKind(row.kind))
      .map((row) => ({
        id: row.id,
        name: row.name,
        kind: row.kind as ViewKind,
        query: row.query,
        shared: row.shared,
        mine: row.owner_id === userId,
      })),
  };
}

export async function saveView(
  supabase: SupabaseClient,
  projectId: string,
  view: { name: string; kind: ViewKind; query: string; shared: boolean },
) {
  return supabase
    .from("saved_views")
    .insert({ project_id: projectId, ...view })
    .select("id")
    .single<{ id: string }>();
}

/** Null data: no such view the person may rename (row-level security). */
export async function renameView(supabase: SupabaseClient, viewId: string, name: string) {
  return supabase.from("saved_views").update({ name }).eq("id", viewId).select("id").maybeSingle<{ id: string }>();
}

/** Null data: no such view the person may delete (row-level security). */
export async function deleteView(supabase: SupabaseClient, viewId: string) {
  return supabase.from("saved_views").delete().eq("id", viewId).select("id").maybeSingle<{ id: string }>();
}

/** Whether the person can see the view at all (to tell a 403 from a 404 after a refused change). */
export async function canSeeView(supabase: SupabaseClient, viewId: string) {
  const { data, error } = await supabase.from("saved_views").select("id").eq("id", viewId).maybeSingle();
  return { error, visible: !!data };
}
