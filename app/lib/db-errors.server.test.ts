import { describe, expect, it } from "vitest";
import { classifyDbError, inWords } from "./db-errors.server";

describe("database messages reach a person in the app's words", () => {
  it("names statuses as the board does, never by their identifiers", () => {
    // move_task's own message (supabase/migrations/…_rpc.sql)
    expect(classifyDbError({ code: "P0001", message: "A task can't move from in_progress to backlog." })).toEqual({
      status: 400,
      message: "A task can't move from In progress to Backlog.",
    });
    expect(inWords('Unknown status "x". Use backlog, todo, in_progress, done or canceled.')).toBe(
      'Unknown status "x". Use Backlog, To do, In progress, Done or Canceled.',
    );
    // a word inside another is left alone
    expect(inWords("Nothing is undone.")).toBe("Nothing is undone.");
  });
});
