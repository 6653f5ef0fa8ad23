import { describe, expect, it } from "vitest";
import { matchesFilters, parseFilters } from "./filters.ts";

const types = new Map([
  ["n", "int4"],
  ["title", "text"],
  ["done", "bool"],
  ["status", "task_status"],
]);

function match(filter: string, record: Record<string, unknown>) {
  const parsed = parseFilters(filter);
  if (!parsed.ok) throw new Error(parsed.error);
  return matchesFilters(parsed.filters, record, types);
}

describe("postgres_changes filters", () => {
  it("compares numbers as numbers (9 < 10), text as text", () => {
    expect(match("n=lt.10", { n: 9 })).toBe(true);
    expect(match("n=gt.10", { n: 9 })).toBe(false);
    expect(match("n=gte.9", { n: 9 })).toBe(true);
    expect(match("n=lte.8", { n: 9 })).toBe(false);
    expect(parseFilters("title=eq.Hello, world")).toMatchObject({ ok: false }); // a top-level comma splits filters
    expect(match('title=eq."Hello, world"', { title: "Hello, world" })).toBe(true);
    expect(match("title=neq.a", { title: "b" })).toBe(true);
    expect(match("done=eq.true", { done: true })).toBe(true);
  });

  it("handles in lists, not. and several filters together", () => {
    expect(match("status=in.(todo,done)", { status: "done" })).toBe(true);
    expect(match("status=in.(todo,done)", { status: "backlog" })).toBe(false);
    expect(match("status=not.in.(todo,done)", { status: "backlog" })).toBe(true);
    expect(match("n=gt.1,status=eq.todo", { n: 2, status: "todo" })).toBe(true);
    expect(match("n=gt.1,status=eq.todo", { n: 2, status: "done" })).toBe(false);
  });

  it("never matches null, and lets a record without the column through (old records of deletes)", () => {
    expect(match("n=neq.1", { n: null })).toBe(false);
    expect(match("n=eq.1", { id: "x" })).toBe(true);
  });

  it("refuses unknown operators and malformed filters with Realtime's wording", () => {
    expect(parseFilters("n=like.x")).toEqual({ ok: false, error: 'unsupported filter operator "like"' });
    expect(parseFilters("n=in.1,2")).toMatchObject({ ok: false });
    expect(parseFilters("n=in.(1,2)")).toMatchObject({ ok: true });
    expect(parseFilters("garbage")).toMatchObject({ ok: false });
    expect(parseFilters("n=eq.1,,n=eq.2")).toEqual({
      ok: false,
      error: "filter must not contain empty segments (check for extra commas)",
    });
  });
});
