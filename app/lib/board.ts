/**
 * The board's pure rules, shared by the loader and the browser: a project's
 * statuses (its columns, docs/product.md §11), filters and per-column limits
 * read from the URL, the WIP warning, and the optimistic placement of a
 * moved card. Any move between two statuses is allowed (§4).
 */
import type { Tables } from "./database.types";
import type { PaletteColor } from "./palette";

export const CATEGORIES = ["backlog", "unstarted", "started", "completed", "canceled"] as const;
export type StatusCategory = (typeof CATEGORIES)[number];

/** What each category means to a person (the settings page and the overview say it this way). */
export const CATEGORY_LABELS: Record<StatusCategory, string> = {
  backlog: "Backlog",
  unstarted: "Not started",
  started: "Started",
  completed: "Done",
  canceled: "Canceled",
};

/** A status as every page names it: enough to draw it and to move a task into it. */
export interface StatusRef {
  id: string;
  name: string;
  color: PaletteColor;
  category: StatusCategory;
}

/** A column of the board: the status, its place, its WIP limit and how many tasks it holds (all of them; counted where there is a limit). */
export interface StatusColumnInfo extends StatusRef {
  position: number;
  wip_limit: number | null;
  count: number | null;
}

/** Completed and canceled statuses close a task (completed_at is set). */
export function isClosed(category: StatusCategory): boolean {
  return category === "completed" || category === "canceled";
}

/** A column over its WIP limit shows its count against the limit as a warning; the move itself is never refused. */
export function overWipLimit(status: { wip_limit: number | null; count: number | null }): boolean {
  return status.wip_limit !== null && status.count !== null && status.count > status.wip_limit;
}

export const PRIORITIES = ["none", "low", "medium", "high", "urgent"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const PRIORITY_LABELS: Record<Priority, string> = {
  none: "No priority",
  low: "Low",
  medium: "Medium",
  high: "High",
  urgent: "Urgent",
};

/**
 * A task as the database stores it (the generated types); the shapes below
 * are picked from it, so a column that changes type or goes changes them.
 */
type TaskRow = Tables<"tasks">;

/** A label as chips show it. */
export interface LabelChip {
  id: string;
  name: string;
  color: PaletteColor;
}

/** Done out of all: a checklist's ticked items, or sub-tasks completed or canceled. */
export interface Tally {
  done: number;
  total: number;
}

/** What a card shows, and nothing more (no description: it can be 10,000 characters). */
export type Card = Pick<
  TaskRow,
  "id" | "number" | "title" | "status_id" | "priority" | "assignee_id" | "due_on" | "position"
> & {
  labels: LabelChip[];
  checklist: Tally | null;
  subtasks: Tally | null;
  /** a task that is not completed or canceled blocks it */
  blocked: boolean;
  /** how many comments and attachments it has (kept on the task row) */
  comments: number;
  attachments: number;
  /** it repeats: it has a rule and no successor yet */
  repeats?: boolean;
  /** all its assignees, first added first (assignee_id is the first) */
  assignee_ids?: string[];
  /** its start date, due time ("14:30:00") and the instant that time names, when set (§17) */
  start_on?: string | null;
  due_time?: string | null;
  due_at?: string | null;
  /** the values of the fields shown on cards (field id -> value) */
  fields?: Record<string, unknown> | null;
};

/** What a task's forms edit (its fields, its place). */
export type EditableTask = Pick<
  TaskRow,
  "id" | "title" | "description" | "status_id" | "priority" | "assignee_id" | "due_on" | "position"
> &
  Partial<Pick<TaskRow, "start_on" | "due_time">>;

/**
 * The task panel's task: its own columns (not the project, the search vector
 * or what the board's cards keep), who created it, its status and its parent.
 */
export type TaskDetail = Pick<
  TaskRow,
  | "id"
  | "number"
  | "title"
  | "description"
  | "status_id"
  | "priority"
  | "assignee_id"
  | "due_on"
  | "start_on"
  | "due_time"
  | "due_at"
  | "position"
  | "created_at"
  | "updated_at"
  | "completed_at"
  | "created_by"
  | "parent_id"
  | "recurrence"
  | "assignee_ids"
  | "fields"
  | "archived_at"
> & {
  creator: { display_name: string } | null;
  status: StatusRef;
  parent: { id: string; number: number; title: string } | null;
};

export const ARCHIVED_MESSAGE = "This project is archived; its tasks are read-only.";

/** docs/product.md §9: 200 tasks per column, then "show more" adds as many again. */
export const COLUMN_PAGE_SIZE = 200;
/** A column never asks for more than this in one page view, whatever the URL says. */
export const COLUMN_MAX_LIMIT = 2000;
/** docs/product.md §11: at most 12 statuses in a project. */
export const MAX_STATUSES = 12;

export interface BoardFilters {
  /** a member's user id, "me" or "none" (unassigned) */
  assignee: string | null;
  q: string | null;
  /** a team label's name (any capitals) */
  label: string | null;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The board's filters from `?assignee=&q=&label=`; anything malformed is ignored rather than an error. */
export function parseBoardFilters(params: URLSearchParams): BoardFilters {
  const assigneeRaw = params.get("assignee")?.trim() ?? "";
  const assignee =
    assigneeRaw === "me" || assigneeRaw === "none" || UUID.test(assigneeRaw) ? assigneeRaw.toLowerCase() : null;
  const q = params.get("q")?.trim().slice(0, 200) || null;
  const label = params.get("label")?.trim().slice(0, 24) || null;
  return { assignee, q, label };
}

/** The filters as a search string (`?assignee=me&label=bug`), the part every view of a project shares. */
export function filterSearch(filters: BoardFilters): string {
  const params = new URLSearchParams();
  if (filters.assignee) params.set("assignee", filters.assignee);
  if (filters.q) params.set("q", filters.q);
  if (filters.label) params.set("label", filters.label);
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function hasFilters(filters: BoardFilters): boolean {
  return filters.assignee !== null || filters.q !== null || filters.label !== null;
}

/** The URL parameter that widens one column: `?limit.<status id>=400`. */
export function limitParam(statusId: string): string {
  return `limit.${statusId}`;
}

/**
 * The columns the URL widens, by status id: 400, 600… (in steps of 200,
 * capped); a column not named shows 200. Malformed names and values are ignored.
 */
export function parseColumnLimits(params: URLSearchParams): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const [name, value] of params) {
    const id = name.startsWith("limit.") ? name.slice("limit.".length) : "";
    if (!UUID.test(id) || Object.keys(limits).length >= MAX_STATUSES) continue;
    const raw = Number.parseInt(value, 10);
    if (!Number.isFinite(raw) || raw <= COLUMN_PAGE_SIZE) continue;
    limits[id.toLowerCase()] = Math.min(Math.ceil(raw / COLUMN_PAGE_SIZE) * COLUMN_PAGE_SIZE, COLUMN_MAX_LIMIT);
  }
  return limits;
}

/** How many tasks a column shows. */
export function columnLimit(limits: Record<string, number>, statusId: string): number {
  return limits[statusId] ?? COLUMN_PAGE_SIZE;
}

/** The search string for "show more" in one column, keeping every other parameter. */
export function showMoreSearch(params: URLSearchParams, statusId: string, current: number): string {
  const next = new URLSearchParams(params);
  next.set(limitParam(statusId), String(Math.min(current + COLUMN_PAGE_SIZE, COLUMN_MAX_LIMIT)));
  return `?${next}`;
}

/** Only the parameters that shape the board (filters and limits), e.g. to carry into task links. */
export function boardSearch(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const [name, value] of params) {
    if (value.trim() && (name === "assignee" || name === "q" || name === "label" || name.startsWith("limit.")))
      kept.append(name, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : "";
}

export interface CardLike {
  id: string;
  status_id: string;
  position: number;
}

/** Cards by status id, each column in order. */
export type Columns<T extends CardLike> = Record<string, T[]>;

/** Tasks into the columns of `statusIds`, each ordered by position. */
export function groupByStatus<T extends CardLike>(tasks: readonly T[], statusIds: readonly string[]): Columns<T> {
  const columns: Columns<T> = Object.fromEntries(statusIds.map((id) => [id, [] as T[]]));
  for (const task of tasks) columns[task.status_id]?.push(task);
  for (const id of statusIds) columns[id].sort((a, b) => a.position - b.position);
  return columns;
}

/**
 * The columns as they will look once a move succeeds: the card leaves its
 * column and lands at `position` (0-based, clamped) in `statusId`. Used for
 * the optimistic board and for the keyboard's preview; the server has the last word.
 */
export function applyMove<T extends CardLike>(
  columns: Columns<T>,
  taskId: string,
  statusId: string,
  position: number | null,
): Columns<T> {
  if (!columns[statusId]) return columns;
  let moved: T | undefined;
  const next: Columns<T> = {};
  for (const [id, cards] of Object.entries(columns)) {
    next[id] = cards.filter((task) => {
      if (task.id !== taskId) return true;
      moved = task;
      return false;
    });
  }
  if (!moved) return columns;
  const target = next[statusId];
  const place = position === null ? target.length : Math.max(0, Math.min(position, target.length));
  next[statusId] = [...target.slice(0, place), { ...moved, status_id: statusId }, ...target.slice(place)];
  return next;
}

/**
 * Where a card under keyboard control goes next: left/right change column (in
 * the board's order, keeping its place where it can), up/down change its
 * place. `others(id)` counts the cards in a column besides this one, so
 * places run 0..others.
 */
export function nudge(
  current: { statusId: string; position: number },
  key: "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown",
  order: readonly string[],
  others: (statusId: string) => number,
): { statusId: string; position: number } {
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const index = order.indexOf(current.statusId) + (key === "ArrowLeft" ? -1 : 1);
    if (index < 0 || index >= order.length) return current;
    const statusId = order[index];
    return { statusId, position: Math.min(current.position, others(statusId)) };
  }
  const last = others(current.statusId);
  const position = key === "ArrowUp" ? Math.max(0, current.position - 1) : Math.min(last, current.position + 1);
  return { statusId: current.statusId, position };
}

/** "WEB-12" */
export function taskRef(projectKey: string, number: number): string {
  return `${projectKey}-${number}`;
}
