import { describe, expect, it } from "vitest";
import { mentionAt, mentionCandidates } from "./mentions";

describe("mentionCandidates", () => {
  it("leaves code, addresses and longer names alone", () => {
    expect(mentionCandidates("`@mia` and\n```\n@mia\n```\nmail mia@example.com, @miaX, @@mia")).toEqual(["miax"]);
  });

  it("counts only the first 50 different names", () => {
    const text = `${Array.from({ length: 50 }, (_, i) => `@someone_${i}`).join(" ")} @mia`;
    expect(mentionCandidates(text)).toHaveLength(50);
    expect(mentionCandidates(text)).not.toContain("mia");
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
