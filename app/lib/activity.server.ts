import type { TaskEvent } from "./activity";
import type { TimelineCursor } from "./comments";
import type { SupabaseClient } from "./supabase-types";

/**
 * The team's activity page (docs/product.md §10): its tasks' events newest first,
 * filtered by project (its key) and person (their username), 50 a page
 * before a cursor. Named by the URL's team slug, so it runs beside the team
 * lookup; row-level security shows members their team's events only.
 */
export const ACTIVITY_PAGE_SIZE = 50;

export interface ActivityEvent extends TaskEvent {
  /** null once the task is deleted: its events stay, named by task_number and task_title */
  task: { number: number; title: string } | null;
  task_number: number | null;
  task_title: string | null;
  project: { key: string };
}

export interface ActivityFilters {
  project: string | null;
  person: string | null;
  before: TimelineCursor | null;
}

export async function listTeamActivity(supabase: SupabaseClient, teamSlug: string, filters: ActivityFilters) {
  // one request that walks the team's events newest first (team_activity, as the reader: row-level
  // security decides; 20261207000240)
  const { data, error } = await supabase.rpc(
    "team_activity",
    {
      team_slug: teamSlug,
      project_key: filters.project ?? undefined,
      person: filters.person ?? undefined,
      before_at: filters.before?.createdAt,
      before_id: filters.before?.id,
      max_rows: ACTIVITY_PAGE_SIZE + 1,
    },
    { get: true },
  );
  const rows = (data ?? []) as unknown as ActivityEvent[];
  return { error, events: rows.slice(0, ACTIVITY_PAGE_SIZE), hasMore: rows.length > ACTIVITY_PAGE_SIZE };
}

/** The team's members (for the person filter and the names events mention), by the team's slug. */
export async function listTeamPeople(supabase: SupabaseClient, teamSlug: string) {
  const { data, error } = await supabase
    .from("team_members")
    .select("user_id, profile:profiles(display_name, username), team:teams!inner(slug)")
    .eq("team.slug", teamSlug)
    .returns<Array<{ user_id: string; profile: { display_name: string; username: string } | null }>>();
  const people = (data ?? [])
    .filter((row) => row.profile)
    .map((row) => ({ id: row.user_id, name: row.profile!.display_name, username: row.profile!.username }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { error, people };
}

/** The team's projects' keys and names, archived ones too (their events stay), for the project filter. */
export async function listTeamProjectKeys(supabase: SupabaseClient, teamSlug: string) {
  const { data, error } = await supabase
    .from("projects")
    .select("key, name, team:teams!inner(slug)")
    .eq("team.slug", teamSlug)
    .order("name")
    .returns<Array<{ key: string; name: string }>>();
  return { error, projects: (data ?? []).map(({ key, name }) => ({ key, name })) };
}
