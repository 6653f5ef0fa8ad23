import type { SupabaseClient } from "./supabase-types";
import { notFound, requireFound } from "./http.server";
import { requestClient } from "./supabase.server";

export interface ProjectSummary {
  id: string;
  key: string;
  name: string;
  archived_at: string | null;
}

export interface Project extends ProjectSummary {
  description: string;
}

/**
 * Active projects, and archived ones when asked for, by name (the id breaks
 * ties, so pages never overlap): rows `from`..`to` inclusive, as `.range()`.
 * The sidebar asks for its first few; the projects page for one page at a time.
 * Named by the team's slug (RLS decides: a team the person isn't in has no
 * projects), so it needs no earlier read and runs beside the team's lookup.
 */
export async function listProjects(
  supabase: SupabaseClient,
  teamSlug: string,
  { includeArchived, from, to }: { includeArchived: boolean; from: number; to: number },
) {
  let query = supabase
    .from("projects")
    .select("id, key, name, archived_at, team:teams!inner(slug)")
    .eq("team.slug", teamSlug);
  if (!includeArchived) query = query.is("archived_at", null);
  const { data, error } = await query
    .order("archived_at", { ascending: true, nullsFirst: true })
    .order("name")
    .order("id")
    .range(from, to)
    .returns<Array<ProjectSummary & { team: unknown }>>();
  return {
    error,
    data: data?.map(({ id, key, name, archived_at }): ProjectSummary => ({ id, key, name, archived_at })),
  };
}

/**
 * The project behind `:key` in the team behind `:team`, or a thrown 404. By
 * the team's slug, not its id, so that it needs no earlier read and runs
 * beside the team's own lookup (requireProjectContext): one round trip fewer
 * on every board, task and form post under a project. RLS decides: a project
 * of a team the person isn't in is not found. Asked once per request: the
 * board and its task panel share it.
 */
export async function requireProjectInTeam(teamSlug: string | undefined, key: string | undefined): Promise<Project> {
  if (!key || !/^[A-Z]{2,10}$/.test(key) || !teamSlug) throw notFound();
  return requireFound(`project ${teamSlug}/${key}`, async () => {
    const { data, error } = await requestClient()
      .from("projects")
      .select("id, key, name, description, archived_at, team:teams!inner(slug)")
      .eq("team.slug", teamSlug)
      .eq("key", key)
      .maybeSingle<Project & { team: unknown }>();
    if (error) throw error;
    if (!data) return null;
    const { team: _team, ...project } = data;
    return project;
  });
}

export async function createProject(
  supabase: SupabaseClient,
  teamId: string,
  fields: { key: string; name: string; description: string; visibility?: "team" | "private" },
) {
  return supabase
    .from("projects")
    .insert({ team_id: teamId, ...fields })
    .select("id, key")
    .single<{ id: string; key: string }>();
}

export async function setProjectArchived(supabase: SupabaseClient, projectId: string, archived: boolean) {
  return supabase
    .from("projects")
    .update({ archived_at: archived ? new Date().toISOString() : null })
    .eq("id", projectId)
    .select("id")
    .maybeSingle();
}
