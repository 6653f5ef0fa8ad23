import { describe, expect, it } from "vitest";
import { DEFAULT_REDIRECT, pathWithSearch, safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/teams", "/teams"],
    ["/account/email?x=1", "/account/email?x=1"],
    ["/teams/acme#board", "/teams/acme#board"],
    ["/a%20b", "/a%20b"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    "",
    "teams",
    "https://evil.example",
    "http://evil.example/teams",
    "javascript:alert(1)",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/%2F%2Fevil.example",
    "/%2fevil.example",
    "%2F%2Fevil.example",
    "/%5Cevil.example",
    "/%252F%252Fevil.example",
    "/\tevil",
    "/ /evil.example",
    "/\n/evil.example",
    "/%0A/evil.example",
    "/%E0%A4%A",
  ])("rejects %j", (input) => {
    expect(safeRedirect(input)).toBe(DEFAULT_REDIRECT);
  });

  it("uses the given fallback", () => {
    expect(safeRedirect("//evil", "/account")).toBe("/account");
  });

  it("ignores non-string form values", () => {
    expect(safeRedirect(new File([], "x") as unknown as FormDataEntryValue)).toBe(DEFAULT_REDIRECT);
  });
});

describe("pathWithSearch", () => {
  it("keeps path and query, drops origin", () => {
    expect(pathWithSearch(new Request("http://localhost/account/email?a=1&b=2"))).toBe("/account/email?a=1&b=2");
  });
});
