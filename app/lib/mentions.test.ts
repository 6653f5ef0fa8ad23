import { describe, expect, it } from "vitest";
import { mentionAt, mentionCandidates, mentionSegments } from "./mentions";

const mia = { id: "1", username: "mia", name: "Mia Member" };
const olive = { id: "2", username: "olive_o", name: "Olive Owner" };

describe("mentionSegments", () => {
  it("shows a member's mention as the person, anything else as the text it was", () => {
    expect(mentionSegments("Thanks @mia and @OLIVE_O, not @nobody.", [mia, olive])).toEqual([
      { text: "Thanks " },
      { text: "@mia", person: mia },
      { text: " and " },
      { text: "@OLIVE_O", person: olive },
      { text: ", not @nobody." },
    ]);
  });

  it("leaves code, addresses and longer names alone", () => {
    const text = "`@mia` and\n```\n@mia\n```\nmail mia@example.com, @miaX, @@mia";
    expect(mentionSegments(text, [mia])).toEqual([{ text }]);
  });

  it("counts only the first 50 different names", () => {
    const text = `${Array.from({ length: 50 }, (_, i) => `@someone_${i}`).join(" ")} @mia`;
    expect(mentionSegments(text, [mia]).some((s) => "person" in s)).toBe(false);
    expect(mentionCandidates(text)).toHaveLength(50);
    const repeated = `${Array.from({ length: 200 }, () => "@mia").join(" ")}`;
    expect(mentionSegments(repeated, [mia]).filter((s) => "person" in s)).toHaveLength(200);
  });
});

describe("mentionAt", () => {
  it("finds the mention being typed at the caret", () => {
    expect(mentionAt("Hi @mi", 6)).toEqual({ start: 3, query: "mi" });
    expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionAt("mail a@b", 8)).toBeNull();
    expect(mentionAt("Hi @mia there", 13)).toBeNull();
  });
});
