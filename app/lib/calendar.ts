/**
 * The calendar's pure rules, shared by the loaders and the browser: which
 * month the URL names, the weeks its grid shows (Monday first), and the
 * tasks by day (docs/product.md §12).
 */
import { addDays, MONTH_NAMES, weekdayOf } from "./dates";

/** A day shows this many tasks, then "+N more". */
export const TASKS_PER_DAY = 4;
/** A month's page reads at most this many tasks (hosted PostgREST answers at most 1,000 rows anyway). */
export const CALENDAR_LIMIT = 1000;

export interface CalendarMonth {
  /** "2026-11" */
  month: string;
  /** "November 2026" */
  label: string;
  /** the grid's days, whole weeks from the Monday on or before the 1st to the Sunday on or after the last */
  days: string[];
  first: string;
  last: string;
  previous: string | null;
  next: string | null;
}

/** Due dates run from 2000-01-01 to 2100-12-31 (docs/product.md §5), and so do the months one can open. */
const FIRST_MONTH = "2000-01";
const LAST_MONTH = "2100-12";

/**
 * The month in `?month=YYYY-MM`, or the one holding `today` when there is
 * none; null for anything else (the page answers 400).
 */
export function parseMonth(value: string | null, today: string): string | null {
  if (value === null || value === "") return today.slice(0, 7);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) return null;
  return value >= FIRST_MONTH && value <= LAST_MONTH ? value : null;
}

export const MONTH_MESSAGE = "That isn't a month we can show: use ?month=YYYY-MM, between 2000-01 and 2100-12.";

function shiftMonth(month: string, by: number): string {
  const [year, m] = month.split("-").map(Number);
  const index = year * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

export function calendarMonth(month: string): CalendarMonth {
  const [year, m] = month.split("-").map(Number);
  const first = `${month}-01`;
  const last = addDays(`${shiftMonth(month, 1)}-01`, -1);
  const start = addDays(first, -weekdayOf(first));
  const end = addDays(last, 6 - weekdayOf(last));
  const days: string[] = [];
  for (let day = start; day <= end; day = addDays(day, 1)) days.push(day);
  const previous = shiftMonth(month, -1);
  const next = shiftMonth(month, 1);
  return {
    month,
    label: `${MONTH_NAMES[m - 1]} ${year}`,
    days,
    first,
    last,
    previous: previous >= FIRST_MONTH ? previous : null,
    next: next <= LAST_MONTH ? next : null,
  };
}

/** A task as the calendar shows it. */
export interface CalendarTask {
  id: string;
  /** "WEB-12" */
  ref: string;
  title: string;
  due_on: string;
  /** the day it starts (drawn from there to its due date), when it has one */
  start_on?: string | null;
  /** "14:30" on its due date, when it has a time */
  due_time?: string | null;
  /** the instant of a timed due date (for "Overdue") */
  due_at?: string | null;
  /** not completed or canceled */
  open: boolean;
  /** the task's page */
  href: string;
  /** whether the viewer may move it to another day */
  movable: boolean;
  /** the task repeats (a recurrence rule) */
  repeats: boolean;
}

/**
 * docs/product.md §12's "Overdue": open and due before today (in the viewer's
 * zone); a task with a due time (its instant `due_at`, §17) from that time on.
 * `now` is the page's (PageTime), so the server's HTML and the hydration agree.
 */
export function isOverdue(
  task: { due_on: string | null; due_at?: string | null; open: boolean },
  today: string,
  now?: number,
): boolean {
  if (!task.open || task.due_on === null) return false;
  if (task.due_at && now !== undefined) return Date.parse(task.due_at) <= now;
  return task.due_on < today;
}

/** The tasks of each day, in the order given. */
export function tasksByDay<T extends { due_on: string }>(tasks: T[]): Map<string, T[]> {
  const byDay = new Map<string, T[]>();
  for (const task of tasks) {
    const list = byDay.get(task.due_on);
    if (list) list.push(task);
    else byDay.set(task.due_on, [task]);
  }
  return byDay;
}
