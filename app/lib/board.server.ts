import type { SupabaseClient } from "./supabase-types";
import { columnLimit, type BoardFilters, type Card, type LabelChip, type StatusColumnInfo } from "./board";
import type { FieldDef } from "./fields";

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
 * id, and what it counts by the task row's names, each left out when 0 (as
 * `repeats` is when false and `assignee_id` / `due_on` when null).
 */
interface CardRow extends Omit<
  Card,
  | "status_id"
  | "labels"
  | "checklist"
  | "subtasks"
  | "blocked"
  | "comments"
  | "attachments"
  | "repeats"
  | "assignee_id"
  | "due_on"
> {
  label_ids: string[];
  assignee_id?: string | null;
  due_on?: string | null;
  checklist_done?: number;
  checklist_total?: number;
  subtasks_done?: number;
  subtasks_total?: number;
  open_blockers?: number;
  comment_count?: number;
  attachment_count?: number;
  repeats?: true;
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
  {
    label_ids,
    assignee_id = null,
    due_on = null,
    checklist_done: ticked = 0,
    checklist_total: items = 0,
    subtasks_done: closed = 0,
    subtasks_total: subtasks = 0,
    open_blockers: blockers = 0,
    comment_count: comments = 0,
    attachment_count: attachments = 0,
    repeats = undefined,
    ...card
  }: CardRow,
  statusId: string,
  labels: Map<string, LabelChip>,
): Card {
  return {
    ...card,
    assignee_id,
    due_on,
    status_id: statusId,
    labels: label_ids.flatMap((id) => labels.get(id) ?? []),
    checklist: items > 0 ? { done: ticked, total: items } : null,
    subtasks: subtasks > 0 ? { done: closed, total: subtasks } : null,
    blocked: blockers > 0,
    comments,
    attachments,
    repeats: repeats === true,
  };
}

/**
 * The board in one round trip (the `board_view` function, as the caller, so
 * row-level security decides): the project named by the URL's team slug and
 * key; its statuses in order, each with how many tasks it holds (for the WIP
 * warning) and its first `limit` cards by position plus one to know whether
 * there are more, with the filters applied by the database; the team's
 * members and labels; each card says whether it repeats. It needs no earlier
 * read, so it runs beside the team lookup. `board` is null for a project the
 * person can't see.
 */
export async function loadBoard(
  supabase: SupabaseClient,
  teamSlug: string,
  projectKey: string,
  filters: BoardFilters,
  limits: Record<string, number>,
): Promise<{ error: unknown; board: BoardView | null }> {
  const { data, error } = await supabase.rpc(
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
  );
  if (error) return { error, board: null };
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
            ),
          hasMore: cards.length > limit,
          sums: sums ?? null,
          limit,
        };
      }),
    },
  };
}
