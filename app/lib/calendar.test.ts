import { expect, it } from "vitest";
import { isOverdue } from "./calendar";
import { spansByDay, withMove } from "./calendar-spans";

it("a timed due date is overdue from its time, a day's from the next day (§12, §17)", () => {
  const now = Date.parse("2026-12-09T13:00:00Z");
  const timed = { due_on: "2026-12-09", due_at: "2026-12-09T12:59:00Z", open: true };
  expect(isOverdue(timed, "2026-12-09", now)).toBe(true);
  expect(isOverdue({ ...timed, due_at: "2026-12-09T13:01:00Z" }, "2026-12-09", now)).toBe(false);
  expect(isOverdue({ ...timed, open: false }, "2026-12-09", now)).toBe(false);
  // no time: due on the day, overdue the day after
  expect(isOverdue({ due_on: "2026-12-09", due_at: null, open: true }, "2026-12-09", now)).toBe(false);
  expect(isOverdue({ due_on: "2026-12-08", open: true }, "2026-12-09", now)).toBe(true);
});

it("a task with a start date passes through the days before its due date, from the grid's first day", () => {
  const tasks = [
    { id: "a", start_on: "2026-11-28", due_on: "2026-12-02" },
    { id: "b", start_on: "2026-12-01", due_on: "2026-12-01" },
    { id: "c", due_on: "2026-12-01" },
  ];
  const spans = spansByDay(tasks, "2026-11-30");
  expect([...spans].map(([day, list]) => [day, list.map((t) => t.id)])).toEqual([
    ["2026-11-30", ["a"]],
    ["2026-12-01", ["a"]],
  ]);
  // moved, it keeps its length
  expect(withMove(tasks, "a", "2026-12-05")[0]).toEqual({ id: "a", start_on: "2026-12-01", due_on: "2026-12-05" });
});
