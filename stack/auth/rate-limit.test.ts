import { describe, expect, it } from "vitest";
import { SlidingWindowLimiter } from "./rate-limit.ts";

describe("SlidingWindowLimiter", () => {
  it("allows `limit` events per key per window", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(2, 60_000, () => now);
    expect([limiter.allow("a"), limiter.allow("a"), limiter.allow("a"), limiter.allow("b")]).toEqual([true, true, false, true]);
    now = 59_999;
    expect(limiter.allow("a")).toBe(false);
    now = 60_001;
    expect(limiter.allow("a")).toBe(true);
  });
});
