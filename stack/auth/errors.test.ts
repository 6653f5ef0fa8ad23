import { describe, expect, it } from "vitest";
import { AuthError, OAuthStyleError, renderError, requestedApiVersion, weakPassword } from "./errors.ts";

describe("renderError", () => {
  it("gives the 2024-01-01 shape and echoes the version when asked", () => {
    const r = renderError(new AuthError(400, "invalid_credentials", "Invalid login credentials"), "2024-01-01");
    expect(r).toEqual({
      status: 400,
      headers: { "x-supabase-api-version": "2024-01-01", "x-sb-error-code": "invalid_credentials" },
      body: { code: "invalid_credentials", message: "Invalid login credentials" },
    });
  });

  it("gives the original shape without a version, weak_password reasons in both", () => {
    const r = renderError(weakPassword("too short", ["length"]), undefined);
    expect(r.body).toEqual({
      code: 422,
      error_code: "weak_password",
      msg: "too short",
      weak_password: { reasons: ["length"] },
    });
    expect(renderError(weakPassword("too short", ["length"]), "2025-06-01").body).toEqual({
      code: "weak_password",
      message: "too short",
      weak_password: { reasons: ["length"] },
    });
  });

  it("hides unexpected errors behind unexpected_failure", () => {
    const r = renderError(new Error("secret stack detail"), "2024-01-01");
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toContain("secret");
  });

  it("renders OAuth-style errors as error/error_description", () => {
    expect(renderError(new OAuthStyleError("invalid_request", "refresh_token required"), undefined).body).toEqual({
      error: "invalid_request",
      error_description: "refresh_token required",
    });
  });

  it("treats dates before 2024-01-01 and garbage as the initial version", () => {
    expect(requestedApiVersion("2023-12-31")).toBeNull();
    expect(requestedApiVersion("yesterday")).toBeNull();
    expect(requestedApiVersion("2024-03-05")).toBe("2024-01-01");
  });
});
