import { describe, expect, it } from "vitest";
import { ariaSort, changedMessage, parseGroup, parseSort, sortSearch } from "./list";
import { parseBulkEdit } from "./list.schemas";

describe("the list's URL", () => {
  it("reads ?sort= with - for descending, anything else as the default", () => {
    expect(parseSort("due")).toEqual({ key: "due", descending: false });
    expect(parseSort("-due")).toEqual({ key: "due", descending: true });
    expect(parseSort("--due")).toEqual({ key: "key", descending: false });
    expect(parseSort("drop table", { key: "updated", descending: true })).toEqual({ key: "updated", descending: true });
    expect(parseGroup("label")).toBe("label");
    expect(parseGroup("title")).toBeNull();
  });

  it("a header's link sorts by it, then flips it, back to page 1, keeping the rest", () => {
    const params = new URLSearchParams("label=bug&sort=due&page=3");
    expect(sortSearch(params, "due", parseSort("due"))).toBe("?label=bug&sort=-due");
    expect(sortSearch(params, "title", parseSort("due"))).toBe("?label=bug&sort=title");
    expect(ariaSort("due", parseSort("-due"))).toBe("descending");
    expect(ariaSort("title", parseSort("-due"))).toBeUndefined();
  });

  it("counts in words", () => {
    expect(changedMessage(1)).toBe("1 task changed.");
    expect(changedMessage(12)).toBe("12 tasks changed.");
  });
});

describe("the bulk edit form", () => {
  const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
  const form = (entries: Array<[string, string]>) => {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    return data;
  };

  it("takes the ticked rows once, or every row of the page with 'all'", () => {
    const ticked = parseBulkEdit(
      form([
        ["ids", id(1)],
        ["ids", id(1)],
        ["ids", "nope"],
        ["change", "priority"],
        ["priority", "high"],
      ]),
    );
    expect(ticked).toEqual({ ok: true, change: "priority", value: "high", ids: [id(1)], all: false });
    const all = parseBulkEdit(
      form([
        ["all", "on"],
        ["pageIds", id(1)],
        ["pageIds", id(2)],
        ["ids", id(3)],
        ["change", "delete"],
      ]),
    );
    expect(all).toEqual({ ok: true, change: "delete", value: null, ids: [id(1), id(2)], all: true });
  });

  it("says what is missing, keeping the selection", () => {
    expect(
      parseBulkEdit(
        form([
          ["change", "status"],
          ["status", "done"],
        ]),
      ),
    ).toMatchObject({ ok: false, message: "Tick at least one task." });
    expect(
      parseBulkEdit(
        form([
          ["ids", id(1)],
          ["change", "status"],
          ["status", "nope"],
        ]),
      ),
    ).toMatchObject({ ok: false, field: "status", ids: [id(1)] });
    expect(
      parseBulkEdit(
        form([
          ["ids", id(1)],
          ["change", "add_label"],
          ["label", "a, b"],
        ]),
      ),
    ).toMatchObject({ ok: false, field: "label" });
    expect(
      parseBulkEdit(
        form([
          ["ids", id(1)],
          ["change", "assignee"],
          ["assignee", ""],
        ]),
      ),
    ).toMatchObject({ ok: true, value: "" });
    expect(
      parseBulkEdit(
        form([
          ["ids", id(1)],
          ["change", "rename"],
        ]),
      ),
    ).toMatchObject({ ok: false, message: "Choose what to change." });
  });
});
