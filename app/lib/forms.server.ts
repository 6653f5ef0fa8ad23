import { data } from "@remix-run/node";
import type { AuthFailure } from "./auth-errors.server";
import type { FieldErrors, FormValues } from "./schemas";

/** A rejected form: its messages, what was typed (no passwords) and the request's headers. */
export function formFailure(
  { intent, errors, values, extra }: { intent?: string; errors: FieldErrors; values: FormValues; extra?: Record<string, unknown> },
  headers: Headers,
  status = 400,
) {
  return data({ intent, errors, values, ...extra }, { status, headers });
}

/** A failed auth call as a rejected form: the message goes beside its field or above the form. */
export function authFailure(failure: AuthFailure, { intent, values, extra }: { intent?: string; values: FormValues; extra?: Record<string, unknown> }, headers: Headers) {
  if (failure.status === 500) console.error("[auth] unexpected auth error", failure.code, failure.message);
  const errors: FieldErrors = { [failure.field ?? "form"]: failure.message };
  return formFailure({ intent, errors, values, extra: { code: failure.code, ...extra } }, headers, failure.status);
}

/** The app's origin as the browser sees it, for links the backend emails. */
export function originOf(request: Request): string {
  return new URL(request.url).origin;
}
