import { describe, expect, it } from "vitest";
import { base32Encode, totpCode, totpStep, UsedSteps } from "./totp.ts";

// RFC 6238 appendix B's SHA-1 key; its 8-digit codes end in these 6 digits
const SECRET = base32Encode(Buffer.from("12345678901234567890"));

describe("totpStep", () => {
  it("names the step of a code from now or one step either side, as RFC 6238's vectors say", () => {
    expect(totpCode(SECRET, 59_000)).toBe("287082");
    expect(totpCode(SECRET, 1_111_111_109_000)).toBe("081804");
    const at = 1_111_111_109_000;
    const step = Math.floor(at / 30_000);
    expect(totpStep(SECRET, "081804", at)).toBe(step);
    expect(totpStep(SECRET, totpCode(SECRET, at - 30_000), at)).toBe(step - 1);
    expect(totpStep(SECRET, totpCode(SECRET, at + 30_000), at)).toBe(step + 1);
    expect(totpStep(SECRET, totpCode(SECRET, at + 60_000), at)).toBeNull();
    expect(totpStep(SECRET, "08180", at)).toBeNull();
  });
});

describe("UsedSteps", () => {
  it("takes each factor's step once, and no older one after a newer", () => {
    const used = new UsedSteps();
    expect(used.claim("f", 100)).toBe(true);
    expect(used.claim("f", 100)).toBe(false);
    expect(used.claim("f", 99)).toBe(false);
    expect(used.claim("g", 100)).toBe(true);
    expect(used.claim("f", 101)).toBe(true);
  });
});
