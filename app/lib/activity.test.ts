import { describe, expect, it } from "vitest";
import { describeEvent } from "./activity";

const names = new Map([
  ["u1", "Mia Member"],
  ["u2", "Olivia Owner"],
]);
const here = { names, subject: "this" };
const elsewhere = { names, subject: "WEB-12 Write the brief" };
const updated = (changes: Record<string, unknown>) => ({ kind: "task_updated", data: { changes, mentions: [] } });

describe("events in words", () => {
  it("says a move, an assignment and a rename on the task's own page", () => {
    expect(describeEvent(updated({ status: { from: "todo", to: "in_progress" } }), here)).toBe(
      "moved this from To do to In progress",
    );
    expect(describeEvent(updated({ assignee: { from: null, to: "u1" } }), here)).toBe("assigned this to Mia Member");
    expect(describeEvent(updated({ assignee: { from: "u2", to: null } }), here)).toBe(
      "unassigned Olivia Owner from this",
    );
    expect(describeEvent(updated({ assignee: { from: null, to: "gone" } }), here)).toBe(
      "assigned this to a former member",
    );
    expect(describeEvent(updated({ title: { from: "A", to: "B" } }), here)).toBe("renamed this from “A” to “B”");
  });

  it("joins one save's changes, naming the task once elsewhere", () => {
    const save = updated({
      assignee: { from: null, to: "u1" },
      priority: { from: "none", to: "high" },
      due_on: { from: null, to: "2026-12-24" },
      labels: { added: ["docs", "q4"], removed: [] },
    });
    expect(describeEvent(save, elsewhere)).toBe(
      "assigned WEB-12 Write the brief to Mia Member, set the priority of it to High, set the due date of it to 24 Dec 2026 and added the labels docs and q4",
    );
    expect(describeEvent(updated({ labels: { added: ["bug"], removed: [] } }), elsewhere)).toBe(
      "added the label bug to WEB-12 Write the brief",
    );
    expect(describeEvent(updated({ description: { from: "", to: "x" } }), here)).toBe("edited the description");
  });

  it("reads a project status by its name, and the other kinds", () => {
    const named = updated({ status: { from: { id: "s1", name: "Review" }, to: { id: "s2", name: "Shipped" } } });
    expect(describeEvent(named, here)).toBe("moved this from Review to Shipped");
    expect(describeEvent({ kind: "task_created", data: {} }, elsewhere)).toBe("created WEB-12 Write the brief");
    expect(describeEvent({ kind: "attachment_added", data: { file_name: "plan.pdf" } }, here)).toBe(
      "attached plan.pdf",
    );
    expect(describeEvent({ kind: "comment_posted", data: {} }, elsewhere)).toBe("commented on WEB-12 Write the brief");
    expect(describeEvent({ kind: "checklist_item_ticked", data: { text: "Book it" } }, here)).toBe("ticked “Book it”");
  });
});
