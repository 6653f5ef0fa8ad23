import { describe, expect, it } from "vitest";
import {
  applyMove,
  boardSearch,
  canMove,
  COLUMN_MAX_LIMIT,
  groupByStatus,
  nudge,
  parseBoardFilters,
  parseColumnLimits,
  showMoreSearch,
  STATUSES,
  type Status,
} from "./board";

const card = (id: string, status: Status, position: number) => ({ id, status, position });

describe("canMove (docs/product.md §4)", () => {
  it("allows the forward path, cancelling open tasks, reopening and reordering", () => {
    expect(canMove("backlog", "todo")).toBe(true);
    expect(canMove("todo", "in_progress")).toBe(true);
    expect(canMove("in_progress", "done")).toBe(true);
    for (const open of ["backlog", "todo", "in_progress"] as const) expect(canMove(open, "canceled")).toBe(true);
    expect(canMove("done", "todo")).toBe(true);
    expect(canMove("canceled", "todo")).toBe(true);
    for (const s of STATUSES) expect(canMove(s, s)).toBe(true);
  });
  it("refuses skipping and going back", () => {
    expect(canMove("backlog", "done")).toBe(false);
    expect(canMove("backlog", "in_progress")).toBe(false);
    expect(canMove("todo", "backlog")).toBe(false);
    expect(canMove("done", "canceled")).toBe(false);
    expect(canMove("canceled", "backlog")).toBe(false);
    expect(canMove("done", "in_progress")).toBe(false);
  });
});

describe("parseBoardFilters", () => {
  it("reads assignee, q and label, trimmed", () => {
    const id = "a1000000-0000-4000-8000-000000000003";
    expect(parseBoardFilters(new URLSearchParams({ assignee: id, q: "  hero ", label: " bug " }))).toEqual({
      assignee: id,
      q: "hero",
      label: "bug",
    });
    expect(parseBoardFilters(new URLSearchParams("assignee=me")).assignee).toBe("me");
    expect(parseBoardFilters(new URLSearchParams("assignee=none")).assignee).toBe("none");
  });
  it("ignores what it can't use instead of failing", () => {
    expect(parseBoardFilters(new URLSearchParams("assignee=robert');drop&q=&label=%20"))).toEqual({
      assignee: null,
      q: null,
      label: null,
    });
    expect(parseBoardFilters(new URLSearchParams({ q: "x".repeat(500) })).q).toHaveLength(200);
  });
});

describe("column limits", () => {
  it("are 200 unless the URL widens one column, in steps of 200, capped", () => {
    const limits = parseColumnLimits(
      new URLSearchParams("limit.todo=400&limit.done=250&limit.backlog=-5&limit.canceled=999999"),
    );
    expect(limits).toEqual({ backlog: 200, todo: 400, in_progress: 200, done: 400, canceled: COLUMN_MAX_LIMIT });
  });
  it("show more keeps the filters and adds a page", () => {
    const search = showMoreSearch(new URLSearchParams("q=hero&assignee=me"), "todo", 200);
    expect(new URLSearchParams(search).get("limit.todo")).toBe("400");
    expect(new URLSearchParams(search).get("q")).toBe("hero");
  });
  it("boardSearch keeps only the board's own parameters", () => {
    expect(boardSearch(new URLSearchParams("q=a&archived=1&limit.todo=400&x=1"))).toBe("?q=a&limit.todo=400");
    expect(boardSearch(new URLSearchParams("archived=1"))).toBe("");
    expect(boardSearch(new URLSearchParams("assignee=me&q=&label="))).toBe("?assignee=me");
  });
});

describe("grouping and moving cards", () => {
  const tasks = [card("a", "todo", 1), card("b", "todo", 0), card("c", "done", 0), card("d", "backlog", 0)];
  it("groups by status in position order", () => {
    const columns = groupByStatus(tasks);
    expect(columns.todo.map((t) => t.id)).toEqual(["b", "a"]);
    expect(columns.in_progress).toEqual([]);
  });
  it("applyMove takes the card out and puts it at its place, clamped", () => {
    const columns = groupByStatus(tasks);
    expect(applyMove(columns, "b", "done", 0).done.map((t) => t.id)).toEqual(["b", "c"]);
    expect(applyMove(columns, "b", "done", 99).done.map((t) => t.id)).toEqual(["c", "b"]);
    expect(applyMove(columns, "b", "done", null).todo.map((t) => t.id)).toEqual(["a"]);
    expect(applyMove(columns, "b", "todo", 1).todo.map((t) => t.id)).toEqual(["a", "b"]);
    expect(applyMove(columns, "zzz", "done", 0)).toBe(columns);
    expect(applyMove(columns, "b", "done", 0).done[0].status).toBe("done");
  });
  it("nudge moves between columns and places, never off the board", () => {
    const counts: Record<Status, number> = { backlog: 1, todo: 1, in_progress: 0, done: 3, canceled: 0 };
    const others = (s: Status) => counts[s];
    expect(nudge({ status: "todo", position: 1 }, "ArrowRight", others)).toEqual({
      status: "in_progress",
      position: 0,
    });
    expect(nudge({ status: "todo", position: 1 }, "ArrowLeft", others)).toEqual({ status: "backlog", position: 1 });
    expect(nudge({ status: "backlog", position: 0 }, "ArrowLeft", others)).toEqual({ status: "backlog", position: 0 });
    expect(nudge({ status: "canceled", position: 0 }, "ArrowRight", others)).toEqual({
      status: "canceled",
      position: 0,
    });
    expect(nudge({ status: "done", position: 2 }, "ArrowDown", others)).toEqual({ status: "done", position: 3 });
    expect(nudge({ status: "done", position: 3 }, "ArrowDown", others)).toEqual({ status: "done", position: 3 });
    expect(nudge({ status: "done", position: 0 }, "ArrowUp", others)).toEqual({ status: "done", position: 0 });
  });
});
