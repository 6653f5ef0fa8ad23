import { isBackendUnavailable } from "./auth-errors.server";
import { formFailure } from "./forms.server";
import { backendError, backendUnavailableResult, notFound } from "./http.server";
import { knownMessage, REFUSED_MESSAGE, type DbError } from "./db-messages";
import { FORBIDDEN_MESSAGE } from "./permissions";
import type { FormValues } from "./schemas";

export type { DbError };

/**
 * How a failed write is told to the person. The RPCs and triggers raise with
 * SQLSTATEs (supabase/migrations/…_rpc.sql): 22023, P0001, 23514 (a rule) and
 * 23503 (a row that went meanwhile) are the person's mistake (400), 23505 a
 * taken name, 42501 a role too low (403), PT404/P0002 something they may not
 * know exists (404). The words are the app's (db-messages.ts), never the
 * database's message as it is.
 */
export function classifyDbError(error: DbError): { status: 400 | 403 | 404 | 500 | 503; message: string } {
  if (isBackendUnavailable(error)) return { status: 503, message: "" };
  switch (error.code) {
    case "22023":
    case "P0001":
    case "23514":
    case "23503":
    case "22P02":
    case "22007":
    case "22008":
      return { status: 400, message: knownMessage(error) ?? REFUSED_MESSAGE };
    case "23505":
      return { status: 400, message: knownMessage(error) ?? "That name is taken." };
    case "42501":
      return { status: 403, message: FORBIDDEN_MESSAGE };
    case "PT404":
    case "P0002":
    case "PGRST116":
      return { status: 404, message: "" };
    default:
      return { status: 500, message: "" };
  }
}

/**
 * A failed write inside an action: 404 and 500 are thrown (error boundary),
 * the rest come back as the form with its values and a message beside
 * `field` (or above the form).
 */
export function writeFailure<I extends string | undefined = undefined>(
  error: DbError,
  {
    intent,
    values,
    field = "form",
    messages = {},
  }: { intent?: I; values: FormValues; field?: string; messages?: Partial<Record<string, string>> },
) {
  const { status, message } = classifyDbError(error);
  if (status === 503) return backendUnavailableResult(values);
  if (status === 404) throw notFound();
  if (status === 500) throw backendError(error);
  const text = (error.code && messages[error.code]) || message;
  return formFailure({ intent, errors: { [status === 403 ? "form" : field]: text }, values }, status);
}
