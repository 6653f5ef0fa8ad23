import { expect, test } from "vitest";
import { formatDate, formatDateTime } from "./dates";

const intlDate = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const intlDateTime = (iso: string) =>
  `${new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;

test("prints what British English medium dates and short times in UTC print, for every month and hour", () => {
  const start = Date.UTC(2024, 0, 1, 0, 7);
  // every 37 hours over two years: every month, day-of-month, hour and a spread of minutes, a leap day
  for (let t = start; t < Date.UTC(2026, 0, 1); t += 37 * 3_600_000 + 13 * 60_000) {
    const iso = new Date(t).toISOString();
    expect(formatDate(iso)).toBe(intlDate(iso));
    expect(formatDateTime(iso)).toBe(intlDateTime(iso));
  }
});

test("a time with an offset is printed in UTC, as stored timestamps come from the backend", () => {
  expect(formatDateTime("2026-11-25T17:51:26.75+00:00")).toBe("25 Nov 2026, 17:51 UTC");
  expect(formatDateTime("2026-09-05T01:05:00+02:00")).toBe("4 Sept 2026, 23:05 UTC");
  expect(formatDate("2026-01-01T00:30:00+01:00")).toBe("31 Dec 2025");
});
