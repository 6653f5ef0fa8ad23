import { describe, expect, it } from "vitest";
import { TIMELINE_CURSOR_PARAM, timelineSearch, encodeTimelineCursor, parseTimelineCursor } from "./comments";

const id = "a1000000-0000-4000-8000-00000000000f";

describe("timeline cursors", () => {
  it("round-trip an item's created_at and id through the URL", () => {
    const oldest = { created_at: "2026-11-22T08:00:00.123456+00:00", id };
    const search = timelineSearch(new URLSearchParams("assignee=me"), oldest);
    const params = new URLSearchParams(search);
    expect(params.get("assignee")).toBe("me");
    expect(params.get(TIMELINE_CURSOR_PARAM)).toBe(encodeTimelineCursor(oldest));
    expect(parseTimelineCursor(params)).toEqual({ createdAt: oldest.created_at, id });
  });
  it("read Z and space-separated timestamps, and upper-case ids", () => {
    const params = new URLSearchParams({ [TIMELINE_CURSOR_PARAM]: `2026-11-22 08:00:00Z_${id.toUpperCase()}` });
    expect(parseTimelineCursor(params)).toEqual({ createdAt: "2026-11-22 08:00:00Z", id });
  });
  it("treat anything malformed as the latest page", () => {
    for (const raw of [
      "",
      "nonsense",
      `2026-11-22T08:00:00Z_not-a-uuid`,
      `yesterday_${id}`,
      `2026-13-45T99:99:99Z_${id}`,
      `2026-11-22T08:00:00Z),id.gt.0_${id}`,
    ]) {
      expect(parseTimelineCursor(new URLSearchParams({ [TIMELINE_CURSOR_PARAM]: raw })), raw).toBeNull();
    }
    expect(parseTimelineCursor(new URLSearchParams())).toBeNull();
  });
  it("going back to the latest page drops only the cursor", () => {
    const params = new URLSearchParams({ q: "hero", [TIMELINE_CURSOR_PARAM]: `2026-11-22T08:00:00Z_${id}` });
    expect(timelineSearch(params, null)).toBe("?q=hero");
    expect(timelineSearch(new URLSearchParams({ [TIMELINE_CURSOR_PARAM]: "x" }), null)).toBe("");
  });
});
