import crypto from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import ical from "ical-generator";
import WebSocket from "ws";
import { taskRef } from "./board";
import { env } from "./env.server";
import type { Database, SupabaseClient } from "./supabase-types";

/**
 * The calendar feed (docs/product.md §12): `/calendar/<token>.ics`, an iCalendar
 * file (RFC 5545) of the tasks assigned to the token's owner, for calendar
 * apps that subscribe without signing in. The database checks the token
 * (calendar_feed(), constant-time against the stored hash); this module
 * prints the file with ical-generator, which escapes text, folds lines at 75
 * octets and writes CRLF as the RFC says.
 */

/** A token is 59 URL-safe characters (selector and verifier: supabase/migrations/…_calendar.sql). */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{59}$/;

let anon: SupabaseClient | null = null;
/** No session, no cookies: the feed is asked for by calendar apps, and answers them alone. */
function anonClient(): SupabaseClient {
  anon ??= createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket, and supabase-js builds its Realtime client at once (never used here)
    realtime: { transport: WebSocket as never },
  });
  return anon;
}

interface FeedTask {
  id: string;
  number: number;
  title: string;
  due_on: string;
  /** the day it starts, when it has one */
  start_on?: string | null;
  /** the instant of a timed due date (§17), and of its start date's midnight in the same zone */
  due_at?: string | null;
  start_at?: string | null;
  updated_at: string;
  project_key: string;
  team_slug: string;
}

export type FeedAnswer = { found: false } | { found: true; body: string; etag: string; lastModified: Date | null };

/** The feed behind `token`, printed, or `found: false` (unknown, reset or malformed: all the same). */
export async function calendarFeed(token: string, origin: string): Promise<FeedAnswer> {
  if (!FEED_TOKEN.test(token)) return { found: false };
  const { data, error } = await anonClient().rpc("calendar_feed", { token });
  if (error) throw error;
  const feed = data as { time_zone: string; tasks: FeedTask[] } | null;
  if (!feed) return { found: false };
  const body = printFeed(feed.tasks, origin);
  const newest = feed.tasks.reduce<number | null>((max, t) => Math.max(max ?? 0, Date.parse(t.updated_at)), null);
  return {
    found: true,
    body,
    etag: `"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
    lastModified: newest === null ? null : new Date(newest),
  };
}

/** "2026-11-26" → the UTC midnight of that day: ical-generator prints an all-day date from its UTC fields. */
function utcDay(day: string): Date {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date));
}

/**
 * Each task twice, for the two kinds of app that subscribe (docs/product.md
 * §12, §17; decision 0043):
 *
 * - a VEVENT, what calendars show: all day on its due date, or from its start
 *   date to its due date (DTEND the day after, exclusive, as RFC 5545 says);
 *   with a due time, timed (UTC): at the due time, or from the start date's
 *   midnight (in the due time's zone) to it.
 * - a VTODO, what to-do apps read: DUE (a date, or the instant in UTC) and
 *   DTSTART when it has a start date (of DUE's type, and before it, as the RFC
 *   asks). ical-generator makes events only, so this module prints these lines.
 *
 * UID stable per task, SUMMARY "KEY-12 Title", URL of its page, DTSTAMP when
 * the task last changed (what RFC 5545 §3.8.7.2 asks of a calendar without
 * METHOD, and steady, so an unchanged feed prints the same).
 */
export function printFeed(tasks: FeedTask[], origin: string): string {
  const calendar = ical({
    name: "Teamboard: my tasks",
    prodId: { company: "Teamboard", product: "Teamboard", language: "EN" },
    // a hint to calendar apps: look again after 15 minutes
    ttl: 15 * 60,
  });
  const todos: string[] = [];
  for (const task of tasks) {
    const summary = `${taskRef(task.project_key, task.number)} ${task.title}`;
    const url = `${origin}/teams/${task.team_slug}/projects/${task.project_key}/tasks/${task.number}`;
    const stamp = new Date(task.updated_at);
    const common = { id: `task-${task.id}@teamboard`, summary, url, stamp };
    if (task.due_at) {
      const due = new Date(task.due_at);
      const start = task.start_at && Date.parse(task.start_at) < due.getTime() ? new Date(task.start_at) : null;
      calendar.createEvent({ ...common, start: start ?? due, end: due });
    } else if (task.start_on && task.start_on < task.due_on) {
      calendar.createEvent({ ...common, allDay: true, start: utcDay(task.start_on), end: addDay(task.due_on) });
    } else {
      calendar.createEvent({ ...common, allDay: true, start: utcDay(task.due_on) });
    }
    todos.push(printTodo(task, summary, url, stamp));
  }
  const text = calendar.toString();
  const end = text.lastIndexOf("END:VCALENDAR");
  return text.slice(0, end) + todos.join("") + text.slice(end);
}

function addDay(day: string): Date {
  const date = utcDay(day);
  date.setUTCDate(date.getUTCDate() + 1);
  return date;
}

/** 20261209T133000Z */
function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** 20261209 */
const dateValue = (day: string) => day.replaceAll("-", "");

/** TEXT as RFC 5545 §3.3.11 escapes it. */
function escapeText(text: string): string {
  return text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");
}

/** A content line folded at 75 octets (§3.1), never inside a character, ending CRLF. */
function contentLine(line: string): string {
  const parts: string[] = [];
  let part = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // the first line holds 75 octets; each next one 74 after its leading space
    if (octets + size > (parts.length ? 74 : 75)) {
      parts.push(part);
      part = "";
      octets = 0;
    }
    part += char;
    octets += size;
  }
  parts.push(part);
  return parts.join("\r\n ") + "\r\n";
}

function printTodo(task: FeedTask, summary: string, url: string, stamp: Date): string {
  const lines = ["BEGIN:VTODO", `UID:todo-${task.id}@teamboard`, `DTSTAMP:${utcStamp(stamp)}`];
  if (task.due_at) {
    const due = new Date(task.due_at);
    if (task.start_at && Date.parse(task.start_at) < due.getTime())
      lines.push(`DTSTART:${utcStamp(new Date(task.start_at))}`);
    lines.push(`DUE:${utcStamp(due)}`);
  } else {
    if (task.start_on && task.start_on < task.due_on) lines.push(`DTSTART;VALUE=DATE:${dateValue(task.start_on)}`);
    lines.push(`DUE;VALUE=DATE:${dateValue(task.due_on)}`);
  }
  lines.push(`SUMMARY:${escapeText(summary)}`, `URL;VALUE=URI:${url}`, "END:VTODO");
  return lines.map(contentLine).join("");
}
