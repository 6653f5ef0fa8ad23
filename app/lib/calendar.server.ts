import { data } from "@remix-run/node";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { taskRef } from "./board";
import { CALENDAR_LIMIT, type CalendarMonth, type CalendarTask } from "./calendar";
import { addDays, daysBetween } from "./dates";
import { classifyDbError } from "./db-errors.server";
import { formFailure } from "./forms.server";
import { backendError, backendUnavailableResult } from "./http.server";
import { FORBIDDEN_MESSAGE } from "./permissions";
import { parseIntent } from "./schemas";
import type { SupabaseClient } from "./supabase-types";
import { CalendarActionSchema } from "./tasks.schemas";

/** What the calendar reads of a task (one row; project and team for its link). */
interface CalendarRow {
  id: string;
  number: number;
  title: string;
  completed_at: string | null;
  due_on: string;
  start_on: string | null;
  due_time: string | null;
  due_at: string | null;
  project: { key: string; archived_at: string | null; team: { slug: string } };
}

const COLUMNS =
  "id, number, title, completed_at, due_on, start_on, due_time, due_at, project:projects!inner(key, archived_at, team:teams!inner(slug))";

/** Due by the grid's last day, or started by then (a span reaching into the grid from the right). */
function spanFilter(month: CalendarMonth): string {
  const last = month.days[month.days.length - 1];
  return `due_on.lte.${last},start_on.lte.${last}`;
}

/** Not completed or canceled (completed_at is set while its status is one of those). */
const isOpen = (row: CalendarRow) => row.completed_at === null;

/** Whether a task may be moved is the database's to say (a viewer's move is refused there); an archived project's never. */
function toCalendarTask(row: CalendarRow): CalendarTask {
  const { key, team } = row.project;
  return {
    id: row.id,
    ref: taskRef(key, row.number),
    title: row.title,
    due_on: row.due_on,
    start_on: row.start_on,
    due_time: row.due_time?.slice(0, 5) ?? null,
    due_at: row.due_at,
    open: isOpen(row),
    href: `/teams/${team.slug}/projects/${key}/tasks/${row.number}`,
    movable: row.project.archived_at === null,
    repeats: false,
  };
}

export interface CalendarRead {
  tasks: CalendarTask[];
  /** more tasks are due in the month's weeks than the page reads */
  capped: boolean;
}

function finish(rows: CalendarRow[] | null, error: unknown): CalendarRead {
  if (error) throw backendError(error);
  const list = rows ?? [];
  return { tasks: list.slice(0, CALENDAR_LIMIT).map(toCalendarTask), capped: list.length > CALENDAR_LIMIT };
}

/**
 * A project's tasks due in the weeks a month's grid shows, named by the
 * URL's team slug and project key (row-level security decides), so the read
 * runs beside the team and project lookups.
 */
export async function readProjectCalendar(
  supabase: SupabaseClient,
  names: { teamSlug: string; projectKey: string },
  month: CalendarMonth,
): Promise<CalendarRead> {
  const { data: rows, error } = await supabase
    .from("tasks")
    .select(COLUMNS)
    .eq("project.key", names.projectKey)
    .eq("project.team.slug", names.teamSlug)
    // due in the grid's weeks, or due after them and started by their end (drawn from start to due)
    .gte("due_on", month.days[0])
    .or(spanFilter(month))
    // archived tasks are off calendars (deleted ones the read policy hides)
    .is("archived_at", null)
    .order("due_on")
    .order("number")
    .limit(CALENDAR_LIMIT + 1)
    .returns<CalendarRow[]>();
  return finish(rows, error);
}

/** The tasks assigned to `userId` across their teams, due in the weeks a month's grid shows. */
export async function readMyCalendar(
  supabase: SupabaseClient,
  userId: string,
  month: CalendarMonth,
): Promise<CalendarRead> {
  const { data: rows, error } = await supabase
    .from("tasks")
    .select(COLUMNS)
    .contains("assignee_ids", [userId])
    // due in the grid's weeks, or due after them and started by their end (drawn from start to due)
    .gte("due_on", month.days[0])
    .or(spanFilter(month))
    // archived tasks are off calendars (deleted ones the read policy hides)
    .is("archived_at", null)
    .order("due_on")
    .order("number")
    .limit(CALENDAR_LIMIT + 1)
    .returns<CalendarRow[]>();
  return finish(rows, error);
}

/** Moves a task to another day: its due date, as the task's own form sets it (row-level security decides). */
export async function setDueDate(supabase: SupabaseClient, taskId: string, dueOn: string) {
  // a task with a start date moves whole: its start by as many days (§17), so the span keeps its length
  const { data: now, error } = await supabase
    .from("tasks")
    .select("start_on, due_on")
    .eq("id", taskId)
    .maybeSingle<{ start_on: string | null; due_on: string | null }>();
  if (error) return { data: null, error };
  const startOn =
    now?.start_on && now.due_on ? { start_on: addDays(now.start_on, daysBetween(now.due_on, dueOn)) } : {};
  return supabase
    .from("tasks")
    .update({ due_on: dueOn, ...startOn })
    .eq("id", taskId)
    .select("id")
    .maybeSingle();
}

/**
 * The calendars' action: a task dragged (or carried with the keyboard) to
 * another day, `intent=due` with `taskId` and `dueOn`. Answers the fetcher
 * with `{ ok }` or a message, never an error page over the calendar.
 */
export async function calendarAction(
  request: LoaderFunctionArgs["request"],
  supabase: SupabaseClient,
  refuse: () => string | null,
) {
  const parsed = parseIntent(CalendarActionSchema, await request.formData());
  if (!parsed) return formFailure({ errors: { form: "That isn't something the calendar does." }, values: {} }, 404);
  const { intent, values } = parsed;
  const refusal = refuse();
  if (refusal)
    return formFailure({ intent, errors: { form: refusal }, values }, refusal === FORBIDDEN_MESSAGE ? 403 : 400);
  if (!parsed.success) return formFailure(parsed);
  const { data: moved, error } = await setDueDate(supabase, parsed.data.taskId, parsed.data.dueOn);
  if (error) {
    const { status, message } = classifyDbError(error);
    if (status === 503) return backendUnavailableResult(values);
    if (status === 500) throw backendError(error);
    return formFailure({ intent, errors: { form: message }, values }, status);
  }
  // row-level security hid the task or refused the change
  if (!moved) return formFailure({ intent, errors: { form: FORBIDDEN_MESSAGE }, values }, 403);
  return data({ intent, ok: true as const });
}
