/**
 * Dates and times as the app prints them, in the viewer's time zone:
 * "5 Sept 2026" and "5 Sept 2026, 09:05 CEST" (British English, medium date,
 * 24-hour time, the zone's short name as en-GB gives it).
 *
 * Written out rather than through Intl: the browser's first
 * Intl.DateTimeFormat loads ICU's locale and time-zone data, ~10 ms of main
 * thread on a desktop and ~40 ms on a phone-speed CPU (4x slowdown), all of it
 * inside hydration on every task page (docs/decisions/0021-browser-weight.md);
 * and the browser's ICU could disagree with Node's. So the server, which may
 * use Intl, works out the zone's offsets once (`ZoneTable`, from
 * time-zones.server.ts) and hands them to the page with the root loader's
 * data; both sides print from that table alone and cannot disagree
 * (docs/decisions/0029-time.md).
 */
/** The months as the short and long formats write them. */
export const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"];
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** "05" for 5: months, days, hours and minutes as the app prints them. */
export const twoDigits = (n: number) => String(n).padStart(2, "0");

/**
 * A time zone's offsets from UTC over the years the app shows (see
 * time-zones.server.ts): span i starts at `starts[i]` (minutes since the
 * epoch; the first reaches back indefinitely, the last on indefinitely) with
 * `offsets[i]` minutes east of UTC and the short name `names[abbrs[i]]`.
 */
export interface ZoneTable {
  name: string;
  starts: number[];
  offsets: number[];
  abbrs: number[];
  names: string[];
}

/** What a page needs to print times: the viewer's zone and today's date in it (the root loader's `time`). */
export interface PageTime {
  zone: ZoneTable;
  /** "2026-11-26" in the viewer's zone, when the page was made */
  today: string;
  /** the instant the page was made (ms): a timed due date is overdue from its time (§17) */
  now: number;
}

export const UTC_ZONE: ZoneTable = { name: "UTC", starts: [0], offsets: [0], abbrs: [0], names: ["UTC"] };

/** The span of `zone` that holds the instant `ms`. */
function spanAt(zone: ZoneTable, ms: number): number {
  const minute = Math.floor(ms / 60_000);
  let i = zone.starts.length - 1;
  while (i > 0 && zone.starts[i] > minute) i--;
  return i;
}

/** The wall clock in `zone` at `ms`, as a Date whose UTC fields read it. */
function wallClock(ms: number, zone: ZoneTable): { wall: Date; abbr: string } {
  const span = spanAt(zone, ms);
  return { wall: new Date(ms + zone.offsets[span] * 60_000), abbr: zone.names[zone.abbrs[span]] };
}

/** "23 Nov 2026": the day in `zone` of a timestamp. */
export function formatDate(iso: string, zone: ZoneTable): string {
  const { wall } = wallClock(Date.parse(iso), zone);
  return `${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}`;
}

/** "23 Nov 2026, 17:51 CET": a timestamp on the wall clock of `zone`. */
export function formatDateTime(iso: string, zone: ZoneTable): string {
  const { wall, abbr } = wallClock(Date.parse(iso), zone);
  const day = `${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}`;
  return `${day}, ${twoDigits(wall.getUTCHours())}:${twoDigits(wall.getUTCMinutes())} ${abbr}`;
}

/** "2026-11-26": the date in `zone` at the instant `ms`. */
export function dateInZone(ms: number, zone: ZoneTable): string {
  return wallClock(ms, zone).wall.toISOString().slice(0, 10);
}

/** "26 Nov 2026" for a calendar date ("2026-11-26", a due date): no zone, it is a day. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  return `${date} ${MONTHS[month - 1]} ${year}`;
}

/** The days between two calendar dates ("2026-11-26", "2026-11-28" → 2). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
}

/** A calendar date `days` later (or earlier). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
}

/** 0 for Monday … 6 for Sunday. */
export function weekdayOf(day: string): number {
  return (new Date(Date.parse(day)).getUTCDay() + 6) % 7;
}

/**
 * "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the date:
 * how long before `now` (the loader's clock, so the server's HTML and the
 * browser's hydration print the same).
 */
export function formatAgo(iso: string, now: string, zone: ZoneTable): string {
  const seconds = Math.max(0, (Date.parse(now) - Date.parse(iso)) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  if (days === 1) return "yesterday";
  if (days < 7) return `${days} days ago`;
  return formatDate(iso, zone);
}
