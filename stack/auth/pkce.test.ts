import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { s256, validatePkceParams, verifierMismatch } from "./pkce.ts";

describe("PKCE", () => {
  const verifier = crypto.randomBytes(48).toString("base64url");

  it("matches s256 and plain challenges and names a mismatch as GoTrue does", () => {
    expect(verifierMismatch(s256(verifier), "s256", verifier)).toBeNull();
    expect(verifierMismatch(s256(verifier), "S256", verifier)).toBeNull();
    expect(verifierMismatch(verifier, "plain", verifier)).toBeNull();
    expect(verifierMismatch(s256(verifier), "s256", `${verifier}x`)).toBe(
      "code challenge does not match previously saved code verifier",
    );
    expect(verifierMismatch(verifier, "md5", verifier)).toBe("code challenge method not supported");
  });

  it("validates challenge parameters", () => {
    expect(() => validatePkceParams("", "")).not.toThrow();
    expect(() => validatePkceParams("s256", s256(verifier))).not.toThrow();
    expect(() => validatePkceParams("s256", "")).toThrow(/requires code_challenge_method and code_challenge/);
    expect(() => validatePkceParams("s256", "short")).toThrow(/between 43 and 128/);
    expect(() => validatePkceParams("s256", `${"a".repeat(43)}!`)).toThrow(/alphanumeric/);
  });
});
