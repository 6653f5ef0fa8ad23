import type { Context } from "hono";

/**
 * Errors as Supabase Auth (GoTrue) reports them. The body has two shapes:
 * with `X-Supabase-Api-Version: 2024-01-01` (or later) it is
 * `{ code, message }` and the header is echoed back; without it it is the
 * original `{ code: <status>, error_code, msg }`. `x-sb-error-code` names the
 * code either way. OAuth-style errors (`{ error, error_description }`) are a
 * third, older shape GoTrue still uses for a few refresh-token cases.
 */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { weakPasswordReasons?: string[] } = {},
  ) {
    super(message);
  }
}

export class OAuthStyleError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const notFound = (code: string, message: string) => new AuthError(404, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const tooManyRequests = (code: string, message: string) => new AuthError(429, code, message);

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
