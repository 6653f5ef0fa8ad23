import { describe, expect, it } from "vitest";
import { SlidingWindowLimiter } from "./rate-limit.ts";

describe("SlidingWindowLimiter", () => {
  it("allows `limit` events per key per window", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(2, 60_000, () => now);
    expect([limiter.allow("a"), limiter.allow("a"), limiter.allow("a"), limiter.allow("b")]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    now = 59_999;
    expect(limiter.allow("a")).toBe(false);
    now = 60_001;
    expect(limiter.allow("a")).toBe(true);
  });
});

describe("FailureCounter", () => {
  it("counts failures per key in a sliding window and can be reset", async () => {
    const { FailureCounter } = await import("./rate-limit.ts");
    let now = 0;
    const counter = new FailureCounter(3, 1000, () => now);
    expect([
      counter.record("a"),
      counter.record("a"),
      counter.reached("a"),
      counter.record("a"),
      counter.reached("a"),
    ]).toEqual([1, 2, false, 3, true]);
    expect(counter.reached("b")).toBe(false);
    now = 1001;
    expect(counter.reached("a")).toBe(false);
    counter.record("a");
    counter.reset("a");
    expect(counter.count("a")).toBe(0);
    expect(new FailureCounter(0, 1000).reached("a")).toBe(false);
  });
});

describe("TokenBucketLimiter", () => {
  it("lets a burst through, then one request per refilled token, per key", async () => {
    const { TokenBucketLimiter } = await import("./rate-limit.ts");
    let now = 0;
    // hosted's MFA limit: 15 a minute after a burst of 30
    const limiter = new TokenBucketLimiter(15, 30, () => now);
    const burst = Array.from({ length: 31 }, () => limiter.allow("a"));
    expect(burst.filter(Boolean)).toHaveLength(30);
    expect(burst[30]).toBe(false);
    expect(limiter.allow("b")).toBe(true);
    now = 3_999;
    expect(limiter.allow("a")).toBe(false);
    now = 4_000;
    expect([limiter.allow("a"), limiter.allow("a")]).toEqual([true, false]);
    // an hour later the bucket is full again, not fuller
    now = 3_600_000;
    expect(Array.from({ length: 31 }, () => limiter.allow("a")).filter(Boolean)).toHaveLength(30);
    expect(new TokenBucketLimiter(0, 30).allow("a")).toBe(true);
  });
});
