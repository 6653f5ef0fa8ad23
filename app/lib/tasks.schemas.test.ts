import { describe, expect, it } from "vitest";
import { parseForm } from "./schemas";
import {
  CommentSchema,
  CreateProjectSchema,
  CreateTaskSchema,
  isValidDueDate,
  MoveTaskSchema,
  parseLabels,
  TaskFieldsSchema,
} from "./tasks.schemas";
import { CreateTeamSchema, deleteTeamSchema, ChangeRoleSchema } from "./teams.schemas";
import { hasRole, permissionsOf } from "./permissions";
import { slugify } from "./teams";

const member = "a1000000-0000-4000-8000-000000000003";

describe("task forms (docs/product.md §5)", () => {
  it("accepts a full task and normalises it", () => {
    const result = parseForm(TaskFieldsSchema, {
      title: "  Fix it ",
      description: "line one\r\nline two",
      priority: "high",
      assignee: member,
      dueOn: "2026-02-28",
      labels: "bug, a11y, bug, ",
    });
    expect(result).toMatchObject({
      success: true,
      data: {
        title: "Fix it",
        description: "line one\nline two",
        priority: "high",
        assignee: member,
        dueOn: "2026-02-28",
        labels: ["bug", "a11y"],
      },
    });
  });
  it("empty optional fields become null or defaults", () => {
    const result = parseForm(CreateTaskSchema, { title: "T", description: "", assignee: "", dueOn: "", labels: "" });
    expect(result).toMatchObject({
      success: true,
      // no status: the database puts the task in the project's first backlog status
      data: { assignee: null, dueOn: null, labels: [], priority: "none", status: null },
    });
  });
  it("rejects each wrong field with its own message and keeps the values", () => {
    const result = parseForm(TaskFieldsSchema, {
      title: " ",
      description: "x".repeat(10_001),
      priority: "critical",
      assignee: "bob",
      dueOn: "2026-02-30",
      labels: Array.from({ length: 11 }, (_, i) => `l${i}`).join(","),
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(Object.keys(result.errors).sort()).toEqual([
      "assignee",
      "description",
      "dueOn",
      "labels",
      "priority",
      "title",
    ]);
    expect(result.values.title).toBe(" ");
  });
  it("a description counts CRLF line breaks once", () => {
    const text = "ab\r\n".repeat(3333) + "a"; // 3333 * 3 + 1 = 10,000 characters once normalised
    expect(parseForm(TaskFieldsSchema, { title: "t", description: text }).success).toBe(true);
  });
  it("labels: at most 24 characters each", () => {
    expect(parseForm(TaskFieldsSchema, { title: "t", labels: "x".repeat(25) })).toMatchObject({
      success: false,
      errors: { labels: "Each label has at most 24 characters." },
    });
    expect(parseLabels(" a ,, b,a")).toEqual(["a", "b"]);
  });
  it("due dates are real and in range", () => {
    expect(isValidDueDate("2024-02-29")).toBe(true);
    expect(isValidDueDate("2023-02-29")).toBe(false);
    expect(isValidDueDate("1999-12-31")).toBe(false);
    expect(isValidDueDate("2100-12-31")).toBe(true);
    expect(isValidDueDate("2101-01-01")).toBe(false);
    expect(isValidDueDate("20-01-01")).toBe(false);
  });
  it("moves count places from 1 for people and from 0 for the RPC", () => {
    const id = "b1000000-0000-4000-8000-000000000001";
    // a status is one of the project's, by its id
    const status = "c1000000-0000-4000-8000-000000000004";
    expect(parseForm(MoveTaskSchema, { taskId: id, status, position: "1" })).toMatchObject({
      success: true,
      data: { status, position: 0 },
    });
    expect(parseForm(MoveTaskSchema, { taskId: id, status, position: "" })).toMatchObject({
      success: true,
      data: { position: null },
    });
    expect(parseForm(MoveTaskSchema, { taskId: id, status, position: "-1" }).success).toBe(false);
    expect(parseForm(MoveTaskSchema, { taskId: id, status: "todo" })).toMatchObject({
      success: false,
      errors: { status: "Choose a status." },
    });
  });
  it("comments are 1–5,000 characters after trimming", () => {
    expect(parseForm(CommentSchema, { body: "   " }).success).toBe(false);
    expect(parseForm(CommentSchema, { body: "x".repeat(5001) }).success).toBe(false);
    expect(parseForm(CommentSchema, { body: " <b>hi</b>\r\n" })).toMatchObject({
      success: true,
      data: { body: "<b>hi</b>" },
    });
  });
});

describe("project and team forms", () => {
  it("project keys are 2–10 letters, uppercased", () => {
    expect(parseForm(CreateProjectSchema, { key: "web", name: "Website" })).toMatchObject({
      success: true,
      data: { key: "WEB", description: "" },
    });
    expect(parseForm(CreateProjectSchema, { key: "W", name: "x" }).success).toBe(false);
    expect(parseForm(CreateProjectSchema, { key: "WEB1", name: "x" }).success).toBe(false);
    expect(parseForm(CreateProjectSchema, { key: "WEB", name: "x".repeat(81) }).success).toBe(false);
  });
  it("team slugs follow the rules; empty means 'from the name'; new is reserved", () => {
    expect(parseForm(CreateTeamSchema, { name: "Acme", slug: "" })).toMatchObject({
      success: true,
      data: { slug: undefined },
    });
    expect(parseForm(CreateTeamSchema, { name: "Acme", slug: "Acme-Co" })).toMatchObject({
      success: true,
      data: { slug: "acme-co" },
    });
    expect(parseForm(CreateTeamSchema, { name: "Acme", slug: "-acme" }).success).toBe(false);
    expect(parseForm(CreateTeamSchema, { name: "Acme", slug: "ab" }).success).toBe(false);
    expect(parseForm(CreateTeamSchema, { name: "Acme", slug: "new" })).toMatchObject({
      success: false,
      errors: { slug: "That address is reserved." },
    });
    expect(parseForm(CreateTeamSchema, { name: " ", slug: "" }).success).toBe(false);
    expect(slugify("Ünïcode & Co. — Team!")).toBe("unicode-co-team");
  });
  it("roles: owner can't be given; deleting asks for the slug", () => {
    expect(parseForm(ChangeRoleSchema, { userId: member, role: "owner" }).success).toBe(false);
    expect(parseForm(ChangeRoleSchema, { userId: member, role: "admin" }).success).toBe(true);
    expect(parseForm(deleteTeamSchema("acme"), { confirm: "acme " }).success).toBe(true);
    expect(parseForm(deleteTeamSchema("acme"), { confirm: "Acme" }).success).toBe(false);
  });
  it("permissions follow the matrix of docs/product.md §6", () => {
    expect(permissionsOf("viewer")).toMatchObject({ editTasks: false, comment: false, manageProjects: false });
    expect(permissionsOf("member")).toMatchObject({ editTasks: true, deleteTasks: false, manageMembers: false });
    expect(permissionsOf("admin")).toMatchObject({
      deleteTasks: true,
      manageMembers: true,
      renameTeam: true,
      ownTeam: false,
    });
    expect(permissionsOf("owner").ownTeam).toBe(true);
    expect(hasRole("admin", "member")).toBe(true);
    expect(hasRole("member", "admin")).toBe(false);
  });
});
