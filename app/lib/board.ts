/**
 * The board's pure rules, shared by the loader and the browser: columns,
 * legal moves (docs/product.md §4), filters and per-column limits read from the
 * URL, and the optimistic placement of a moved card.
 */
import type { Tables } from "./database.types";

export const STATUSES = ["backlog", "todo", "in_progress", "done", "canceled"] as const;
export type Status = (typeof STATUSES)[number];

export const STATUS_LABELS: Record<Status, string> = {
  backlog: "Backlog",
  todo: "To do",
  in_progress: "In progress",
  done: "Done",
  canceled: "Canceled",
};

/** Not completed or canceled: what reminders and "Overdue" are about (PRODUCT.md §12). */
export function isOpenStatus(status: Status): boolean {
  return status !== "done" && status !== "canceled";
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

/** What a card shows, and nothing more (no description: it can be 10,000 characters). */
export type Card = Pick<
  TaskRow,
  "id" | "number" | "title" | "status" | "priority" | "assignee_id" | "due_on" | "labels" | "position"
> & {
  /** it repeats: it has a rule and no successor yet (read beside the board: lib/recurrence.server.ts) */
  repeats?: boolean;
};

/** What a task's forms edit (its fields, its place). */
export type EditableTask = Omit<Card, "number"> & Pick<TaskRow, "description">;

/** The task panel's task: every column but the project and the search vector, and who created it. */
export type TaskDetail = Omit<TaskRow, "project_id" | "search"> & { creator: { display_name: string } | null };

export const ARCHIVED_MESSAGE = "This project is archived; its tasks are read-only.";

/** docs/product.md §9: 200 tasks per column, then "show more" adds as many again. */
export const COLUMN_PAGE_SIZE = 200;
/** A column never asks for more than this in one page view, whatever the URL says. */
export const COLUMN_MAX_LIMIT = 2000;

/** The transitions of docs/product.md §4; staying in a column (reordering) is always allowed. */
export function canMove(from: Status, to: Status): boolean {
  if (from === to) return true;
  if (
    (from === "backlog" && to === "todo") ||
    (from === "todo" && to === "in_progress") ||
    (from === "in_progress" && to === "done")
  )
    return true;
  if (to === "canceled") return from === "backlog" || from === "todo" || from === "in_progress";
  if (to === "todo") return from === "done" || from === "canceled";
  return false;
}

export interface BoardFilters {
  /** a member's user id, "me" or "none" (unassigned) */
  assignee: string | null;
  q: string | null;
  label: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The board's filters from `?assignee=&q=&label=`; anything malformed is ignored rather than an error. */
export function parseBoardFilters(params: URLSearchParams): BoardFilters {
  const assigneeRaw = params.get("assignee")?.trim() ?? "";
  const assignee =
    assigneeRaw === "me" || assigneeRaw === "none" || UUID.test(assigneeRaw) ? assigneeRaw.toLowerCase() : null;
  const q = params.get("q")?.trim().slice(0, 200) || null;
  const label = params.get("label")?.trim().slice(0, 24) || null;
  return { assignee, q, label };
}

export function hasFilters(filters: BoardFilters): boolean {
  return filters.assignee !== null || filters.q !== null || filters.label !== null;
}

/** The URL parameter that widens one column: `?limit.todo=400`. */
export function limitParam(status: Status): string {
  return `limit.${status}`;
}

/** How many tasks each column shows: 200 unless the URL asks for more (in steps of 200, capped). */
export function parseColumnLimits(params: URLSearchParams): Record<Status, number> {
  const limits = {} as Record<Status, number>;
  for (const status of STATUSES) {
    const raw = Number.parseInt(params.get(limitParam(status)) ?? "", 10);
    const wanted = Number.isFinite(raw) && raw > COLUMN_PAGE_SIZE ? raw : COLUMN_PAGE_SIZE;
    limits[status] = Math.min(Math.ceil(wanted / COLUMN_PAGE_SIZE) * COLUMN_PAGE_SIZE, COLUMN_MAX_LIMIT);
  }
  return limits;
}

/** The search string for "show more" in one column, keeping every other parameter. */
export function showMoreSearch(params: URLSearchParams, status: Status, current: number): string {
  const next = new URLSearchParams(params);
  next.set(limitParam(status), String(Math.min(current + COLUMN_PAGE_SIZE, COLUMN_MAX_LIMIT)));
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
  status: Status;
  position: number;
}

export type Columns<T extends CardLike> = Record<Status, T[]>;

/** Tasks into their columns, each ordered by position. */
export function groupByStatus<T extends CardLike>(tasks: readonly T[]): Columns<T> {
  const columns = Object.fromEntries(STATUSES.map((s) => [s, [] as T[]])) as Columns<T>;
  for (const task of tasks) columns[task.status]?.push(task);
  for (const status of STATUSES) columns[status].sort((a, b) => a.position - b.position);
  return columns;
}

/**
 * The columns as they will look once a move succeeds: the card leaves its
 * column and lands at `position` (0-based, clamped) in `status`. Used for the
 * optimistic board and for the keyboard's preview; the server has the last word.
 */
export function applyMove<T extends CardLike>(
  columns: Columns<T>,
  taskId: string,
  status: Status,
  position: number | null,
): Columns<T> {
  let moved: T | undefined;
  const next = {} as Columns<T>;
  for (const s of STATUSES) {
    next[s] = columns[s].filter((task) => {
      if (task.id !== taskId) return true;
      moved = task;
      return false;
    });
  }
  if (!moved) return columns;
  const target = next[status];
  const place = position === null ? target.length : Math.max(0, Math.min(position, target.length));
  next[status] = [...target.slice(0, place), { ...moved, status }, ...target.slice(place)];
  return next;
}

/**
 * Where a card under keyboard control goes next: left/right change column
 * (keeping its place where it can), up/down change its place. `others(status)`
 * counts the cards in a column besides this one, so places run 0..others.
 */
export function nudge(
  current: { status: Status; position: number },
  key: "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown",
  others: (status: Status) => number,
): { status: Status; position: number } {
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const index = STATUSES.indexOf(current.status) + (key === "ArrowLeft" ? -1 : 1);
    if (index < 0 || index >= STATUSES.length) return current;
    const status = STATUSES[index];
    return { status, position: Math.min(current.position, others(status)) };
  }
  const last = others(current.status);
  const position = key === "ArrowUp" ? Math.max(0, current.position - 1) : Math.min(last, current.position + 1);
  return { status: current.status, position };
}

/** "WEB-12" */
export function taskRef(projectKey: string, number: number): string {
  return `${projectKey}-${number}`;
}
