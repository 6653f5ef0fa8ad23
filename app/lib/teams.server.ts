import type { SupabaseClient } from "@supabase/supabase-js";
import { isBackendUnavailable } from "./auth-errors.server";
import { formFailure } from "./forms.server";
import { backendError, backendUnavailableResult, notFound } from "./http.server";
import type { FormValues } from "./schemas";
import { FORBIDDEN_MESSAGE, hasRole, isRole, MEMBERS_PAGE_SIZE, pageOf, pageRange, TEAMS_PAGE_SIZE, type Role } from "./teams";
import type { RequestClient } from "./supabase.server";

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
 * Memoised per request client: the team layout and the page inside it ask
 * once between them.
 */
const teamLookups = new WeakMap<SupabaseClient, Map<string, Promise<TeamAccess | null>>>();

export async function requireTeam(client: RequestClient, userId: string, slug: string | undefined): Promise<TeamAccess> {
  if (!slug || !/^[a-z0-9-]{1,40}$/.test(slug)) throw notFound(client.headers);
  let perClient = teamLookups.get(client.supabase);
  if (!perClient) teamLookups.set(client.supabase, (perClient = new Map()));
  let lookup = perClient.get(slug);
  if (!lookup) {
    lookup = findTeam(client.supabase, userId, slug);
    perClient.set(slug, lookup);
  }
  const team = await lookup.catch((error) => {
    throw backendError(error, client.headers);
  });
  if (!team) throw notFound(client.headers);
  return team;
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

/** For loaders: a page the role may not open at all. */
export function requireRoleOrThrow(team: TeamAccess, min: Role, headers: Headers) {
  if (!hasRole(team.role, min)) throw forbidden(headers);
}

export function forbidden(headers: Headers): Response {
  const h = new Headers(headers);
  h.set("Content-Type", "text/plain; charset=utf-8");
  return new Response(FORBIDDEN_MESSAGE, { status: 403, headers: h });
}

/** For actions: the form comes back with the typed values and §8's 403 message. */
export function forbiddenResult(headers: Headers, { intent, values = {} }: { intent?: string; values?: FormValues } = {}) {
  return formFailure({ intent, errors: { form: FORBIDDEN_MESSAGE }, values }, headers, 403);
}

export interface DbError {
  code?: string;
  message?: string;
  details?: string | null;
  hint?: string | null;
}

/**
 * How a failed write is told to the person. The RPCs raise readable messages
 * with SQLSTATEs (supabase/migrations/…_rpc.sql): 22023 and P0001 are the
 * person's mistake (400), 23505 a taken name, 42501 a role too low (403),
 * PT404/P0002 something they may not know exists (404).
 */
export function classifyDbError(error: DbError): { status: 400 | 403 | 404 | 500 | 503; message: string } {
  if (isBackendUnavailable(error)) return { status: 503, message: "" };
  switch (error.code) {
    case "22023":
    case "P0001":
    case "23514":
    case "22P02":
    case "22007":
    case "22008":
      return { status: 400, message: error.message ?? "That isn't allowed." };
    case "23505":
      return { status: 400, message: error.message?.startsWith("That ") ? error.message : "That name is taken." };
    case "42501":
      return { status: 403, message: FORBIDDEN_MESSAGE };
    case "PT404":
    case "P0002":
    case "PGRST116":
      return { status: 404, message: "" };
    default:
      return { status: 500, message: "" };
  }
}

/**
 * A failed write inside an action: 404 and 500 are thrown (error boundary),
 * the rest come back as the form with its values and a message beside
 * `field` (or above the form).
 */
export function writeFailure(
  error: DbError,
  { intent, values, field = "form", messages = {} }: { intent?: string; values: FormValues; field?: string; messages?: Partial<Record<string, string>> },
  headers: Headers,
) {
  const { status, message } = classifyDbError(error);
  if (status === 503) return backendUnavailableResult(values, headers);
  if (status === 404) throw notFound(headers);
  if (status === 500) throw backendError(error, headers);
  const text = (error.code && messages[error.code]) || message;
  return formFailure({ intent, errors: { [status === 403 ? "form" : field]: text }, values }, headers, status);
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

/** Pending invitations sent to the person's address (what row-level security lets them see). */
export async function listMyPendingInvitations(supabase: SupabaseClient) {
  return supabase
    .from("invitations")
    .select("id, role, created_at, expires_at")
    .is("accepted_at", null)
    .is("revoked_at", null)
    .gt("expires_at", new Date().toISOString())
    .order("created_at", { ascending: false })
    .limit(20)
    .returns<Array<{ id: string; role: Role; created_at: string; expires_at: string }>>();
}

export interface Member {
  userId: string;
  role: Role;
  displayName: string;
  username: string;
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
    .select("user_id, role, profiles(display_name, username)")
    .eq("team_id", teamId)
    .order("role", { ascending: false })
    .order("profiles(display_name)")
    .order("user_id")
    .range(from, to)
    .returns<Array<{ user_id: string; role: Role; profiles: { display_name: string; username: string } | null }>>();
  const rows: Member[] = (data ?? []).map((row) => ({
    userId: row.user_id,
    role: row.role,
    displayName: row.profiles?.display_name ?? "Former member",
    username: row.profiles?.username ?? "",
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

export async function deleteTeam(supabase: SupabaseClient, teamId: string) {
  return supabase.from("teams").delete().eq("id", teamId).select("id").maybeSingle();
}

export async function changeRole(supabase: SupabaseClient, teamId: string, userId: string, role: Role) {
  return supabase.from("team_members").update({ role }).eq("team_id", teamId).eq("user_id", userId).select("user_id").maybeSingle();
}

export async function removeMember(supabase: SupabaseClient, teamId: string, userId: string) {
  return supabase.from("team_members").delete().eq("team_id", teamId).eq("user_id", userId).select("user_id").maybeSingle();
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
    .select("user_id, profile:profiles(display_name)")
    .eq("team_id", teamId)
    .returns<Array<{ user_id: string; profile: { display_name: string } | null }>>();
  if (error) return { error, members: [] as Array<{ id: string; name: string }> };
  const members = (data ?? []).map((row) => ({ id: row.user_id, name: row.profile?.display_name ?? "Former member" }));
  members.sort((a, b) => a.name.localeCompare(b.name));
  return { error: null, members };
}
