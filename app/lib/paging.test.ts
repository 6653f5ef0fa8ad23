import { describe, expect, it } from "vitest";
import { MAX_PAGE, pageOf, pageRange, pageSearch, parsePage } from "./paging";

describe("page numbers in the URL", () => {
  it("read ?page=N from 1, anything unreadable as 1, anything huge as the last allowed page", () => {
    expect(parsePage(new URLSearchParams("page=3"))).toBe(3);
    expect(parsePage(new URLSearchParams(""))).toBe(1);
    for (const raw of ["0", "-2", "abc", "1.5", "2e3", " "])
      expect(parsePage(new URLSearchParams({ page: raw })), raw).toBe(1);
    expect(parsePage(new URLSearchParams("page=999999999"))).toBe(MAX_PAGE);
  });
  it("keep the other parameters; page 1 is the bare URL", () => {
    expect(pageSearch(new URLSearchParams("archived=1&page=3"), 4)).toBe("?archived=1&page=4");
    expect(pageSearch(new URLSearchParams("archived=1&page=3"), 1)).toBe("?archived=1");
    expect(pageSearch(new URLSearchParams("page=2"), 1)).toBe("");
  });
});

describe("a page of rows", () => {
  it("asks for one row more than a page, to know whether there is a next one", () => {
    expect(pageRange(1, 50)).toEqual({ from: 0, to: 50 });
    expect(pageRange(3, 50)).toEqual({ from: 100, to: 150 });
  });
  it("shows a page and says where it can go", () => {
    const rows = Array.from({ length: 51 }, (_, i) => i);
    expect(pageOf(rows, 1, 50)).toEqual({
      items: rows.slice(0, 50),
      paging: { page: 1, hasPrevious: false, hasNext: true },
    });
    expect(pageOf(rows.slice(0, 7), 2, 50).paging).toEqual({ page: 2, hasPrevious: true, hasNext: false });
    expect(pageOf([], 4, 50)).toEqual({ items: [], paging: { page: 4, hasPrevious: true, hasNext: false } });
  });
});
