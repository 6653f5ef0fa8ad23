import { dateInZone, type PageTime, type ZoneTable } from "./dates";

/**
 * Time zones as this server's runtime knows them (Node's ICU): the list a
 * person picks from, and each zone's offsets worked out once so that pages
 * print times in it without Intl in the browser (dates.ts; docs/decisions/0029-time.md).
 */

/** Every zone a person may choose: UTC, then the runtime's own IANA names (418 in Node 20.20, ICU 78). */
export const TIME_ZONES: readonly string[] = ["UTC", ...Intl.supportedValuesOf("timeZone")];
const KNOWN = new Set(TIME_ZONES);

export const TIME_ZONE_MESSAGE = "Choose a time zone from the list.";

/**
 * The runtime's own name for `name` when it is a zone it knows ("Asia/Kolkata"
 * → "Asia/Calcutta", "Etc/UTC" → "UTC" in Node 20), else null. A browser may
 * report a newer or older name for the same zone than the list holds.
 */
export function canonicalTimeZone(name: string | null | undefined): string | null {
  if (!name) return null;
  if (KNOWN.has(name)) return name;
  try {
    const resolved = new Intl.DateTimeFormat("en-GB", { timeZone: name }).resolvedOptions().timeZone;
    return KNOWN.has(resolved) ? resolved : resolved === "Etc/UTC" || resolved === "Etc/GMT" ? "UTC" : null;
  } catch {
    return null;
  }
}

const formatters = new Map<string, { offset: Intl.DateTimeFormat; short: Intl.DateTimeFormat }>();
function formattersOf(zone: string) {
  let pair = formatters.get(zone);
  if (!pair) {
    pair = {
      offset: new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "longOffset" }),
      short: new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "short" }),
    };
    formatters.set(zone, pair);
  }
  return pair;
}

const zoneNamePart = (format: Intl.DateTimeFormat, ms: number) =>
  format.formatToParts(ms).find((part) => part.type === "timeZoneName")?.value ?? "";

/** Minutes east of UTC in `zone` at `ms` ("GMT+05:45" → 345). */
function offsetAt(zone: string, ms: number): number {
  const text = zoneNamePart(formattersOf(zone).offset, ms);
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!match) return 0; // "GMT"
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

const WEEK = 7 * 86_400_000;
const MINUTE = 60_000;

/**
 * The years a table covers exactly: from 2015 (nothing in Teamboard is older)
 * to five years ahead. Outside them the first or last offset holds, which can
 * be an hour off in a zone with summer time (dates.ts never sees such a time).
 */
const TABLE_FROM = Date.UTC(2015, 0, 1);
const tableTo = () => Date.UTC(new Date().getUTCFullYear() + 6, 0, 1);

const tables = new Map<string, ZoneTable>();

/**
 * `zone`'s offsets and short names from TABLE_FROM on: the zone is read once
 * a week and, where the reading changed, the minute of the change is found by
 * halving. No zone has changed twice within a week since 2015 (Morocco's
 * Ramadan changes, the closest, are four weeks apart; the unit test compares
 * every zone with Intl hour by hour). About 1,100 readings and 17 more per
 * change, done once per zone per process; a zone with summer time has ~35 spans.
 */
export function zoneTable(zone: string): ZoneTable {
  const cached = tables.get(zone);
  if (cached) return cached;
  const { short } = formattersOf(zone);
  const read = (ms: number) => ({ offset: offsetAt(zone, ms), abbr: zoneNamePart(short, ms) });
  const table: ZoneTable = { name: zone, starts: [], offsets: [], abbrs: [], names: [] };
  const push = (ms: number, state: { offset: number; abbr: string }) => {
    let index = table.names.indexOf(state.abbr);
    if (index < 0) index = table.names.push(state.abbr) - 1;
    table.starts.push(Math.floor(ms / MINUTE));
    table.offsets.push(state.offset);
    table.abbrs.push(index);
  };
  let previous = read(TABLE_FROM);
  push(0, previous);
  const end = tableTo();
  for (let week = TABLE_FROM + WEEK; week <= end; week += WEEK) {
    const now = read(week);
    if (now.offset === previous.offset && now.abbr === previous.abbr) continue;
    // the first minute of the week before that reads like this one
    let low = (week - WEEK) / MINUTE;
    let high = week / MINUTE;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      const state = read(middle * MINUTE);
      if (state.offset === now.offset && state.abbr === now.abbr) high = middle;
      else low = middle;
    }
    push(high * MINUTE, now);
    previous = now;
  }
  tables.set(zone, table);
  return table;
}

export function pageTime(zone: string, now = Date.now()): PageTime {
  const table = zoneTable(canonicalTimeZone(zone) ?? "UTC");
  return { zone: table, today: dateInZone(now, table), now };
}

/** The list for a <select>: "America/New York" (spaces for underscores). */
export const TIME_ZONE_OPTIONS: ReadonlyArray<{ value: string; label: string }> = TIME_ZONES.map((zone) => ({
  value: zone,
  label: zone.replaceAll("_", " "),
}));
