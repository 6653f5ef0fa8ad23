import { AuthError, AuthWeakPasswordError, isAuthError, isAuthRetryableFetchError } from "@supabase/supabase-js";
import { MESSAGES } from "./messages";
import { PASSWORD_RULES } from "./schemas";

/** What a form shows for a failed auth call: a message (beside `field`, or above the form) and a status. */
export interface AuthFailure {
  status: 400 | 429 | 503 | 500;
  field: string | null;
  message: string;
  code: string;
}

const WEAK_PASSWORD_REASONS: Record<string, string> = {
  length: PASSWORD_RULES.length,
  characters: PASSWORD_RULES.characters,
  pwned: "This password appears in a known data breach; choose another.",
};

/** True when the backend could not be reached or failed on its side (→ 503). */
export function isBackendUnavailable(error: unknown): boolean {
  if (!error) return false;
  if (isAuthRetryableFetchError(error)) return true;
  if (isAuthError(error)) return error.status === 0 || (error.status ?? 0) >= 500;
  if (error instanceof TypeError) return true; // fetch failed
  const e = error as { message?: string; code?: string; status?: number };
  if (typeof e.status === "number" && e.status >= 500) return true;
  return typeof e.message === "string" && /fetch failed|ECONNREFUSED|network/i.test(e.message) && !e.code;
}

/** Seconds to wait, from the backend's message ("…after 42 seconds") or a default. */
export function retryAfterSeconds(error: { message?: string }): number {
  const match = /(\d+)\s*seconds?/.exec(error.message ?? "");
  return match ? Number(match[1]) : 60;
}

export function describeAuthError(error: unknown): AuthFailure {
  if (isBackendUnavailable(error))
    return { status: 503, field: null, message: MESSAGES.backendDown, code: "backend_unavailable" };
  if (!isAuthError(error)) return { status: 500, field: null, message: MESSAGES.unexpected, code: "unexpected" };
  const authError = error as AuthError;
  const code = authError.code ?? "";
  if (authError.status === 429 || code.startsWith("over_")) {
    return {
      status: 429,
      field: null,
      message: MESSAGES.tooManyRequests(retryAfterSeconds(authError)),
      code: code || "over_request_rate_limit",
    };
  }
  switch (code) {
    case "invalid_credentials":
      return { status: 400, field: null, message: MESSAGES.invalidCredentials, code };
    case "email_not_confirmed":
      return { status: 400, field: "email", message: MESSAGES.emailNotConfirmed, code };
    case "user_already_exists":
    case "email_exists":
      return { status: 400, field: "email", message: MESSAGES.userAlreadyExists, code };
    case "weak_password": {
      const reasons = authError instanceof AuthWeakPasswordError ? authError.reasons : [];
      const words = reasons.map((r) => WEAK_PASSWORD_REASONS[r] ?? r);
      return { status: 400, field: "password", message: words.length ? words.join(" ") : authError.message, code };
    }
    case "otp_expired":
    case "flow_state_expired":
    case "flow_state_not_found":
      return { status: 400, field: null, message: MESSAGES.linkExpired, code };
    case "same_password":
      return { status: 400, field: "password", message: "Choose a password different from your current one.", code };
    case "email_address_invalid":
      return { status: 400, field: "email", message: "Enter a valid email address, like name@example.com.", code };
    case "mfa_verification_failed":
    case "mfa_challenge_expired":
      return { status: 400, field: "code", message: MESSAGES.wrongTotpCode, code };
    case "insufficient_aal":
      return { status: 400, field: null, message: "Enter a code from your authenticator app first.", code };
    case "too_many_enrolled_mfa_factors":
      return { status: 400, field: null, message: "Remove an authenticator app before adding another.", code };
    case "mfa_factor_name_conflict":
      return {
        status: 400,
        field: "friendlyName",
        message: "You already have an authenticator app by that name.",
        code,
      };
    case "signup_disabled":
      return { status: 400, field: null, message: "Signing up is turned off for this site.", code };
    default:
      if (authError.status === 400 && /invalid login credentials/i.test(authError.message)) {
        return { status: 400, field: null, message: MESSAGES.invalidCredentials, code: "invalid_credentials" };
      }
      return {
        status: (authError.status ?? 500) >= 500 ? 500 : 400,
        field: null,
        message: authError.message || MESSAGES.unexpected,
        code: code || "unknown",
      };
  }
}
