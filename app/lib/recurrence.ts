/**
 * Repeating tasks (docs/product.md §12): the rule a task keeps in `recurrence`,
 * a subset of RFC 5545's RRULE in one canonical spelling
 * (supabase/migrations/…_recurrence_rules.sql checks it and computes the next
 * due date from it: that is the only place dates are computed). Here: the
 * rule from the task form's fields and back, and in words.
 */
// (No import of dates.ts: the task forms load this, and sharing dates.ts with them would
// split it into a script of its own on every calendar and board page: scripts/chunks-by-route.ts.)

export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const DAY_NAMES: Record<Weekday, string> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};

const MONTHS_IN_FULL = "January February March April May June July August September October November December".split(
  " ",
);

/** The RRULE day of "2026-11-26" (a Thursday: TH). */
const weekdayOf = (day: string): Weekday => WEEKDAYS[(new Date(Date.parse(day)).getUTCDay() + 6) % 7];

export const REPEATS = ["never", "daily", "weekly", "monthly", "yearly"] as const;
export type Repeat = (typeof REPEATS)[number];

export type Recurrence =
  | { freq: "daily"; interval: number }
  | { freq: "weekly"; interval: number; days: Weekday[] }
  /** monthDay 1–31, or -1 for the last day of the month */
  | { freq: "monthly"; interval: number; monthDay: number }
  | { freq: "yearly"; interval: number; month: number; monthDay: number };

export const NEEDS_DUE_DATE = "A repeating task needs a due date.";

/** The canonical rule text. */
export function ruleText(r: Recurrence): string {
  const head = `FREQ=${r.freq.toUpperCase()};INTERVAL=${r.interval}`;
  switch (r.freq) {
    case "daily":
      return head;
    case "weekly":
      return `${head};BYDAY=${WEEKDAYS.filter((d) => r.days.includes(d)).join(",")}`;
    case "monthly":
      return `${head};BYMONTHDAY=${r.monthDay}`;
    case "yearly":
      return `${head};BYMONTH=${r.month};BYMONTHDAY=${r.monthDay}`;
  }
}

/** A stored rule read back (null for none, or for text this app didn't write). */
export function parseRule(rule: string | null | undefined): Recurrence | null {
  if (!rule) return null;
  const parts = Object.fromEntries(rule.split(";").map((p) => p.split("=") as [string, string]));
  const interval = Number(parts.INTERVAL);
  if (!Number.isInteger(interval) || interval < 1 || interval > 99) return null;
  switch (parts.FREQ) {
    case "DAILY":
      return { freq: "daily", interval };
    case "WEEKLY": {
      const days = (parts.BYDAY ?? "")
        .split(",")
        .filter((d): d is Weekday => (WEEKDAYS as readonly string[]).includes(d));
      return days.length ? { freq: "weekly", interval, days } : null;
    }
    case "MONTHLY":
      return { freq: "monthly", interval, monthDay: Number(parts.BYMONTHDAY) };
    case "YEARLY":
      return { freq: "yearly", interval, month: Number(parts.BYMONTH), monthDay: Number(parts.BYMONTHDAY) };
  }
  return null;
}

/** What the task form sends about repeating. */
export interface RepeatFields {
  repeat: Repeat;
  /** N, 1–99 */
  every: number;
  /** weekly: the days ticked (none: the due date's weekday) */
  days: Weekday[];
  /** monthly: on the due date's day of the month, or on the month's last day */
  monthly: "day" | "last";
}

/**
 * The rule for the form's fields and the task's due date ("2026-11-26"):
 * a month's day and a year's date come from the due date. Null when the task
 * doesn't repeat; an error when it would need a due date it hasn't got.
 */
export function ruleFromFields(
  fields: RepeatFields,
  dueOn: string | null,
): { rule: string | null } | { error: string } {
  if (fields.repeat === "never") return { rule: null };
  if (!dueOn) return { error: NEEDS_DUE_DATE };
  const [, month, day] = dueOn.split("-").map(Number);
  const interval = fields.every;
  switch (fields.repeat) {
    case "daily":
      return { rule: ruleText({ freq: "daily", interval }) };
    case "weekly":
      return {
        rule: ruleText({
          freq: "weekly",
          interval,
          days: fields.days.length ? fields.days : [weekdayOf(dueOn)],
        }),
      };
    case "monthly":
      return { rule: ruleText({ freq: "monthly", interval, monthDay: fields.monthly === "last" ? -1 : day }) };
    case "yearly":
      return { rule: ruleText({ freq: "yearly", interval, month, monthDay: day }) };
  }
}

/** The form's fields for a stored rule (for editing it). */
export function fieldsFromRule(rule: string | null | undefined): RepeatFields {
  const r = parseRule(rule);
  return {
    repeat: r?.freq ?? "never",
    every: r?.interval ?? 1,
    days: r?.freq === "weekly" ? r.days : [],
    monthly: r?.freq === "monthly" && r.monthDay === -1 ? "last" : "day",
  };
}

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
};

const every = (interval: number, unit: string) => (interval === 1 ? `Every ${unit}` : `Every ${interval} ${unit}s`);

/** "Every 2 weeks on Monday and Friday", "Every month on the last day", "Every year on 29 February". */
export function describeRule(rule: string | null | undefined): string | null {
  const r = parseRule(rule);
  if (!r) return null;
  switch (r.freq) {
    case "daily":
      return every(r.interval, "day");
    case "weekly": {
      const names = r.days.map((d) => DAY_NAMES[d]);
      const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
      return `${every(r.interval, "week")} on ${list}`;
    }
    case "monthly":
      return `${every(r.interval, "month")} on the ${r.monthDay === -1 ? "last day" : ordinal(r.monthDay)}`;
    case "yearly":
      return `${every(r.interval, "year")} on ${r.monthDay} ${MONTHS_IN_FULL[r.month - 1]}`;
  }
}
