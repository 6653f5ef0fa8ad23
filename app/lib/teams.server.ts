import { removeQueuedFiles } from "./storage.server";
import type { SupabaseClient } from "./supabase-types";
import { notFound, requireFound } from "./http.server";
import { MEMBERS_PAGE_SIZE, pageOf, pageRange, TEAMS_PAGE_SIZE } from "./paging";
import { isRole, type Role } from "./permissions";
import { requestClient } from "./supabase.server";

export interface TeamAccess {
  id: string;
  name: string;
  slug: string;
  /** the signed-in person's role in it */
  role: Role;
}

/**
 * The team behind `:team` and the person's role in it, or a thrown 404 for
 * anyone who isn't a member (the app never says whether a team exists).
 * Asked once per request: the team layout and the page inside it share it.
 */
export async function requireTeam(userId: string, slug: string | undefined): Promise<TeamAccess> {
  if (!slug || !/^[a-z0-9-]{1,40}$/.test(slug)) throw notFound();
  return requireFound(`team ${slug}`, () => findTeam(requestClient(), userId, slug));
}

async function findTeam(supabase: SupabaseClient, userId: string, slug: string): Promise<TeamAccess | null> {
  const { data, error } = await supabase
    .from("team_members")
    .select("role, team:teams!inner(id, name, slug)")
    .eq("user_id", userId)
    .eq("team.slug", slug)
    .maybeSingle<{ role: string; team: { id: string; name: string; slug: string } }>();
  if (error) throw error;
  if (!data || !isRole(data.role)) return null;
  return { ...data.team, role: data.role };
}

// Reads ---------------------------------------------------------------------------

export interface MyTeam {
  role: Role;
  team: { id: string; name: string; slug: string };
}

/** One page of the person's teams, by name (the team's id breaks ties, so pages never overlap). */
export async function listMyTeams(supabase: SupabaseClient, userId: string, page: number) {
  const { from, to } = pageRange(page, TEAMS_PAGE_SIZE);
  const { data, error } = await supabase
    .from("team_members")
    .select("role, teams!inner(id, name, slug)")
    .eq("user_id", userId)
    .order("teams(name)")
    .order("team_id")
    .range(from, to)
    .returns<Array<{ role: Role; teams: MyTeam["team"] }>>();
  const rows: MyTeam[] = (data ?? []).map((row) => ({ role: row.role, team: row.teams }));
  return { error, ...pageOf(rows, page, TEAMS_PAGE_SIZE) };
}

export interface Member {
  userId: string;
  role: Role;
  displayName: string;
  username: string;
  avatarPath: string | null;
}

/**
 * One page of a team's members: owner first, then admins, members, viewers
 * (the role enum's order, reversed), each by name, the id breaking ties so a
 * page boundary never repeats or skips anyone.
 */
export async function listMembers(supabase: SupabaseClient, teamId: string, page: number) {
  const { from, to } = pageRange(page, MEMBERS_PAGE_SIZE);
  const { data, error } = await supabase
    .from("team_members")
    .select("user_id, role, profiles(display_name, username, avatar_path)")
    .eq("team_id", teamId)
    .order("role", { ascending: false })
    .order("profiles(display_name)")
    .order("user_id")
    .range(from, to)
    .returns<
      Array<{
        user_id: string;
        role: Role;
        profiles: { display_name: string; username: string; avatar_path: string | null } | null;
      }>
    >();
  const rows: Member[] = (data ?? []).map((row) => ({
    userId: row.user_id,
    role: row.role,
    displayName: row.profiles?.display_name ?? "Former member",
    username: row.profiles?.username ?? "",
    avatarPath: row.profiles?.avatar_path ?? null,
  }));
  return { error, ...pageOf(rows, page, MEMBERS_PAGE_SIZE) };
}

// Writes --------------------------------------------------------------------------

export async function createTeam(supabase: SupabaseClient, name: string, slug: string) {
  return supabase.rpc("create_team", { name, slug }).single<{ id: string; slug: string }>();
}

export async function renameTeam(supabase: SupabaseClient, teamId: string, name: string) {
  return supabase.from("teams").update({ name }).eq("id", teamId).select("id").maybeSingle();
}

/** A new address (slug) for the team: admins and the owner (RLS); a taken one fails with 23505. */
export async function changeTeamAddress(supabase: SupabaseClient, teamId: string, slug: string) {
  return supabase.from("teams").update({ slug }).eq("id", teamId).select("slug").maybeSingle();
}

/** Deletes the team (and with it its projects, tasks and attachment rows); the files follow through the cleanup queue. */
export async function deleteTeam(supabase: SupabaseClient, teamId: string) {
  const result = await supabase.from("teams").delete().eq("id", teamId).select("id").maybeSingle();
  if (!result.error && result.data) await removeQueuedFiles();
  return result;
}

export async function changeRole(supabase: SupabaseClient, teamId: string, userId: string, role: Role) {
  return supabase
    .from("team_members")
    .update({ role })
    .eq("team_id", teamId)
    .eq("user_id", userId)
    .select("user_id")
    .maybeSingle();
}

export async function removeMember(supabase: SupabaseClient, teamId: string, userId: string) {
  return supabase
    .from("team_members")
    .delete()
    .eq("team_id", teamId)
    .eq("user_id", userId)
    .select("user_id")
    .maybeSingle();
}

export async function leaveTeam(supabase: SupabaseClient, teamId: string) {
  return supabase.rpc("leave_team", { team_id: teamId });
}

export async function transferOwnership(supabase: SupabaseClient, teamId: string, newOwnerId: string) {
  return supabase.rpc("transfer_ownership", { team_id: teamId, new_owner_id: newOwnerId });
}

/** Names for cards and the assignee menus: the members' ids and display names only. */
export async function listMemberNames(supabase: SupabaseClient, teamId: string) {
  const { data, error } = await supabase
    .from("team_members")
    .select("user_id, profile:profiles(display_name, avatar_path)")
    .eq("team_id", teamId)
    .returns<Array<{ user_id: string; profile: { display_name: string; avatar_path: string | null } | null }>>();
  if (error) return { error, members: [] as Array<{ id: string; name: string; avatarPath: string | null }> };
  const members = (data ?? []).map((row) => ({
    id: row.user_id,
    name: row.profile?.display_name ?? "Former member",
    avatarPath: row.profile?.avatar_path ?? null,
  }));
  members.sort((a, b) => a.name.localeCompare(b.name));
  return { error: null, members };
}
