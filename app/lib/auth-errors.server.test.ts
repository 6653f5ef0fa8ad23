import { AuthApiError, AuthRetryableFetchError, AuthWeakPasswordError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { describeAuthError, isBackendUnavailable, retryAfterSeconds } from "./auth-errors.server";
import { MESSAGES } from "./messages";

describe("describeAuthError", () => {
  it("maps the backend's codes to docs/product.md §8's words", () => {
    expect(describeAuthError(new AuthApiError("Invalid login credentials", 400, "invalid_credentials"))).toMatchObject({
      status: 400,
      field: null,
      message: MESSAGES.invalidCredentials,
    });
    expect(describeAuthError(new AuthApiError("Email not confirmed", 400, "email_not_confirmed"))).toMatchObject({
      status: 400,
      field: "email",
      message: MESSAGES.emailNotConfirmed,
    });
    expect(describeAuthError(new AuthApiError("User already registered", 422, "user_already_exists"))).toMatchObject({
      status: 400,
      field: "email",
      message: MESSAGES.userAlreadyExists,
    });
    expect(describeAuthError(new AuthApiError("Token has expired or is invalid", 403, "otp_expired"))).toMatchObject({
      message: MESSAGES.linkExpired,
    });
  });

  it("puts the weak-password reasons into words beside the password", () => {
    const failure = describeAuthError(new AuthWeakPasswordError("Password is too weak", 422, ["length", "characters"]));
    expect(failure).toMatchObject({
      status: 400,
      field: "password",
      message: "Use at least 8 characters. Include at least one letter and one digit.",
    });
  });

  it("turns rate limits into 'try again in N seconds'", () => {
    const failure = describeAuthError(
      new AuthApiError(
        "For security purposes, you can only request this after 42 seconds.",
        429,
        "over_email_send_rate_limit",
      ),
    );
    expect(failure).toMatchObject({ status: 429, message: "Too many attempts. Try again in 42 seconds." });
    expect(retryAfterSeconds({ message: "slow down" })).toBe(60);
  });

  it("treats unreachable or failing backends as 503", () => {
    expect(describeAuthError(new AuthRetryableFetchError("fetch failed", 0))).toMatchObject({
      status: 503,
      message: MESSAGES.backendDown,
    });
    expect(describeAuthError(new AuthApiError("boom", 500, "unexpected_failure")).status).toBe(503);
    expect(isBackendUnavailable(new TypeError("fetch failed"))).toBe(true);
    expect(isBackendUnavailable({ message: "TypeError: fetch failed", code: "" })).toBe(true);
    expect(isBackendUnavailable({ message: "duplicate key", code: "23505" })).toBe(false);
  });

  it("calls anything else unexpected", () => {
    expect(describeAuthError(new Error("bug")).status).toBe(500);
  });
});
