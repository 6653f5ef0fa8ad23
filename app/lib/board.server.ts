import type { SupabaseClient } from "./supabase-types";
import { STATUSES, type BoardFilters, type Priority, type Status } from "./board";

/** What a card shows, and nothing more (no description: it can be 10,000 characters). */
export const CARD_COLUMNS = "id, number, title, status, priority, assignee_id, due_on, labels, position";

export interface Card {
  id: string;
  number: number;
  title: string;
  status: Status;
  priority: Priority;
  assignee_id: string | null;
  due_on: string | null;
  labels: string[];
  position: number;
}

export interface BoardColumn {
  status: Status;
  tasks: Card[];
  /** more tasks match beyond `limit` ("show more") */
  hasMore: boolean;
  limit: number;
}

/** A value inside a PostgREST filter, double-quoted so commas, dots and parentheses stay literal. */
export function quoteFilterValue(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A one-element Postgres array literal, for `labels cs {…}`. */
export function arrayLiteral(value: string): string {
  return `{${quoteFilterValue(value)}}`;
}

/** `%` and `_` are wildcards in LIKE; `*` is PostgREST's spelling of `%` and can't be escaped, so it goes. */
export function likeEscape(value: string): string {
  return value.replace(/\*/g, "").replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The board's columns: one request per status (five, whatever the number of
 * tasks), each asking for the first `limit` cards by position, plus one to
 * know whether there are more, with the filters applied by the database.
 * Five in parallel keep "200 per column" exact under any filter. No exact
 * counts: counting a 1,200-task column checks row-level security on every
 * row, which cost 5x the page (see docs/decisions/0004).
 */
export async function loadColumns(
  supabase: SupabaseClient,
  projectId: string,
  filters: BoardFilters,
  userId: string,
  limits: Record<Status, number>,
): Promise<{ error: unknown; columns: BoardColumn[] }> {
  const results = await Promise.all(
    STATUSES.map((status) => {
      let query = supabase.from("tasks").select(CARD_COLUMNS).eq("project_id", projectId).eq("status", status);
      if (filters.assignee === "me") query = query.eq("assignee_id", userId);
      else if (filters.assignee === "none") query = query.is("assignee_id", null);
      else if (filters.assignee) query = query.eq("assignee_id", filters.assignee);
      if (filters.label) query = query.filter("labels", "cs", arrayLiteral(filters.label));
      if (filters.q) {
        // words anywhere (full text, stemmed) or a piece of the title as typed
        query = query.or(
          `search.wfts(english).${quoteFilterValue(filters.q)},title.ilike.${quoteFilterValue(`*${likeEscape(filters.q)}*`)}`,
        );
      }
      return query
        .order("position")
        .limit(limits[status] + 1)
        .returns<Card[]>();
    }),
  );
  const failed = results.find((r) => r.error);
  if (failed) return { error: failed.error, columns: [] };
  return {
    error: null,
    columns: STATUSES.map((status, i) => {
      const rows = results[i].data ?? [];
      return {
        status,
        tasks: rows.slice(0, limits[status]),
        hasMore: rows.length > limits[status],
        limit: limits[status],
      };
    }),
  };
}
