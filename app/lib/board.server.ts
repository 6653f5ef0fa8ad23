import type { SupabaseClient } from "./supabase-types";
import { columnLimit, type BoardFilters, type Card, type LabelChip, type StatusColumnInfo } from "./board";
import type { FieldDef } from "./fields";
import { readRepeats } from "./recurrence.server";

export type { Card, LabelChip };

export interface BoardColumn {
  status: StatusColumnInfo;
  tasks: Card[];
  /** more tasks match beyond `limit` ("show more") */
  hasMore: boolean;
  /** each summed number field's sum over the column's tasks (null: no field is summed) */
  sums: Record<string, number> | null;
  limit: number;
}

export interface BoardMember {
  id: string;
  name: string;
  avatarPath: string | null;
}

export interface BoardView {
  project: { id: string; key: string; name: string; description: string; archived_at: string | null };
  /** the project's statuses in order, each a column */
  columns: BoardColumn[];
  /** the team's members by name, for the filters and the cards' avatars */
  members: BoardMember[];
  /** the team's labels by name, for the label filter and the task form */
  labels: LabelChip[];
  /** the project's fields shown on cards or summed, in order */
  fields: FieldDef[];
}

/**
 * A card as board_view sends it: no status id (its column's), its labels by
 * id, and its counts as kept on the task row: [checklist items ticked,
 * checklist items, sub-tasks closed, sub-tasks, open tasks blocking it,
 * comments, attachments].
 */
interface CardRow extends Omit<
  Card,
  "status_id" | "labels" | "checklist" | "subtasks" | "blocked" | "comments" | "attachments"
> {
  label_ids: string[];
  counts: [number, number, number, number, number, number, number];
}

interface BoardViewRow {
  project: BoardView["project"];
  statuses: Array<StatusColumnInfo & { cards: CardRow[]; sums: Record<string, number> | null }>;
  fields: FieldDef[];
  members: Array<{ id: string; display_name: string | null; avatar_path: string | null }>;
  labels: LabelChip[];
}

/** The card the page draws: its labels as chips (in name order), "3/5" tallies only where there is something to count. */
function toCard(
  { label_ids, counts: [ticked, items, closed, subtasks, blockers, comments, attachments], ...card }: CardRow,
  statusId: string,
  labels: Map<string, LabelChip>,
): Card {
  return {
    ...card,
    status_id: statusId,
    labels: label_ids.flatMap((id) => labels.get(id) ?? []),
    checklist: items > 0 ? { done: ticked, total: items } : null,
    subtasks: subtasks > 0 ? { done: closed, total: subtasks } : null,
    blocked: blockers > 0,
    comments,
    attachments,
  };
}

/**
 * The board in one round trip (the `board_view` function, as the caller, so
 * row-level security decides): the project named by the URL's team slug and
 * key; its statuses in order, each with how many tasks it holds (for the WIP
 * warning) and its first `limit` cards by position plus one to know whether
 * there are more, with the filters applied by the database; the team's
 * members and labels. It needs no earlier read, so it runs beside the team
 * lookup. `board` is null for a project the person can't see.
 */
export async function loadBoard(
  supabase: SupabaseClient,
  teamSlug: string,
  projectKey: string,
  filters: BoardFilters,
  limits: Record<string, number>,
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
  // the team's labels come in name order: chips keep it
  const labels = new Map(row.labels.map((label) => [label.id, label]));
  const order = new Map(row.labels.map((label, i) => [label.id, i]));
  const byName = (ids: string[]) => [...ids].sort((a, b) => order.get(a)! - order.get(b)!);
  return {
    error: null,
    board: {
      project: row.project,
      members,
      labels: row.labels,
      fields: row.fields ?? [],
      columns: row.statuses.map(({ cards, sums, ...status }) => {
        const limit = columnLimit(limits, status.id);
        return {
          status: { ...status, count: status.count === null ? null : Number(status.count) },
          tasks: cards
            .slice(0, limit)
            .map((card) =>
              toCard({ ...card, label_ids: byName(card.label_ids.filter((id) => order.has(id))) }, status.id, labels),
            )
            .map((card) => ({ ...card, repeats: repeats.rules.has(card.id) })),
          hasMore: cards.length > limit,
          sums: sums ?? null,
          limit,
        };
      }),
    },
  };
}
