import { describe, expect, it } from "vitest";
import {
  applyMove,
  boardSearch,
  COLUMN_MAX_LIMIT,
  columnLimit,
  groupByStatus,
  nudge,
  overWipLimit,
  parseBoardFilters,
  parseColumnLimits,
  showMoreSearch,
} from "./board";

// a project's statuses by id, in the board's order
const [BACKLOG, TODO, DOING, DONE, CANCELED] = [1, 2, 3, 4, 5].map((n) => `00000000-0000-4000-8000-00000000000${n}`);
const ORDER = [BACKLOG, TODO, DOING, DONE, CANCELED];
const card = (id: string, status_id: string, position: number) => ({ id, status_id, position });

describe("the WIP warning (§11)", () => {
  it("shows when a column holds more tasks than its limit, never without a limit", () => {
    expect(overWipLimit({ wip_limit: 2, count: 3 })).toBe(true);
    expect(overWipLimit({ wip_limit: 2, count: 2 })).toBe(false);
    expect(overWipLimit({ wip_limit: null, count: 500 })).toBe(false);
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
  it("are 200 unless the URL widens one column (by its status id), in steps of 200, capped", () => {
    const limits = parseColumnLimits(
      new URLSearchParams(
        `limit.${TODO}=400&limit.${DONE}=250&limit.${BACKLOG}=-5&limit.${CANCELED}=999999&limit.todo=600&limit.x=400`,
      ),
    );
    expect(limits).toEqual({ [TODO]: 400, [DONE]: 400, [CANCELED]: COLUMN_MAX_LIMIT });
    expect(columnLimit(limits, DOING)).toBe(200);
    expect(columnLimit(limits, TODO)).toBe(400);
  });
  it("show more keeps the filters and adds a page", () => {
    const search = showMoreSearch(new URLSearchParams("q=hero&assignee=me"), TODO, 200);
    expect(new URLSearchParams(search).get(`limit.${TODO}`)).toBe("400");
    expect(new URLSearchParams(search).get("q")).toBe("hero");
  });
  it("boardSearch keeps only the board's own parameters", () => {
    expect(boardSearch(new URLSearchParams(`q=a&archived=1&limit.${TODO}=400&x=1`))).toBe(
      `?q=a&limit.${encodeURIComponent(TODO)}=400`,
    );
    expect(boardSearch(new URLSearchParams("archived=1"))).toBe("");
    expect(boardSearch(new URLSearchParams("assignee=me&q=&label="))).toBe("?assignee=me");
  });
});

describe("grouping and moving cards", () => {
  const tasks = [card("a", TODO, 1), card("b", TODO, 0), card("c", DONE, 0), card("d", BACKLOG, 0)];
  it("groups by status in position order, a column for every status", () => {
    const columns = groupByStatus(tasks, ORDER);
    expect(columns[TODO].map((t) => t.id)).toEqual(["b", "a"]);
    expect(columns[DOING]).toEqual([]);
    expect(Object.keys(columns)).toEqual(ORDER);
  });
  it("applyMove takes the card out and puts it at its place, clamped, in any column", () => {
    const columns = groupByStatus(tasks, ORDER);
    expect(applyMove(columns, "b", DONE, 0)[DONE].map((t) => t.id)).toEqual(["b", "c"]);
    expect(applyMove(columns, "b", DONE, 99)[DONE].map((t) => t.id)).toEqual(["c", "b"]);
    expect(applyMove(columns, "b", DONE, null)[TODO].map((t) => t.id)).toEqual(["a"]);
    expect(applyMove(columns, "b", TODO, 1)[TODO].map((t) => t.id)).toEqual(["a", "b"]);
    expect(applyMove(columns, "c", BACKLOG, 0)[BACKLOG].map((t) => t.id)).toEqual(["c", "d"]);
    expect(applyMove(columns, "zzz", DONE, 0)).toBe(columns);
    expect(applyMove(columns, "b", "no-such-status", 0)).toBe(columns);
    expect(applyMove(columns, "b", DONE, 0)[DONE][0].status_id).toBe(DONE);
  });
  it("nudge moves between columns in the board's order and places, never off the board", () => {
    const counts: Record<string, number> = { [BACKLOG]: 1, [TODO]: 1, [DOING]: 0, [DONE]: 3, [CANCELED]: 0 };
    const others = (id: string) => counts[id];
    const at = (statusId: string, position: number) => ({ statusId, position });
    expect(nudge(at(TODO, 1), "ArrowRight", ORDER, others)).toEqual(at(DOING, 0));
    expect(nudge(at(TODO, 1), "ArrowLeft", ORDER, others)).toEqual(at(BACKLOG, 1));
    expect(nudge(at(BACKLOG, 0), "ArrowLeft", ORDER, others)).toEqual(at(BACKLOG, 0));
    expect(nudge(at(CANCELED, 0), "ArrowRight", ORDER, others)).toEqual(at(CANCELED, 0));
    expect(nudge(at(DONE, 2), "ArrowDown", ORDER, others)).toEqual(at(DONE, 3));
    expect(nudge(at(DONE, 3), "ArrowDown", ORDER, others)).toEqual(at(DONE, 3));
    expect(nudge(at(DONE, 0), "ArrowUp", ORDER, others)).toEqual(at(DONE, 0));
    // a reordered board moves in its own order
    expect(nudge(at(DONE, 0), "ArrowRight", [DONE, BACKLOG], others)).toEqual(at(BACKLOG, 0));
  });
});
