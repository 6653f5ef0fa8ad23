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

describe("safeRedirect checks what the URL parser makes of the target", () => {
  it.each([
    "/.//evil.com",
    "/a/..//evil.com",
    "/%2e//evil.com",
    "/%2E%2E//evil.com",
    "/./%2F/evil.com",
    "/a/b/../..//evil.com",
    "/.//evil.example/phish",
  ])("rejects %j, which the parser collapses to a protocol-relative URL", (input) => {
    expect(safeRedirect(input)).toBe(DEFAULT_REDIRECT);
  });

  it("keeps ordinary paths with dot segments, resolved", () => {
    expect(safeRedirect("/teams/../account")).toBe("/account");
    expect(safeRedirect("/teams/./acme")).toBe("/teams/acme");
  });

  it("fuzz: every result of 20,000 random targets stays on the site and is stable", () => {
    const parts = [
      "/",
      "//",
      ".",
      "..",
      "%2e",
      "%2E",
      "%2f",
      "%2F",
      "%252e",
      "%5c",
      "\\",
      "evil.com",
      "a",
      "@",
      ":",
      "?",
      "#",
      "%09",
      "%00",
      "http:",
      " ",
      "\u3002",
      "％2f",
    ];
    let seed = 1;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const site = "https://teamboard.example";
    for (let i = 0; i < 20_000; i++) {
      // mostly paths (the interesting inputs start with a slash), sometimes anything
      let input = rand(10) ? "/" : "";
      const n = 1 + rand(6);
      for (let j = 0; j < n; j++) input += parts[rand(parts.length)];
      const out = safeRedirect(input);
      if (out === DEFAULT_REDIRECT) continue;
      // as a browser resolves a Location header against the page
      const resolved = new URL(out, site);
      expect(resolved.origin, input).toBe(site);
      expect(out.startsWith("//") || out.includes("\\"), input).toBe(false);
      expect(safeRedirect(out), input).toBe(out);
    }
  });
});
