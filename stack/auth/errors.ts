import type { Context } from "hono";

/**
 * Errors as Supabase Auth (GoTrue) reports them. The body has two shapes:
 * with `X-Supabase-Api-Version: 2024-01-01` (or later) it is
 * `{ code, message }` and the header is echoed back; without it it is the
 * original `{ code: <status>, error_code, msg }`. `x-sb-error-code` names the
 * code either way. OAuth-style errors (`{ error, error_description }`) are a
 * third, older shape GoTrue still uses for a few refresh-token cases.
 */
/**
 * GoTrue's error code names (internal/api/apierrors/errorcode.go), the
 * `code` / `error_code` of every error body and the `x-sb-error-code` header.
 * "not_found" is the one addition: the code of the stack's answer to a path
 * no route serves ("404 page not found").
 */
export type ErrorCode =
  | "unknown"
  | "unexpected_failure"
  | "validation_failed"
  | "bad_json"
  | "email_exists"
  | "phone_exists"
  | "bad_jwt"
  | "not_admin"
  | "no_authorization"
  | "user_not_found"
  | "session_not_found"
  | "session_expired"
  | "refresh_token_not_found"
  | "refresh_token_already_used"
  | "flow_state_not_found"
  | "flow_state_expired"
  | "flow_state_already_used"
  | "oauth_client_state_not_found"
  | "oauth_client_state_expired"
  | "oauth_invalid_state"
  | "signup_disabled"
  | "user_banned"
  | "provider_email_needs_verification"
  | "invite_not_found"
  | "bad_oauth_state"
  | "bad_oauth_callback"
  | "oauth_provider_not_supported"
  | "unexpected_audience"
  | "single_identity_not_deletable"
  | "email_conflict_identity_not_deletable"
  | "identity_already_exists"
  | "email_provider_disabled"
  | "phone_provider_disabled"
  | "too_many_enrolled_mfa_factors"
  | "mfa_factor_name_conflict"
  | "mfa_factor_not_found"
  | "mfa_ip_address_mismatch"
  | "mfa_challenge_expired"
  | "mfa_verification_failed"
  | "mfa_verification_rejected"
  | "insufficient_aal"
  | "captcha_failed"
  | "saml_provider_disabled"
  | "manual_linking_disabled"
  | "sms_send_failed"
  | "email_not_confirmed"
  | "phone_not_confirmed"
  | "saml_relay_state_not_found"
  | "saml_relay_state_expired"
  | "saml_idp_not_found"
  | "saml_assertion_no_user_id"
  | "saml_assertion_no_email"
  | "user_already_exists"
  | "sso_provider_not_found"
  | "sso_provider_disabled"
  | "saml_metadata_fetch_failed"
  | "saml_idp_already_exists"
  | "sso_domain_already_exists"
  | "saml_entity_id_mismatch"
  | "conflict"
  | "provider_disabled"
  | "user_sso_managed"
  | "reauthentication_needed"
  | "same_password"
  | "reauthentication_not_valid"
  | "current_password_invalid"
  | "current_password_required"
  | "otp_expired"
  | "otp_disabled"
  | "identity_not_found"
  | "weak_password"
  | "over_request_rate_limit"
  | "over_email_send_rate_limit"
  | "over_sms_send_rate_limit"
  | "bad_code_verifier"
  | "anonymous_provider_disabled"
  | "hook_timeout"
  | "hook_timeout_after_retry"
  | "hook_payload_over_size_limit"
  | "hook_payload_invalid_content_type"
  | "request_timeout"
  | "mfa_phone_enroll_not_enabled"
  | "mfa_phone_verify_not_enabled"
  | "mfa_totp_enroll_not_enabled"
  | "mfa_totp_verify_not_enabled"
  | "mfa_webauthn_enroll_not_enabled"
  | "mfa_webauthn_verify_not_enabled"
  | "mfa_verified_factor_exists"
  | "invalid_credentials"
  | "email_address_not_authorized"
  | "email_address_invalid"
  | "web3_provider_disabled"
  | "web3_unsupported_chain"
  | "oauth_dynamic_client_registration_disabled"
  | "email_address_not_provided"
  | "feature_disabled"
  | "oauth_client_not_found"
  | "oauth_authorization_not_found"
  | "oauth_consent_not_found"
  | "request_entity_too_large"
  | "custom_provider_not_found"
  | "over_custom_provider_quota"
  | "passkey_disabled"
  | "too_many_passkeys"
  | "webauthn_credential_not_found"
  | "webauthn_challenge_not_found"
  | "webauthn_challenge_expired"
  | "webauthn_verification_failed"
  | "webauthn_credential_exists"
  | "not_found";

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: { weakPasswordReasons?: string[]; internal?: unknown } = {},
  ) {
    super(message);
  }
}

/** A database error as GoTrue reads it (pgconn.PgError's fields). */
interface PgErrorLike {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  hint?: unknown;
}

/**
 * GoTrue's internalServerError(message).WithInternalError(err) around a
 * database call that failed: 500 `unexpected_failure` with its own message
 * ("Error updating user"). A character Postgres can't store stays the
 * client's error (validation_failed, as the service's error handler says).
 */
export function databaseFailure(message: string, error: unknown): unknown {
  const code = (error as PgErrorLike)?.code;
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code) || code === "22021" || code === "22P05") return error;
  return new AuthError(500, "unexpected_failure", message, { internal: error });
}

/**
 * utilities.NewPostgresError: which database errors GoTrue passes on to the
 * client (API versions before 2024-01-01 only), with what status. A RAISE
 * without a code (P0001) and integrity violations (23…) as 500; `PT<nnn>`
 * as status nnn, the same convention PostgREST has; nothing else.
 */
export function publicPostgresError(
  error: unknown,
): { status: number; body: { code: string; message: string; hint?: string; detail?: string } } | null {
  const e = error as PgErrorLike;
  if (typeof e?.code !== "string" || e.code.length !== 5) return null;
  const code = e.code;
  let status = 0;
  if (["P0001", "23000", "23001", "23502", "23503", "23505", "23514", "23P01"].includes(code)) status = 500;
  else if (code.startsWith("PT") && /^\d{3}$/.test(code.slice(2))) status = Number(code.slice(2));
  if (!status) return null;
  const body: { code: string; message: string; hint?: string; detail?: string } = {
    code,
    message: String(e.message ?? ""),
  };
  if (typeof e.hint === "string" && e.hint) body.hint = e.hint;
  if (typeof e.detail === "string" && e.detail) body.detail = e.detail;
  return { status, body };
}

export class OAuthStyleError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

export const badRequest = (code: ErrorCode, message: string) => new AuthError(400, code, message);
export const forbidden = (code: ErrorCode, message: string) => new AuthError(403, code, message);
export const notFound = (code: ErrorCode, message: string) => new AuthError(404, code, message);
export const unprocessable = (code: ErrorCode, message: string) => new AuthError(422, code, message);
export const tooManyRequests = (code: ErrorCode, message: string) => new AuthError(429, code, message);

/** GoTrue's DuplicateEmailMsg, for every endpoint that finds the address taken. */
export const emailExists = () =>
  unprocessable("email_exists", "A user with this email address has already been registered");

export function weakPassword(message: string, reasons: string[]) {
  return new AuthError(422, "weak_password", message, { weakPasswordReasons: reasons });
}

const API_VERSION_HEADER = "x-supabase-api-version";

/** The API version a request asked for: "2024-01-01" or null (the initial one). */
export function requestedApiVersion(header: string | undefined): "2024-01-01" | null {
  if (!header) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(header.trim());
  if (!m) return null;
  const date = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(date)) return null;
  return date >= Date.UTC(2024, 0, 1) ? "2024-01-01" : null;
}

export interface ErrorBody {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The status, headers and body GoTrue would send for an error. */
export function renderError(error: unknown, apiVersionHeader: string | undefined): ErrorBody {
  const version = requestedApiVersion(apiVersionHeader);
  const headers: Record<string, string> = {};
  if (version) headers["x-supabase-api-version"] = version;
  if (error instanceof OAuthStyleError) {
    return { status: 400, headers, body: { error: error.error, error_description: error.description } };
  }
  const e =
    error instanceof AuthError
      ? error
      : new AuthError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information");
  headers["x-sb-error-code"] = e.code;
  const reasons = e.extra.weakPasswordReasons;
  if (version) {
    const body: Record<string, unknown> = { code: e.code, message: e.message };
    if (reasons) body.weak_password = { reasons };
    return { status: e.status, headers, body };
  }
  // the original API version: a database's own refusal, where GoTrue makes it public, as the database said it
  const database = e.extra.internal === undefined ? null : publicPostgresError(e.extra.internal);
  if (database) return { status: database.status, headers, body: database.body };
  const body: Record<string, unknown> = { code: e.status, error_code: e.code, msg: e.message };
  if (reasons) body.weak_password = { reasons };
  return { status: e.status, headers, body };
}

export function errorResponse(c: Context, error: unknown): Response {
  const { status, headers, body } = renderError(error, c.req.header(API_VERSION_HEADER));
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
