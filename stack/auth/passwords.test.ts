import { describe, expect, it } from "vitest";
import { AuthError } from "./errors.ts";
import { checkPasswordStrength, comparePassword, hashPassword } from "./passwords.ts";

const policy = { passwordMinLength: 8, passwordRequiredCharacters: "letters_digits" };

function reasons(password: string): string[] | "ok" | number {
  try {
    checkPasswordStrength(password, policy);
    return "ok";
  } catch (e) {
    const err = e as AuthError;
    return err.extra.weakPasswordReasons ?? err.status;
  }
}

describe("password policy (8+ chars, a letter and a digit)", () => {
  it("names the reasons a password is weak", () => {
    expect(reasons("abc")).toEqual(["length", "characters"]);
    expect(reasons("abcdefgh")).toEqual(["characters"]);
    expect(reasons("12345678")).toEqual(["characters"]);
    expect(reasons("abc1")).toEqual(["length"]);
    expect(reasons("abcdefg1")).toBe("ok");
  });

  it("refuses more than 72 bytes with 400", () => {
    expect(reasons(`a1${"x".repeat(71)}`)).toBe(400);
  });

  it("hashes with bcrypt and compares", async () => {
    const hash = await hashPassword("abcdefg1", 4);
    expect(hash).toMatch(/^\$2[aby]\$04\$/);
    expect(await comparePassword("abcdefg1", hash)).toBe(true);
    expect(await comparePassword("abcdefg2", hash)).toBe(false);
    expect(await comparePassword("abcdefg1", null)).toBe(false);
  });
});
