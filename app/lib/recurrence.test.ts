/**
 * Repeating tasks' dates (docs/product.md §12). The next due date is computed by
 * the database only (supabase/migrations/…_recurrence_rules.sql), so these
 * tests load that file into a bare PGlite and compare next_due_date() with an
 * independent reading of each rule: every date of 2020–2040 that belongs to
 * the series (its weekday, day of month or date, in every N-th week, month
 * or year counted from the due date's), then the first one after the due
 * date. Every rule kind, N up to 99, every start day of 13 months around a leap day, and each series followed from 2024 to 2040.
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRule, fieldsFromRule, parseRule, ruleFromFields, WEEKDAYS, type Weekday } from "./recurrence";

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
  await db.exec(fs.readFileSync(path.resolve("supabase/migrations/20261126000520_recurrence_rules.sql"), "utf8"));
});
afterAll(() => db?.close());

const DAY = 86_400_000;
const dayNumber = (iso: string) => Date.parse(iso) / DAY;
const isoOf = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);
const FIRST = dayNumber("2020-01-01");
const LAST = dayNumber("2040-12-31");

/** Each date's parts and the week (Monday first), month and year it falls in, as counters: computed once. */
const PARTS = Array.from({ length: LAST - FIRST + 1 }, (_, i) => {
  const n = FIRST + i;
  const date = new Date(n * DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  return {
    year,
    month,
    day: date.getUTCDate(),
    weekday: (date.getUTCDay() + 6) % 7,
    week: Math.floor((n + 3) / 7), // 1970-01-01 was a Thursday
    monthIndex: year * 12 + month - 1,
    lastDay: new Date(Date.UTC(year, month, 0)).getUTCDate(),
  };
});
const parts = (n: number) => PARTS[n - FIRST];

interface Rule {
  text: string;
  /** the counter of the period (day, week, month, year) the rule steps by */
  period: (n: number) => number;
  interval: number;
  /** whether the date is one of the rule's days within its period */
  matches: (n: number) => boolean;
}

const clampDay = (d: number, lastDay: number) => (d === -1 ? lastDay : Math.min(d, lastDay));

function rules(): Rule[] {
  const list: Rule[] = [];
  for (const interval of [1, 2, 3, 7, 30, 99])
    list.push({ text: `FREQ=DAILY;INTERVAL=${interval}`, period: (n) => n, interval, matches: () => true });
  const daySets: Weekday[][] = [["MO"], ["SU"], ["MO", "WE", "FR"], ["TU", "TH"], ["SA", "SU"], [...WEEKDAYS]];
  for (const interval of [1, 2, 3, 52]) {
    for (const days of daySets) {
      const set = new Set(days.map((d) => WEEKDAYS.indexOf(d)));
      list.push({
        text: `FREQ=WEEKLY;INTERVAL=${interval};BYDAY=${days.join(",")}`,
        period: (n) => parts(n).week,
        interval,
        matches: (n) => set.has(parts(n).weekday),
      });
    }
  }
  for (const interval of [1, 2, 3, 12, 99]) {
    for (const monthDay of [1, 15, 28, 29, 30, 31, -1]) {
      list.push({
        text: `FREQ=MONTHLY;INTERVAL=${interval};BYMONTHDAY=${monthDay}`,
        period: (n) => parts(n).monthIndex,
        interval,
        matches: (n) => {
          const p = parts(n);
          return p.day === clampDay(monthDay, p.lastDay);
        },
      });
    }
  }
  for (const interval of [1, 2, 4, 5]) {
    for (const [month, monthDay] of [
      [2, 29],
      [2, 28],
      [1, 31],
      [12, 31],
      [3, 1],
    ]) {
      list.push({
        text: `FREQ=YEARLY;INTERVAL=${interval};BYMONTH=${month};BYMONTHDAY=${monthDay}`,
        period: (n) => parts(n).year,
        interval,
        matches: (n) => {
          const p = parts(n);
          return p.month === month && p.day === clampDay(monthDay, p.lastDay);
        },
      });
    }
  }
  return list;
}

/** The rule's dates from 2020 to 2040, by the class of periods (week, month… number mod N) they fall in. */
function datesByClass(rule: Rule): Map<number, number[]> {
  const classes = new Map<number, number[]>();
  for (let n = FIRST; n <= LAST; n++) {
    if (!rule.matches(n)) continue;
    const residue = rule.period(n) % rule.interval;
    const list = classes.get(residue);
    if (list) list.push(n);
    else classes.set(residue, [n]);
  }
  return classes;
}

/** The rule's next date after `due`: the first of its dates after it in the due date's class of periods. */
function expectedNext(rule: Rule, due: number, classes: Map<number, number[]>): string {
  const dates = classes.get(rule.period(due) % rule.interval) ?? [];
  const next = dates.find((n) => n > due);
  return next === undefined ? "none" : isoOf(next);
}

describe("next_due_date, in the database", () => {
  it("gives the first date of the series after the due date, for every rule and every start day of December 2027 to December 2028", async () => {
    let checked = 0;
    for (const rule of rules()) {
      const { rows } = await db.query<{ due: string; next: string }>(
        `select d::date::text as due, public.next_due_date($1, d::date)::text as next
         from generate_series('2027-12-01'::date, '2028-12-31'::date, interval '1 day') d`,
        [rule.text],
      );
      const classes = datesByClass(rule);
      const wrong = rows
        .filter(({ due, next }) => next !== expectedNext(rule, dayNumber(due), classes))
        .map(
          ({ due, next }) =>
            `${rule.text} after ${due}: ${next}, expected ${expectedNext(rule, dayNumber(due), classes)}`,
        );
      expect(wrong).toEqual([]);
      checked += rows.length;
    }
    expect(checked).toBe(85 * 397);
  });

  it("follows each series from 2024 to 2040 date by date (up to 60 steps a rule)", async () => {
    let steps = 0;
    for (const rule of rules()) {
      const start = dayNumber("2024-01-01");
      const expected = [...(datesByClass(rule).get(rule.period(start) % rule.interval) ?? [])]
        .filter((n) => n > start)
        .slice(0, 60)
        .map(isoOf);
      const { rows } = await db.query<{ dates: string[] }>(
        `with recursive s(d, i) as (
           select public.next_due_date($1, '2024-01-01'::date), 1
           union all select public.next_due_date($1, d), i + 1 from s where i < $2 and d < '2040-12-31')
         select array_agg(d::text order by i) as dates from s where d <= '2040-12-31'`,
        [rule.text, expected.length],
      );
      expect(rows[0].dates, rule.text).toEqual(expected);
      steps += expected.length;
    }
    expect(steps).toBeGreaterThan(3000);
  });

  it("month ends and leap days as people expect", async () => {
    const chain = async (rule: string, start: string, steps: number) => {
      const dates = [start];
      for (let i = 0; i < steps; i++) {
        const { rows } = await db.query<{ next: string }>("select public.next_due_date($1, $2::date)::text as next", [
          rule,
          dates.at(-1),
        ]);
        dates.push(rows[0].next);
      }
      return dates;
    };
    // the 31st: the last day of shorter months, and the 31st again where there is one
    expect(await chain("FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=31", "2027-12-31", 4)).toEqual([
      "2027-12-31",
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
      "2028-04-30",
    ]);
    expect(await chain("FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1", "2026-01-31", 3)).toEqual([
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
    ]);
    // 29 February yearly: the 28th in other years, the 29th again in the next leap year
    expect(await chain("FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=29", "2028-02-29", 4)).toEqual([
      "2028-02-29",
      "2029-02-28",
      "2030-02-28",
      "2031-02-28",
      "2032-02-29",
    ]);
    // every 2 weeks on Monday and Friday: the Friday of the same week, then the Monday two weeks on
    expect(await chain("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR", "2026-11-23", 3)).toEqual([
      "2026-11-23",
      "2026-11-27",
      "2026-12-07",
      "2026-12-11",
    ]);
  });

  it("no time zone moves a date: across summer-time changes the answers are the same in every zone", async () => {
    const sql = `select string_agg(public.next_due_date(r, d::date)::text, ',' order by r, d) as all
                 from unnest($1::text[]) r, generate_series('2026-03-20'::date, '2026-04-05'::date, interval '1 day') d`;
    const sample = [
      "FREQ=DAILY;INTERVAL=1",
      "FREQ=WEEKLY;INTERVAL=1;BYDAY=SU",
      "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=29",
    ];
    const answers = new Set<string>();
    for (const zone of ["UTC", "Europe/Berlin", "America/Santiago", "Australia/Lord_Howe", "Pacific/Apia"]) {
      await db.exec(`set timezone = '${zone}'`);
      answers.add((await db.query<{ all: string }>(sql, [sample])).rows[0].all);
    }
    await db.exec("reset timezone");
    expect(answers.size).toBe(1);
    // 29 March 2026 is Europe's change to summer time: a day later is the 30th, a week later the 5th of April
    const { rows } = await db.query<{ a: string; b: string }>(
      "select public.next_due_date('FREQ=DAILY;INTERVAL=1', '2026-03-29')::text a, public.next_due_date('FREQ=WEEKLY;INTERVAL=1;BYDAY=SU', '2026-03-29')::text b",
    );
    expect(rows[0]).toEqual({ a: "2026-03-30", b: "2026-04-05" });
  });

  it("accepts the canonical rules only, N from 1 to 99", async () => {
    const check = async (rule: string | null) =>
      (await db.query<{ ok: boolean }>("select public.is_recurrence($1) as ok", [rule])).rows[0].ok;
    for (const rule of rules()) expect(await check(rule.text), rule.text).toBe(true);
    for (const bad of [
      null,
      "",
      "FREQ=DAILY;INTERVAL=0",
      "FREQ=DAILY;INTERVAL=100",
      "FREQ=DAILY",
      "FREQ=HOURLY;INTERVAL=1",
      "FREQ=WEEKLY;INTERVAL=1",
      "FREQ=WEEKLY;INTERVAL=1;BYDAY=FR,MO",
      "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,MO",
      "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=32",
      "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=0",
      "FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=30",
      "FREQ=YEARLY;INTERVAL=1;BYMONTH=13;BYMONTHDAY=1",
      "FREQ=DAILY;INTERVAL=1;COUNT=3",
    ])
      expect(await check(bad), String(bad)).toBe(false);
  });
});

describe("rules from the task form and back", () => {
  const fields = (repeat: "never" | "daily" | "weekly" | "monthly" | "yearly", extra = {}) => ({
    repeat,
    every: 1,
    days: [] as Weekday[],
    monthly: "day" as const,
    ...extra,
  });

  it("takes a month's day and a year's date from the due date; a weekly rule without days, the due date's weekday", () => {
    expect(ruleFromFields(fields("monthly"), "2026-01-31")).toEqual({ rule: "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=31" });
    expect(ruleFromFields(fields("monthly", { monthly: "last", every: 3 }), "2026-01-10")).toEqual({
      rule: "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1",
    });
    expect(ruleFromFields(fields("yearly"), "2028-02-29")).toEqual({
      rule: "FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=29",
    });
    expect(ruleFromFields(fields("weekly", { every: 2 }), "2026-11-26")).toEqual({
      rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH",
    });
    expect(ruleFromFields(fields("weekly", { days: ["FR", "MO"] }), "2026-11-26")).toEqual({
      rule: "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR",
    });
    expect(ruleFromFields(fields("daily"), null)).toEqual({ error: "A repeating task needs a due date." });
    expect(ruleFromFields(fields("never"), null)).toEqual({ rule: null });
  });

  it("reads a rule back into the form, and says it in words", () => {
    expect(fieldsFromRule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR")).toEqual({
      repeat: "weekly",
      every: 2,
      days: ["MO", "FR"],
      monthly: "day",
    });
    expect(fieldsFromRule(null).repeat).toBe("never");
    expect(parseRule("FREQ=SECONDLY;INTERVAL=1")).toBeNull();
    expect(describeRule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR")).toBe("Every 2 weeks on Monday, Wednesday and Friday");
    expect(describeRule("FREQ=DAILY;INTERVAL=1")).toBe("Every day");
    expect(describeRule("FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1")).toBe("Every month on the last day");
    expect(describeRule("FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=22")).toBe("Every 6 months on the 22nd");
    expect(describeRule("FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=29")).toBe("Every year on 29 February");
  });
});
