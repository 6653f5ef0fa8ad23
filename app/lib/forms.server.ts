import { data } from "@remix-run/node";
import type { AuthFailure } from "./auth-errors.server";
import { ARCHIVED_MESSAGE } from "./board";
import { FORBIDDEN_MESSAGE } from "./permissions";
import type { FieldErrors, FormValues } from "./schemas";

/**
 * A rejected form: its messages and what was typed (no passwords).
 * `intent` keeps its literal type, so a route's
 * `useActionData<typeof action>()` knows which of its forms can come back.
 */
export function formFailure<I extends string | undefined = undefined>(
  {
    intent,
    errors,
    values,
    extra,
  }: { intent?: I; errors: FieldErrors; values: FormValues; extra?: Record<string, unknown> },
  status = 400,
) {
  return data({ intent, errors, values, ...extra }, { status });
}

/** For actions: the form comes back with the typed values and the 403 message (docs/product.md §8). */
export function forbiddenResult<I extends string | undefined = undefined>({
  intent,
  values = {},
}: { intent?: I; values?: FormValues } = {}) {
  return formFailure({ intent, errors: { form: FORBIDDEN_MESSAGE }, values }, 403);
}

/** For actions on an archived project's tasks: the form comes back with its values and why (400). */
export function archivedResult<I extends string | undefined = undefined>({
  intent,
  values,
}: {
  intent?: I;
  values: FormValues;
}) {
  return formFailure({ intent, errors: { form: ARCHIVED_MESSAGE }, values });
}

/** A failed auth call as a rejected form: the message goes beside its field or above the form. */
export function authFailure<I extends string | undefined = undefined>(
  failure: AuthFailure,
  { intent, values, extra }: { intent?: I; values: FormValues; extra?: Record<string, unknown> },
) {
  if (failure.status === 500) console.error("[auth] unexpected auth error", failure.code, failure.message);
  const errors: FieldErrors = { [failure.field ?? "form"]: failure.message };
  return formFailure({ intent, errors, values, extra: { code: failure.code, ...extra } }, failure.status);
}

/** The app's origin as the browser sees it, for links the backend emails. */
export function originOf(request: Request): string {
  return new URL(request.url).origin;
}
