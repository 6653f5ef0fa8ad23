import { describe, expect, it } from "vitest";
import { canonicalPath } from "./path.ts";

describe("the canonical path", () => {
  it("leaves ordinary paths as they are", () => {
    for (const p of ["/", "/rest/v1/tasks", "/rest/v1/tasks/", "/storage/v1/object/avatars/a%20b.png", "//inbox"]) {
      expect(canonicalPath(p)).toBe(p);
    }
  });

  it("decodes escaped unreserved characters, and only those", () => {
    expect(canonicalPath("/%69nbox/api/v1/messages")).toBe("/inbox/api/v1/messages");
    expect(canonicalPath("/%69%6E%62%6f%78")).toBe("/inbox");
    expect(canonicalPath("/%5fstack/%7e%2d%2E")).toBe("/_stack/~-.");
    expect(canonicalPath("/inbox%2fapi%2Fv1")).toBe("/inbox%2Fapi%2Fv1");
    expect(canonicalPath("/a%20b%c3%a9%25%3f%23")).toBe("/a%20b%C3%A9%25%3F%23");
    // an escape is decoded once: %2569 is "%69" as text, not "i"
    expect(canonicalPath("/%2569nbox")).toBe("/%2569nbox");
    expect(canonicalPath("/bad%zz%")).toBe("/bad%zz%");
  });

  it("removes dot segments, whether written plainly or escaped", () => {
    expect(canonicalPath("/./inbox")).toBe("/inbox");
    expect(canonicalPath("/x/../inbox")).toBe("/inbox");
    expect(canonicalPath("/x/%2E%2e/inbox")).toBe("/inbox");
    expect(canonicalPath("/%2e/inbox/api")).toBe("/inbox/api");
    expect(canonicalPath("/../../inbox")).toBe("/inbox");
    expect(canonicalPath("/rest/v1/..")).toBe("/rest/");
    expect(canonicalPath("/rest/v1/.")).toBe("/rest/v1/");
    expect(canonicalPath("/a/.hidden/..b")).toBe("/a/.hidden/..b");
  });

  it("is idempotent", () => {
    for (const p of ["/%69nbox/%2e%2e/x", "/a/%2E/b//c/..", "/%2569", "/%c3%a9/./."]) {
      expect(canonicalPath(canonicalPath(p))).toBe(canonicalPath(p));
    }
  });
});
