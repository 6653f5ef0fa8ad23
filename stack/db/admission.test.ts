import { describe, expect, it } from "vitest";
import { Admission, CallerRefusedError, DEFAULT_ADMISSION } from "./admission.ts";

function clock() {
  let t = 1_000_000;
  return { now: () => t, pass: (ms: number) => (t += ms) };
}

const refusal = (a: Admission, key: string) => {
  try {
    a.check(key);
    return null;
  } catch (e) {
    return e as CallerRefusedError;
  }
};

describe("admission to the embedded database", () => {
  it("refuses a struck caller for the cooldown, doubling with each strike up to the longest, and forgets", () => {
    const c = clock();
    const a = new Admission(
      { ...DEFAULT_ADMISSION, cooldownMs: 30_000, maxCooldownMs: 100_000, forgetMs: 3_600_000 },
      c.now,
    );
    a.strike("sub:a");
    expect(refusal(a, "sub:a")).toMatchObject({ code: "53000", retryAfterSeconds: 30 });
    expect(refusal(a, "sub:b")).toBeNull();
    c.pass(30_001);
    expect(refusal(a, "sub:a")).toBeNull();
    a.strike("sub:a");
    expect(refusal(a, "sub:a")?.retryAfterSeconds).toBe(60);
    c.pass(60_001);
    a.strike("sub:a");
    expect(refusal(a, "sub:a")?.retryAfterSeconds).toBe(100);
    c.pass(3_600_001);
    a.strike("sub:a");
    expect(refusal(a, "sub:a")?.retryAfterSeconds).toBe(30);
  });

  it("caps a caller's requests in the queue; the others wait in its own line, and are refused at their turn once it is struck", async () => {
    const a = new Admission({ ...DEFAULT_ADMISSION, perCaller: 2, maxWaiting: 1 });
    const gates: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const request = () =>
      a.admit("sub:a", async (turn) => {
        turn();
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
        return "ok";
      });
    const first = request();
    const second = request();
    const third = request();
    // a fourth finds the line full
    await expect(request()).rejects.toBeInstanceOf(CallerRefusedError);
    await new Promise((resolve) => setImmediate(resolve));
    expect(most).toBe(2);
    a.strike("sub:a");
    gates.shift()!();
    expect(await first).toBe("ok");
    await expect(third).rejects.toBeInstanceOf(CallerRefusedError);
    gates.shift()!();
    expect(await second).toBe("ok");
  });
});
