import { describe, expect, it } from "vitest";
import { concernsPage } from "./live";

describe("which changes a live page acts on", () => {
  const shown = { tasks: ["t-1", "t-2"] };

  it("acts on inserts and updates (the server filtered them under RLS)", () => {
    expect(concernsPage("tasks", { eventType: "INSERT" }, shown)).toBe(true);
    expect(concernsPage("tasks", { eventType: "UPDATE", old: { id: "elsewhere" } }, shown)).toBe(true);
  });

  it("acts on a delete only of a row it shows: deletes carry only the id and reach every reader of the table", () => {
    expect(concernsPage("tasks", { eventType: "DELETE", old: { id: "t-2" } }, shown)).toBe(true);
    expect(concernsPage("tasks", { eventType: "DELETE", old: { id: "another-team's" } }, shown)).toBe(false);
    expect(concernsPage("comments", { eventType: "DELETE", old: { id: "t-1" } }, shown)).toBe(false);
    expect(concernsPage("tasks", { eventType: "DELETE", old: {} }, shown)).toBe(false);
  });
});
