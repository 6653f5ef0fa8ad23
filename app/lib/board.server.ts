import type { SupabaseClient } from "./supabase-types";
import { STATUSES, type BoardFilters, type Card, type Status } from "./board";
import { readRepeats } from "./recurrence.server";

export interface BoardColumn {
  status: Status;
  tasks: Card[];
  /** more tasks match beyond `limit` ("show more") */
  hasMore: boolean;
  limit: number;
}

export interface BoardMember {
  id: string;
  name: string;
  avatarPath: string | null;
}

export interface BoardView {
  project: { id: string; key: string; name: string; description: string; archived_at: string | null };
  columns: BoardColumn[];
  /** the team's members by name, for the filters and the cards' avatars */
  members: BoardMember[];
}

interface BoardViewRow {
  project: BoardView["project"];
  columns: Partial<Record<Status, Card[]>>;
  members: Array<{ id: string; display_name: string | null; avatar_path: string | null }>;
}

/**
 * The board in one round trip (the `board_view` function, as the caller, so
 * row-level security decides): the project named by the URL's team slug and
 * key, each column's first `limit` cards by position plus one to know whether
 * there are more, with the filters applied by the database, and the team's
 * members. It needs no earlier read, so it runs beside the team lookup. No
 * exact counts: counting a 1,200-task column checks row-level security on
 * every row, which cost 5x the page (see docs/decisions/0004). `board` is
 * null for a project the person can't see.
 */
export async function loadBoard(
  supabase: SupabaseClient,
  teamSlug: string,
  projectKey: string,
  filters: BoardFilters,
  limits: Record<Status, number>,
): Promise<{ error: unknown; board: BoardView | null }> {
  const [{ data, error }, repeats] = await Promise.all([
    supabase.rpc(
      "board_view",
      {
        team_slug: teamSlug,
        project_key: projectKey,
        assignee: filters.assignee ?? undefined,
        label: filters.label ?? undefined,
        q: filters.q ?? undefined,
        limits,
        // a read: GET, like the REST reads it replaces (and the request log shows which board)
      },
      { get: true },
    ),
    // which cards repeat (board_view predates repeating tasks): beside it, not after
    readRepeats(supabase, { teamSlug, projectKey }),
  ]);
  if (error || repeats.error) return { error: error ?? repeats.error, board: null };
  const row = data as unknown as BoardViewRow | null;
  if (!row) return { error: null, board: null };
  const members = row.members.map((m) => ({
    id: m.id,
    name: m.display_name ?? "Former member",
    avatarPath: m.avatar_path ?? null,
  }));
  members.sort((a, b) => a.name.localeCompare(b.name));
  return {
    error: null,
    board: {
      project: row.project,
      members,
      columns: STATUSES.map((status) => {
        const rows = row.columns[status] ?? [];
        return {
          status,
          tasks: rows.slice(0, limits[status]).map((card) => ({ ...card, repeats: repeats.rules.has(card.id) })),
          hasMore: rows.length > limits[status],
          limit: limits[status],
        };
      }),
    },
  };
}
