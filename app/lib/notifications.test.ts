import { describe, expect, it } from "vitest";
import { dueReminderWords } from "./notifications";

describe("dueReminderWords (issue 42 §2: a reminder is said of its task)", () => {
  it("says today, tomorrow, a later day or a past one, from the viewer's today", () => {
    expect(dueReminderWords("2026-12-07", "2026-12-07")).toBe("is due today");
    expect(dueReminderWords("2026-12-08", "2026-12-07")).toBe("is due tomorrow");
    expect(dueReminderWords("2026-12-15", "2026-12-07")).toBe("is due 15 Dec 2026");
    expect(dueReminderWords("2026-12-05", "2026-12-07")).toBe("was due 5 Dec 2026");
    expect(dueReminderWords(null, "2026-12-07")).toBe("no longer has a due date");
  });
});
