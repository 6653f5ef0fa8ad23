import { describe, expect, it } from "vitest";
import { INVALID_SCHEDULES, VALID_SCHEDULES } from "./schedule-cases.ts";
import { nextCronRun, parseSchedule, runsAt, type Schedule } from "./schedule.ts";

const cron = (text: string) => {
  const s = parseSchedule(text);
  if (s?.kind !== "cron") throw new Error(`${text} is not a cron schedule`);
  return s;
};
const at = (iso: string) => Date.parse(iso);
const next = (text: string, after: string) => {
  const t = nextCronRun(cron(text), at(after));
  return t === null ? null : new Date(t).toISOString();
};

describe("parseSchedule", () => {
  it.each(VALID_SCHEDULES)("accepts %j", (text) => {
    expect(parseSchedule(text)).not.toBeNull();
  });

  it.each(INVALID_SCHEDULES)("refuses %j", (text) => {
    expect(parseSchedule(text)).toBeNull();
  });

  it("reads seconds, @reboot and the macros", () => {
    expect(parseSchedule("30 seconds")).toEqual<Schedule>({ kind: "seconds", seconds: 30 });
    expect(parseSchedule("@restart")).toEqual<Schedule>({ kind: "reboot" });
    expect(next("@hourly", "2026-11-26T10:15:00Z")).toBe("2026-11-26T11:00:00.000Z");
    expect(next("@weekly", "2026-11-26T10:15:00Z")).toBe("2026-11-29T00:00:00.000Z"); // a Sunday
    expect(next("@monthly", "2026-11-26T10:15:00Z")).toBe("2026-12-01T00:00:00.000Z");
    expect(next("@yearly", "2026-11-26T10:15:00Z")).toBe("2027-01-01T00:00:00.000Z");
  });
});

describe("when a cron schedule runs (UTC)", () => {
  it("names the minute, hour, day, month and weekday", () => {
    expect(runsAt(cron("0 8 * * *"), at("2026-11-26T08:00:59Z"))).toBe(true);
    expect(runsAt(cron("0 8 * * *"), at("2026-11-26T08:01:00Z"))).toBe(false);
    expect(next("0 8 * * *", "2026-11-26T08:00:00Z")).toBe("2026-11-27T08:00:00.000Z");
    expect(next("*/15 * * * *", "2026-11-26T10:16:00Z")).toBe("2026-11-26T10:30:00.000Z");
    expect(next("5-50/20 * * * *", "2026-11-26T10:26:00Z")).toBe("2026-11-26T10:45:00.000Z");
    expect(next("0 9 * * mon-fri", "2026-11-27T09:00:00Z")).toBe("2026-11-30T09:00:00.000Z"); // Fri → Mon
    expect(next("0 0 * * 7", "2026-11-26T00:00:00Z")).toBe("2026-11-29T00:00:00.000Z"); // 7 is Sunday
    expect(next("0 0 1 feb *", "2026-11-26T00:00:00Z")).toBe("2027-02-01T00:00:00.000Z");
    expect(next("30 6 1,15 * *", "2026-11-26T00:00:00Z")).toBe("2026-12-01T06:30:00.000Z");
  });

  it("runs on the last day of the month with $", () => {
    expect(next("0 23 $ * *", "2026-11-26T00:00:00Z")).toBe("2026-11-30T23:00:00.000Z");
    expect(next("0 23 $ * *", "2027-02-01T00:00:00Z")).toBe("2027-02-28T23:00:00.000Z");
  });

  it("takes either day field when both are restricted, both when one starts with *", () => {
    // the 13th, or any Friday (cron's rule)
    expect(next("0 0 13 * fri", "2026-11-26T00:00:00Z")).toBe("2026-11-27T00:00:00.000Z");
    // every second day of the month that is also a Friday
    expect(next("0 0 */2 * fri", "2026-11-26T00:00:00Z")).toBe("2026-11-27T00:00:00.000Z");
    expect(next("0 0 */2 * sat", "2026-11-26T00:00:00Z")).toBe("2026-12-05T00:00:00.000Z");
  });

  it("finds no run for a day that never comes", () => {
    expect(next("0 0 31 2 *", "2026-11-26T00:00:00Z")).toBeNull();
  });
});
