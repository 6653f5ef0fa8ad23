import type { BoardFilters, LabelChip, StatusRef } from "./board";
import type { BoardMember, BoardView } from "./board.server";
import type { FieldDef } from "./fields";
import { pageOf, type Paging } from "./paging";
import type { SupabaseClient } from "./supabase-types";
import {
  LIST_PAGE_SIZE,
  MY_WORK_PAGE_SIZE,
  sortParam,
  type BulkChange,
  type FieldKey,
  type GroupKey,
  type Sort,
  type TaskRow,
} from "./list";

export interface ListView {
  project: BoardView["project"];
  rows: TaskRow[];
  paging: Paging;
  members: BoardMember[];
  /** the project's statuses in board order and the team's labels: the bulk edit's choices, the label filter's */
  statuses: StatusRef[];
  labels: LabelChip[];
  /** the project's fields in their order (columns, sort, group, filters, bulk edit's "set") */
  fields: FieldDef[];
}

interface ListViewRow {
  project: BoardView["project"];
  rows: TaskRow[];
  statuses: StatusRef[];
  labels: LabelChip[];
  members: Array<{ id: string; display_name: string | null; avatar_path: string | null }>;
  fields: FieldDef[];
}

/**
 * The list page in one round trip (the `list_view` function, as the caller):
 * the project named by the URL, one page of its tasks in the URL's order
 * (100 and one more, which says whether there is a next page) with the
 * board's filters, its statuses, and the team's labels and members. Offset paging, not keyset: a page
 * number in the URL survives any sort and grouping, and page 50 of 5,000
 * tasks costs about what page 1 does (docs/decisions/0030). Null for a
 * project the person can't see.
 */
export async function loadList(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string },
  query: {
    filters: BoardFilters;
    sort: Sort;
    group: GroupKey | FieldKey | null;
    page: number;
    /** filters by fields' values: field id -> value (`none`: no value) */
    fieldFilters?: Record<string, string>;
  },
): Promise<{ error: unknown; list: ListView | null }> {
  const { data, error } = await supabase.rpc(
    "list_view",
    {
      team_slug: names.teamSlug,
      project_key: names.projectKey,
      assignee: query.filters.assignee ?? undefined,
      label: query.filters.label ?? undefined,
      q: query.filters.q ?? undefined,
      sort: sortParam(query.sort),
      group: query.group ?? undefined,
      page_offset: (query.page - 1) * LIST_PAGE_SIZE,
      page_size: LIST_PAGE_SIZE,
      fields:
        query.fieldFilters && Object.keys(query.fieldFilters).length ? JSON.stringify(query.fieldFilters) : undefined,
    },
    { get: true },
  );
  if (error) return { error, list: null };
  const row = data as unknown as ListViewRow | null;
  if (!row) return { error: null, list: null };
  const members = row.members.map((m) => ({
    id: m.id,
    name: m.display_name ?? "Former member",
    avatarPath: m.avatar_path ?? null,
  }));
  members.sort((a, b) => a.name.localeCompare(b.name));
  const { items, paging } = pageOf(row.rows ?? [], query.page, LIST_PAGE_SIZE);
  return {
    error: null,
    list: {
      project: row.project,
      rows: items,
      paging,
      members,
      statuses: row.statuses,
      labels: row.labels,
      fields: row.fields ?? [],
    },
  };
}

export const MY_WORK_LISTS = ["assigned", "due", "watching", "created"] as const;
export type MyWorkList = (typeof MY_WORK_LISTS)[number];

export interface MyWorkPage {
  /** null: the list doesn't exist yet (watching, before watchers) */
  rows: TaskRow[] | null;
  paging: Paging;
  names: Record<string, string>;
}

/** One of My work's lists (the `my_work` function): 50 a page and one more, across every team of the person. */
export async function loadMyWork(
  supabase: SupabaseClient,
  list: MyWorkList,
  sort: Sort,
  page: number,
): Promise<{ error: unknown; page: MyWorkPage }> {
  const { data, error } = await supabase.rpc(
    "my_work",
    {
      list,
      sort: sortParam(sort),
      page_offset: (page - 1) * MY_WORK_PAGE_SIZE,
      page_size: MY_WORK_PAGE_SIZE,
    },
    { get: true },
  );
  const row = data as unknown as { rows: TaskRow[] | null; names: Array<{ id: string; display_name: string | null }> };
  if (error || !row)
    return { error, page: { rows: [], paging: { page, hasNext: false, hasPrevious: false }, names: {} } };
  const { items, paging } = pageOf(row.rows ?? [], page, MY_WORK_PAGE_SIZE);
  return {
    error: null,
    page: {
      rows: row.rows ? items : null,
      paging,
      names: Object.fromEntries(row.names.map((n) => [n.id, n.display_name ?? "Former member"])),
    },
  };
}

/**
 * One change to many tasks in one round trip (`bulk_edit_tasks`): all of
 * them or none (a task the person may not change refuses the whole edit
 * with 42501). Returns how many changed.
 */
export async function bulkEditTasks(
  supabase: SupabaseClient,
  taskIds: readonly string[],
  change: BulkChange,
  value: string | null,
) {
  return supabase.rpc("bulk_edit_tasks", { task_ids: [...taskIds], change, value: value ?? undefined });
}
