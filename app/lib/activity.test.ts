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
  it("says a move to another project and a duplicate (issue 39)", () => {
    const project = {
      from: { key: "WEB", name: "Website", number: 12 },
      to: { key: "OPS", name: "Operations", number: 7 },
    };
    const status = { from: { id: "s1", name: "Review" }, to: { id: "s2", name: "In progress" } };
    expect(describeEvent(updated({ project, status }), elsewhere)).toBe(
      "moved WEB-12 Write the brief from Website to Operations (WEB-12 is OPS-7 now) and moved it from Review to In progress",
    );
    expect(
      describeEvent(
        { kind: "task_created", data: { copied_from: { number: 12, project_key: "WEB", title: "Write the brief" } } },
        here,
      ),
    ).toBe("created this as a copy of WEB-12 “Write the brief”");
  });

  it("says a move, an assignment and a rename on the task's own page", () => {
    const move = { from: { id: "s1", name: "To do" }, to: { id: "s2", name: "In progress" } };
    expect(describeEvent(updated({ status: move }), here)).toBe("moved this from To do to In progress");
    expect(describeEvent(updated({ status: { from: { id: "s0", name: null }, to: move.to } }), here)).toBe(
      "moved this from a removed status to In progress",
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

  it("says several assignees added and taken off, and fields set and cleared (issue 38)", () => {
    expect(describeEvent(updated({ assignees: { from: ["u1"], to: ["u1", "u2", "gone"] } }), here)).toBe(
      "assigned this to Olivia Owner and a former member",
    );
    expect(describeEvent(updated({ assignees: { from: ["u1", "u2"], to: ["u2"] } }), elsewhere)).toBe(
      "unassigned Mia Member from WEB-12 Write the brief",
    );
    expect(describeEvent(updated({ "field:f1": { name: "Points", from: null, to: "5" } }), here)).toBe(
      "set Points to 5",
    );
    expect(describeEvent(updated({ "field:f1": { name: "Points", from: "5", to: null } }), elsewhere)).toBe(
      "cleared Points on WEB-12 Write the brief",
    );
    expect(
      describeEvent(
        updated({
          assignees: { from: [], to: ["u1"] },
          "field:f2": { name: "Customer", from: null, to: "Acme" },
        }),
        elsewhere,
      ),
    ).toBe("assigned WEB-12 Write the brief to Mia Member and set Customer to Acme");
  });

  it("joins one save's changes, naming the task once elsewhere", () => {
    const save = updated({
      assignee: { from: null, to: "u1" },
      priority: { from: "none", to: "high" },
      due_on: { from: null, to: "2026-12-24" },
      labels: {
        added: [
          { id: "l1", name: "docs" },
          { id: "l2", name: "q4" },
        ],
        removed: [],
      },
    });
    expect(describeEvent(save, elsewhere)).toBe(
      "assigned WEB-12 Write the brief to Mia Member, set the priority of it to High, set the due date of it to 24 Dec 2026 and added the labels docs and q4",
    );
    expect(describeEvent(updated({ labels: { added: [{ id: "l3", name: "bug" }], removed: [] } }), elsewhere)).toBe(
      "added the label bug to WEB-12 Write the brief",
    );
    expect(describeEvent(updated({ labels: { added: [], removed: [{ id: "l4", name: null }] } }), here)).toBe(
      "removed the label a deleted label",
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
    expect(describeEvent({ kind: "checklist_item_renamed", data: { from: "A", to: "B" } }, here)).toBe(
      "renamed the checklist item “A” to “B”",
    );
  });

  it("says sub-tasks and relations with the other task's key, number and title", () => {
    const parent = { id: "t1", number: 3, title: "Audit", project_key: "WEB" };
    expect(describeEvent(updated({ parent: { from: null, to: parent } }), here)).toBe(
      "made this a sub-task of WEB-3 “Audit”",
    );
    expect(describeEvent(updated({ parent: { from: parent, to: null } }), here)).toBe("made this a task of its own");
    expect(describeEvent({ kind: "subtask_added", data: { number: 31, title: "Fix focus" } }, here)).toBe(
      "added the sub-task “Fix focus”",
    );
    const other = { other_task_id: "t2", number: 22, title: "Backups", project_key: "OPS" };
    expect(describeEvent({ kind: "relation_added", data: { relation: "blocked_by", ...other } }, here)).toBe(
      "marked this as blocked by OPS-22 “Backups”",
    );
    expect(describeEvent({ kind: "relation_added", data: { relation: "duplicated_by", ...other } }, elsewhere)).toBe(
      "marked OPS-22 “Backups” as a duplicate of WEB-12 Write the brief",
    );
    // a private project's task, seen from a team-wide one: no title
    expect(
      describeEvent(
        { kind: "relation_added", data: { relation: "relates", other_task_id: "t3", number: 4, project_key: "HR" } },
        here,
      ),
    ).toBe("related this to HR-4");
    expect(describeEvent({ kind: "relation_removed", data: { relation: "blocks", other_task_id: "t9" } }, here)).toBe(
      "removed the blocking relation between this and a deleted task",
    );
  });
});
