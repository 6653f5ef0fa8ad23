import type { Role } from "./permissions";
import type { Visibility } from "./project-access.schemas";
import type { SupabaseClient } from "./supabase-types";

/**
 * Who sees a project (docs/product.md §20; decision 0039). The database
 * decides (row-level security on projects and everything in them); these are
 * the settings page's reads and writes.
 */

export interface ProjectPerson {
  userId: string;
  displayName: string;
  role: Role;
}

/** Of the team, at most this many are listed to choose from (a team has at most a few hundred). */
const PEOPLE_LIMIT = 500;

/** The project's visibility, its chosen members, and the team's other people below admin to choose from. */
export async function projectAccess(supabase: SupabaseClient, projectId: string, teamId: string) {
  const [project, members, team] = await Promise.all([
    supabase.from("projects").select("visibility").eq("id", projectId).maybeSingle<{ visibility: Visibility }>(),
    supabase.from("project_members").select("user_id").eq("project_id", projectId).limit(PEOPLE_LIMIT),
    supabase
      .from("team_members")
      .select("user_id, role, profiles(display_name)")
      .eq("team_id", teamId)
      .order("role", { ascending: false })
      .order("profiles(display_name)")
      .order("user_id")
      .limit(PEOPLE_LIMIT)
      .returns<Array<{ user_id: string; role: Role; profiles: { display_name: string } | null }>>(),
  ]);
  const error = project.error ?? members.error ?? team.error;
  const chosen = new Set((members.data ?? []).map((m) => m.user_id));
  const people: ProjectPerson[] = (team.data ?? []).map((m) => ({
    userId: m.user_id,
    role: m.role,
    displayName: m.profiles?.display_name ?? "Former member",
  }));
  const visibility = project.data?.visibility ?? "team";
  // a team-wide project is seen by everyone but guests: only guests are chosen for it
  const seesAnyway = (p: ProjectPerson) =>
    p.role === "admin" || p.role === "owner" || (visibility === "team" && p.role !== "guest");
  return {
    error,
    visibility,
    /** admins and owners: they see every project */
    always: people.filter(seesAnyway),
    members: people.filter((p) => !seesAnyway(p) && chosen.has(p.userId)),
    candidates: people.filter((p) => !seesAnyway(p) && !chosen.has(p.userId)),
  };
}

export async function setProjectVisibility(supabase: SupabaseClient, projectId: string, visibility: Visibility) {
  return supabase.from("projects").update({ visibility }).eq("id", projectId).select("id").maybeSingle();
}

export async function addProjectMember(supabase: SupabaseClient, projectId: string, userId: string) {
  return supabase.from("project_members").insert({ project_id: projectId, user_id: userId });
}

export async function removeProjectMember(supabase: SupabaseClient, projectId: string, userId: string) {
  return supabase
    .from("project_members")
    .delete()
    .eq("project_id", projectId)
    .eq("user_id", userId)
    .select("user_id")
    .maybeSingle();
}

/** The team's people below admin, to choose on the new-project form (admins and owners see every project). */
export async function choosablePeople(supabase: SupabaseClient, teamId: string) {
  const { data, error } = await supabase
    .from("team_members")
    .select("user_id, role, profiles(display_name)")
    .eq("team_id", teamId)
    .in("role", ["guest", "viewer", "member"])
    .order("profiles(display_name)")
    .order("user_id")
    .limit(PEOPLE_LIMIT)
    .returns<Array<{ user_id: string; role: Role; profiles: { display_name: string } | null }>>();
  const people: ProjectPerson[] = (data ?? []).map((m) => ({
    userId: m.user_id,
    role: m.role,
    displayName: m.profiles?.display_name ?? "Former member",
  }));
  return { error, people };
}

/** Several people at once (the new-project form); the database refuses anyone outside the team. */
export async function addProjectMembers(supabase: SupabaseClient, projectId: string, userIds: string[]) {
  if (userIds.length === 0) return { error: null };
  return supabase.from("project_members").insert(userIds.map((userId) => ({ project_id: projectId, user_id: userId })));
}
