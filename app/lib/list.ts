/**
 * The list view's and My work's rules (docs/product.md §13), shared by the
 * server and the browser: the columns, `?sort=` (`due`, `-due`), `?group=`,
 * the page sizes, and the bulk edit's changes.
 */
import { PRIORITY_LABELS, type LabelChip, type Priority, type StatusRef } from "./board";

/** The table's columns, in order; each sorts (`?sort=key`, `?sort=-key`). */
export const SORT_KEYS = ["key", "title", "status", "priority", "assignee", "due", "labels", "updated"] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const SORT_LABELS: Record<SortKey, string> = {
  key: "Key",
  title: "Title",
  status: "Status",
  priority: "Priority",
  assignee: "Assignee",
  due: "Due",
  labels: "Labels",
  updated: "Last change",
};

export const GROUP_KEYS = ["status", "assignee", "priority", "label"] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];

export const GROUP_LABELS: Record<GroupKey, string> = {
  status: "Status",
  assignee: "Assignee",
  priority: "Priority",
  label: "Label",
};

/** A field the team defines as a sort or group key (`?sort=field:<id>`, `?group=field:<id>`; docs/product.md §17). */
export type FieldKey = `field:${string}`;
const FIELD_KEY = /^field:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isFieldKey = (key: string): key is FieldKey => FIELD_KEY.test(key);
export const fieldKey = (fieldId: string): FieldKey => `field:${fieldId}`;

export interface Sort {
  key: SortKey | FieldKey;
  descending: boolean;
}

/** docs/product.md §13: the list shows 100 rows a page, My work 50 a list. */
export const LIST_PAGE_SIZE = 100;
export const MY_WORK_PAGE_SIZE = 50;

/** `?sort=due` / `?sort=-due`; anything else is the default. */
export function parseSort(raw: string | null | undefined, fallback: Sort = { key: "key", descending: false }): Sort {
  const text = raw?.trim() ?? "";
  const descending = text.startsWith("-");
  const key = descending ? text.slice(1) : text;
  if (isFieldKey(key)) return { key: key.toLowerCase() as FieldKey, descending };
  return (SORT_KEYS as readonly string[]).includes(key) ? { key: key as SortKey, descending } : fallback;
}

export function sortParam(sort: Sort): string {
  return `${sort.descending ? "-" : ""}${sort.key}`;
}

export function parseGroup(raw: string | null | undefined): GroupKey | FieldKey | null {
  const text = raw?.trim() ?? "";
  if (isFieldKey(text)) return text.toLowerCase() as FieldKey;
  return (GROUP_KEYS as readonly string[]).includes(text) ? (text as GroupKey) : null;
}

/** A column header's link: sorts by it ascending, or flips it when it is the sort already; back to page 1. */
export function sortSearch(
  params: URLSearchParams,
  key: SortKey | FieldKey,
  current: Sort,
  name = "sort",
  pageName = "page",
) {
  const next = new URLSearchParams(params);
  next.set(name, sortParam({ key, descending: current.key === key ? !current.descending : false }));
  next.delete(pageName);
  return `?${next}`;
}

/** The header's `aria-sort`. */
export function ariaSort(key: SortKey | FieldKey, current: Sort): "ascending" | "descending" | undefined {
  if (key !== current.key) return undefined;
  return current.descending ? "descending" : "ascending";
}

/**
 * A row of the table: a task, its project's status and its team's labels
 * (named and coloured: My work spans projects), where it lives and, when
 * grouped, its group (a status or label id, a priority, an assignee id).
 */
export interface TaskRow {
  id: string;
  number: number;
  title: string;
  status: StatusRef;
  priority: Priority;
  assignee_id: string | null;
  /** every assignee, in the order added (the first is assignee_id) */
  assignee_ids?: string[];
  due_on: string | null;
  labels: LabelChip[];
  updated_at: string;
  project_key: string;
  team_slug: string;
  team_name: string;
  group: string | null;
  /** the task's field values (field id -> canonical value); the list's rows only */
  fields?: Record<string, unknown> | null;
  /** each summed number field's sum over the row's group (over every row the filters keep); the list's rows only */
  sums?: Record<string, number> | null;
}

/**
 * A group's heading: "In progress", "Urgent", a member's name, a label, or
 * what "none" means for it. A status's and a label's names come from the
 * group's first row, which has that status or label.
 */
export function groupTitle(
  group: GroupKey,
  value: string | null,
  names: Record<string, string>,
  first: TaskRow | undefined,
): string {
  switch (group) {
    case "status":
      return first?.status.name ?? String(value);
    case "priority":
      return PRIORITY_LABELS[value as Priority] ?? String(value);
    case "assignee":
      return value === null ? "Unassigned" : (names[value] ?? "Former member");
    case "label":
      return value === null ? "No label" : (first?.labels.find((l) => l.id === value)?.name ?? "Former label");
  }
}

/** The bulk edit's changes (one form, one button each), as bulk_edit_tasks names them. */
export const BULK_CHANGES = [
  "status",
  "assignee",
  "priority",
  "add_label",
  "remove_label",
  "set_field",
  "delete",
] as const;
export type BulkChange = (typeof BULK_CHANGES)[number];

export function changedMessage(count: number): string {
  return count === 1 ? "1 task changed." : `${count} tasks changed.`;
}
