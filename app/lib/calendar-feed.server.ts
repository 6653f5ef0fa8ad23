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

/**
 * One all-day event per task: DTSTART;VALUE=DATE on its due date (a day, in
 * no time zone), UID stable per task, SUMMARY "KEY-12 Title", URL of its
 * page, DTSTAMP when the task last changed (what RFC 5545 §3.8.7.2 asks of
 * a calendar without METHOD, and steady, so an unchanged feed prints the same).
 */
export function printFeed(tasks: FeedTask[], origin: string): string {
  const calendar = ical({
    name: "Teamboard: my tasks",
    prodId: { company: "Teamboard", product: "Teamboard", language: "EN" },
    // a hint to calendar apps: look again after 15 minutes
    ttl: 15 * 60,
  });
  for (const task of tasks) {
    const [year, month, day] = task.due_on.split("-").map(Number);
    calendar.createEvent({
      id: `task-${task.id}@teamboard`,
      allDay: true,
      // the UTC midnight of the day: ical-generator prints an all-day date from its UTC fields
      start: new Date(Date.UTC(year, month - 1, day)),
      summary: `${taskRef(task.project_key, task.number)} ${task.title}`,
      url: `${origin}/teams/${task.team_slug}/projects/${task.project_key}/tasks/${task.number}`,
      stamp: new Date(task.updated_at),
    });
  }
  return calendar.toString();
}
