import { describe, expect, it } from "vitest";
import {
  LoginSchema,
  OtpSchema,
  PASSWORD_RULES,
  ProfileSchema,
  ResetPasswordSchema,
  SignupSchema,
  parseForm,
  submittedValues,
} from "./schemas";

function form(values: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) fd.append(k, v);
  return fd;
}

describe("SignupSchema", () => {
  it("accepts a valid signup and normalises the email", () => {
    const result = parseForm(
      SignupSchema,
      form({ email: "  Ada@Example.COM ", password: "abcdefg1", displayName: " Ada " }),
    );
    expect(result).toMatchObject({ success: true, data: { email: "ada@example.com", displayName: "Ada" } });
  });

  it("reports one message per wrong field and keeps values except the password", () => {
    const result = parseForm(SignupSchema, form({ email: "not-an-email", password: "short", displayName: "   " }));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toEqual({
      email: "Enter a valid email address, like name@example.com.",
      password: PASSWORD_RULES.length,
      displayName: "Enter your name.",
    });
    expect(result.values).toEqual({ email: "not-an-email", displayName: "   " });
  });

  it.each([
    ["abcdefgh", PASSWORD_RULES.characters],
    ["12345678", PASSWORD_RULES.characters],
    ["a1".repeat(37), PASSWORD_RULES.tooLong],
  ])("rejects the password %s", (password, message) => {
    const result = parseForm(SignupSchema, form({ email: "a@b.co", password, displayName: "A" }));
    expect(result.success ? null : result.errors.password).toBe(message);
  });

  it("limits names to 60 characters and emails to 254", () => {
    const result = parseForm(
      SignupSchema,
      form({ email: `${"a".repeat(250)}@b.co`, password: "abcdefg1", displayName: "x".repeat(61) }),
    );
    expect(result.success ? null : Object.keys(result.errors).sort()).toEqual(["displayName", "email"]);
  });
});

describe("LoginSchema", () => {
  it("does not apply new-password rules to an existing password", () => {
    expect(parseForm(LoginSchema, form({ email: "a@b.co", password: "x" })).success).toBe(true);
  });
  it("asks for a missing password", () => {
    const result = parseForm(LoginSchema, form({ email: "a@b.co", password: "" }));
    expect(result.success ? null : result.errors).toEqual({ password: "Enter your password." });
  });
});

describe("OtpSchema", () => {
  it("wants six digits", () => {
    expect(parseForm(OtpSchema, form({ email: "a@b.co", token: " 123456 " })).success).toBe(true);
    const bad = parseForm(OtpSchema, form({ email: "a@b.co", token: "12345a" }));
    expect(bad.success ? null : bad.errors.token).toBe("Enter the 6-digit code from the email.");
    expect(bad.values.token).toBeUndefined();
  });
});

describe("ResetPasswordSchema", () => {
  it("checks that both passwords match", () => {
    const result = parseForm(ResetPasswordSchema, form({ password: "abcdefg1", confirm: "abcdefg2" }));
    expect(result.success ? null : result.errors).toEqual({ confirm: "The two passwords don't match." });
  });
});

describe("ProfileSchema", () => {
  it("lowercases usernames and allows a blank one", () => {
    expect(parseForm(ProfileSchema, form({ displayName: "Ada", username: "Ada_L" }))).toMatchObject({
      success: true,
      data: { username: "ada_l" },
    });
    expect(parseForm(ProfileSchema, form({ displayName: "Ada", username: "" }))).toMatchObject({
      success: true,
      data: { username: undefined },
    });
  });
  it.each(["ab", "a".repeat(31), "ada-l", "adà"])("rejects the username %s", (username) => {
    expect(parseForm(ProfileSchema, form({ displayName: "Ada", username })).success).toBe(false);
  });
});

describe("submittedValues", () => {
  it("drops secrets, intents and files", () => {
    const fd = form({ email: "a@b.co", password: "p", confirm: "p", intent: "login", _action: "x" });
    fd.append("avatar", new File(["x"], "a.png"));
    expect(submittedValues(fd)).toEqual({ email: "a@b.co" });
  });
});
