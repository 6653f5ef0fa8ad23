import { expect, test } from "vitest";
import { addDays, dateInZone, daysBetween, formatDate, formatDateTime, formatDay, weekdayOf } from "./dates";
import { canonicalTimeZone, pageTime, TIME_ZONES, zoneTable } from "./time-zones.server";

/** What Intl prints in British English for a zone: the reference dates.ts must match. */
function intlIn(timeZone: string) {
  const date = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone });
  const time = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
  const name = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" });
  return (ms: number) => ({
    date: date.format(ms),
    dateTime: `${time.format(ms)} ${name.formatToParts(ms).find((part) => part.type === "timeZoneName")!.value}`,
  });
}

/**
 * Zones that test the table: summer time north and south, none, given up
 * (São Paulo 2019, Tehran 2022, Amman 2022), moved by Ramadan (Casablanca),
 * half- and quarter-hour offsets, a half-hour summer shift (Lord Howe), the
 * date line (Apia, Kiritimati), and UTC.
 */
const ZONES = [
  "UTC",
  "Europe/Berlin",
  "Europe/London",
  "America/New_York",
  "America/Santiago",
  "America/Sao_Paulo",
  "Australia/Sydney",
  "Australia/Lord_Howe",
  "Asia/Tehran",
  "Asia/Amman",
  "Africa/Casablanca",
  "Asia/Calcutta",
  "Asia/Katmandu",
  "Pacific/Chatham",
  "Pacific/Apia",
  "Pacific/Kiritimati",
];

const DAY = 86_400_000;

test("prints what Intl prints in British English, in each zone, every other day from 2015 and around every change", () => {
  for (const name of ZONES) {
    const zone = zoneTable(name);
    const intl = intlIn(name);
    const changes = zone.starts.slice(1).flatMap((minute) => [minute * 60_000 - 60_000, minute * 60_000]);
    const days: number[] = [];
    // a different minute of the day each time, so every hour is met
    for (let t = Date.UTC(2015, 0, 1, 0, 7); t < Date.UTC(2031, 0, 1); t += 2 * DAY + 37 * 60_000) days.push(t);
    for (const ms of [...changes, ...days]) {
      const iso = new Date(ms).toISOString();
      const expected = intl(ms);
      expect(formatDateTime(iso, zone), `${name} ${iso}`).toBe(expected.dateTime);
      expect(formatDate(iso, zone), `${name} ${iso}`).toBe(expected.date);
    }
  }
});

test("summer time: Berlin's clocks go from 01:59 CET to 03:00 CEST and back from 02:59 CEST to 02:00 CET", () => {
  const berlin = zoneTable("Europe/Berlin");
  expect(formatDateTime("2026-03-29T00:59:00Z", berlin)).toBe("29 Mar 2026, 01:59 CET");
  expect(formatDateTime("2026-03-29T01:00:00Z", berlin)).toBe("29 Mar 2026, 03:00 CEST");
  expect(formatDateTime("2026-10-25T00:59:00Z", berlin)).toBe("25 Oct 2026, 02:59 CEST");
  expect(formatDateTime("2026-10-25T01:00:00Z", berlin)).toBe("25 Oct 2026, 02:00 CET");
  expect(formatDateTime("2026-09-05T01:05:00+02:00", zoneTable("UTC"))).toBe("4 Sept 2026, 23:05 UTC");
});

test("the day in a zone: 23:30 UTC is already tomorrow in Tokyo and still today in Los Angeles", () => {
  const ms = Date.parse("2026-11-26T23:30:00Z");
  expect(dateInZone(ms, zoneTable("Asia/Tokyo"))).toBe("2026-11-27");
  expect(dateInZone(ms, zoneTable("America/Los_Angeles"))).toBe("2026-11-26");
  expect(pageTime("Pacific/Kiritimati", ms)).toMatchObject({ today: "2026-11-27" });
  expect(pageTime("Pacific/Pago_Pago", ms)).toMatchObject({ today: "2026-11-26" });
  // an unknown zone is read as UTC
  expect(pageTime("Mars/Olympus_Mons", ms)).toMatchObject({ today: "2026-11-26", zone: { name: "UTC" } });
});

test("the list is the runtime's own, with UTC first; other spellings of a zone become the list's", () => {
  expect(TIME_ZONES[0]).toBe("UTC");
  expect(TIME_ZONES.slice(1)).toEqual(Intl.supportedValuesOf("timeZone"));
  expect(canonicalTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
  expect(canonicalTimeZone("Etc/UTC")).toBe("UTC");
  expect(TIME_ZONES).toContain(canonicalTimeZone("Asia/Kolkata"));
  expect(TIME_ZONES).toContain(canonicalTimeZone("Europe/Kyiv"));
  expect(canonicalTimeZone("Mars/Olympus_Mons")).toBeNull();
  expect(canonicalTimeZone("")).toBeNull();
});

test("calendar dates: printed without a zone, counted and stepped in whole days", () => {
  expect(formatDay("2026-09-05")).toBe("5 Sept 2026");
  expect(daysBetween("2026-11-26", "2026-12-03")).toBe(7);
  expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  expect(addDays("2026-03-28", 2)).toBe("2026-03-30");
  expect(weekdayOf("2026-11-23")).toBe(0); // a Monday
  expect(weekdayOf("2026-11-29")).toBe(6);
});
