import { describe, expect, it } from "vitest";
import { classifyDbError } from "./db-errors.server";
import { knownMessage, refusalKey } from "./db-messages";
import { parseForm } from "./schemas";
import { LabelSchema } from "./labels.schemas";
import { AddStatusSchema } from "./statuses.schemas";
import { parseLabels, parseTaskRef } from "./tasks.schemas";

describe("database refusals in the app's words (issue 29 §6, §16)", () => {
  it("maps our functions' keys and constraints' names, never passing the database's message on", () => {
    expect(
      knownMessage({ code: "23514", message: "A project needs … at most 12.", details: "project_statuses_bounds" }),
    ).toBe("A project needs at least one open and one done status, and at most 12.");
    expect(
      knownMessage({
        code: "23505",
        message: 'duplicate key value violates unique constraint "labels_name_key"',
        details: "Key (team_id, lower(btrim(name)))=(…) already exists.",
      }),
    ).toBe("That label exists already.");
    expect(refusalKey({ message: 'new row for relation "tasks" violates check constraint "tasks_title_length"' })).toBe(
      "tasks_title_length",
    );
    // a message with internal names that the app doesn't know gets a plain refusal, not the message
    const unknown = { code: "P0001", message: "A task can't move from in_progress to backlog." };
    expect(knownMessage(unknown)).toBeNull();
    expect(classifyDbError(unknown)).toEqual({ status: 400, message: "That change isn't allowed." });
    expect(classifyDbError({ code: "23505", message: 'violates unique constraint "x_key"' }).message).toBe(
      "That name is taken.",
    );
  });

  it("lets Part I's sentences through only because it lists them", () => {
    expect(knownMessage({ code: "23505", message: "That slug is taken." })).toBe("That slug is taken.");
    expect(knownMessage({ code: "P0001", message: "That slug is taken!" })).toBeNull();
  });
});

describe("the forms of statuses, labels and relations", () => {
  it("a status: a name of 1–30 characters, a palette colour, a WIP limit of 1–999 or none", () => {
    expect(
      parseForm(AddStatusSchema, { name: "  In   review ", color: "purple", category: "started", wipLimit: "" }),
    ).toMatchObject({ success: true, data: { name: "In review", wipLimit: null } });
    const wrong = parseForm(AddStatusSchema, {
      name: "x".repeat(31),
      color: "magenta",
      category: "doing",
      wipLimit: "0",
    });
    expect(wrong).toMatchObject({
      success: false,
      errors: {
        name: "A status name has at most 30 characters.",
        color: "Choose a colour.",
        category: "Choose what the status means.",
        wipLimit: "A WIP limit is a whole number from 1 to 999.",
      },
    });
  });

  it("a label: 1–24 characters and a palette colour; a task's labels once each whatever their capitals", () => {
    expect(parseForm(LabelSchema, { name: " Bug ", color: "red" })).toMatchObject({ data: { name: "Bug" } });
    expect(parseForm(LabelSchema, { name: "x".repeat(25), color: "red" }).success).toBe(false);
    expect(parseLabels("Bug, design, bug , DESIGN, ")).toEqual(["Bug", "design"]);
  });

  it("another task by its reference, in any capitals", () => {
    expect(parseTaskRef(" web-12 ")).toEqual({ key: "WEB", number: 12 });
    expect(parseTaskRef("WEB12")).toBeNull();
    expect(parseTaskRef("W-1")).toBeNull();
  });
});
