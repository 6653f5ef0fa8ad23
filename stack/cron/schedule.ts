/**
 * pg_cron's schedules, read as pg_cron reads them (its entry.c, Vixie cron's
 * syntax): five fields — minute, hour, day of month, month, day of week —
 * each a list of `*`, `n`, `n-m`, `*\/s` or `n-m/s`, with month and day names
 * (any case) and 7 for Sunday; `$` as the day of month for the last day; the
 * @-macros; or pg_cron's '[1-59] seconds'. Anything after the fifth field is
 * ignored, as pg_cron does. Times are UTC (pg_cron's cron.timezone default,
 * and Supabase's). cron._valid_schedule (stack/db/extensions/pg_cron.sql)
 * accepts exactly what this accepts; schedule.test.ts holds the cases.
 */
export type Schedule =
  | { kind: "seconds"; seconds: number }
  | { kind: "reboot" }
  | {
      kind: "cron";
      minutes: Set<number>;
      hours: Set<number>;
      days: Set<number>;
      months: Set<number>;
      weekdays: Set<number>;
      lastDayOfMonth: boolean;
      /** the day-of-month or day-of-week field starts with `*`: both must match (else either may) */
      domOrDowStar: boolean;
    };

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const BOUNDS: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];
const MACROS: Record<string, string | null> = {
  reboot: null,
  restart: null,
  yearly: "0 0 1 1 *",
  annually: "0 0 1 1 *",
  monthly: "0 0 1 * *",
  weekly: "0 0 * * 0",
  daily: "0 0 * * *",
  midnight: "0 0 * * *",
  hourly: "0 * * * *",
};

function value(field: number, token: string): number | null {
  if (/^\d{1,9}$/.test(token)) return Number(token);
  const names = field === 3 ? MONTHS : field === 4 ? DAYS : null;
  const i = names ? names.indexOf(token.toLowerCase()) : -1;
  if (i === -1) return null;
  return field === 3 ? i + 1 : i;
}

function parseField(field: number, text: string): Set<number> | null {
  const [lo, hi] = BOUNDS[field];
  const out = new Set<number>();
  for (const item of text.split(",")) {
    const m = /^(\*|[A-Za-z0-9]+)(?:-([A-Za-z0-9]+))?(?:\/(\d{1,9}))?$/.exec(item);
    if (!m || (m[1] === "*" && m[2] !== undefined) || (m[1] !== "*" && m[2] === undefined && m[3] !== undefined)) {
      return null;
    }
    const step = m[3] === undefined ? 1 : Number(m[3]);
    if (step < 1 || step > hi) return null;
    let from = lo;
    let to = hi;
    if (m[1] !== "*") {
      const a = value(field, m[1]);
      const b = m[2] === undefined ? a : value(field, m[2]);
      if (a === null || b === null || a < lo || a > hi || b < lo || b > hi) return null;
      from = a;
      to = b;
    }
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

/** The schedule, or null where pg_cron says "invalid schedule". */
export function parseSchedule(text: string): Schedule | null {
  if (text.length >= 1000) return null;
  const trimmed = text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");
  const seconds = /^(\d{1,9})\s*seconds?$/i.exec(trimmed);
  if (seconds) {
    const n = Number(seconds[1]);
    return n >= 1 && n <= 59 ? { kind: "seconds", seconds: n } : null;
  }
  if (trimmed.startsWith("@")) {
    const name = /^@(\S*)/.exec(trimmed)![1];
    if (!(name in MACROS)) return null;
    const expansion = MACROS[name];
    return expansion === null ? { kind: "reboot" } : parseSchedule(expansion);
  }
  const fields = trimmed.split(/[ \t]+/);
  if (fields.length < 5) return null;
  const sets: Set<number>[] = [];
  let lastDayOfMonth = false;
  for (let i = 0; i < 5; i++) {
    if (i === 2 && fields[i] === "$") {
      lastDayOfMonth = true;
      sets.push(new Set());
      continue;
    }
    const set = parseField(i, fields[i]);
    if (!set) return null;
    sets.push(set);
  }
  // Sunday is 0 and 7
  if (sets[4].has(7)) sets[4].add(0);
  return {
    kind: "cron",
    minutes: sets[0],
    hours: sets[1],
    days: sets[2],
    months: sets[3],
    weekdays: sets[4],
    lastDayOfMonth,
    domOrDowStar: fields[2].startsWith("*") || fields[4].startsWith("*"),
  };
}

type CronSchedule = Extract<Schedule, { kind: "cron" }>;

/** Whether a cron schedule's month, day-of-month and day-of-week fields let it run on the day of `time`. */
function runsOnDay(schedule: CronSchedule, time: number): boolean {
  const d = new Date(time);
  if (!schedule.months.has(d.getUTCMonth() + 1)) return false;
  const lastDay = new Date(time + DAY).getUTCDate() === 1;
  const dom = schedule.days.has(d.getUTCDate()) || (schedule.lastDayOfMonth && lastDay);
  const dow = schedule.weekdays.has(d.getUTCDay());
  return schedule.domOrDowStar ? dom && dow : dom || dow;
}

/** Whether a cron schedule runs in the minute that `time` (ms, UTC) falls in. */
export function runsAt(schedule: CronSchedule, time: number): boolean {
  const d = new Date(time);
  return schedule.minutes.has(d.getUTCMinutes()) && schedule.hours.has(d.getUTCHours()) && runsOnDay(schedule, time);
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The start of the next minute after `after` in which a cron schedule runs (searching 5 years), or null. */
export function nextCronRun(schedule: CronSchedule, after: number): number | null {
  let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  const until = t + 5 * 366 * DAY;
  while (t < until) {
    const nextDay = Math.floor(t / DAY) * DAY + DAY;
    if (runsOnDay(schedule, t)) {
      for (; t < nextDay; t += MINUTE) if (runsAt(schedule, t)) return t;
    }
    t = nextDay;
  }
  return null;
}
