import { data } from "@remix-run/node";
import { isBackendUnavailable } from "./auth-errors.server";
import { MESSAGES } from "./messages";
import { FORBIDDEN_MESSAGE } from "./permissions";
import { errorIdForThisRequest } from "./request-id.server";

/**
 * One mapping from a failed backend call to what a loader throws: 503 when
 * the backend can't be reached or fails, 500 otherwise (logged with an id
 * the person can quote). `headers` always travel, so a refreshed session is
 * not lost on an error page.
 */
export function backendError(error: unknown, headers?: Headers): Response {
  if (isBackendUnavailable(error)) {
    console.error("[backend unavailable]", describe(error));
    return new Response(MESSAGES.backendDown, { status: 503, headers: withText(headers) });
  }
  return unexpectedError(error, headers);
}

/**
 * For a request the production server shed (too many in flight): the 503
 * of an unreachable backend, with Retry-After, and not logged as a failure
 * (the access log marks it "shed").
 */
export function shedResponse(headers?: Headers): Response {
  const h = withText(headers);
  h.set("Retry-After", "1");
  return new Response(MESSAGES.backendDown, { status: 503, headers: h });
}

export function unexpectedError(error: unknown, headers?: Headers): Response {
  const id = errorIdForThisRequest();
  console.error(`[error ${id}]`, error);
  return new Response(`${MESSAGES.unexpected} (error id ${id})`, { status: 500, headers: withText(headers) });
}

export function notFound(headers?: Headers): Response {
  return new Response(MESSAGES.notFound, { status: 404, headers: withText(headers) });
}

/** For loaders: a page the role may not open at all. */
export function forbidden(headers?: Headers): Response {
  return new Response(FORBIDDEN_MESSAGE, { status: 403, headers: withText(headers) });
}

/** For actions: keep the form filled and say the backend is down. */
export function backendUnavailableResult(values: Record<string, string>, headers: Headers) {
  return data({ errors: { form: MESSAGES.backendDown } as Record<string, string>, values }, { status: 503, headers });
}

function withText(headers?: Headers) {
  const h = new Headers(headers);
  h.set("Content-Type", "text/plain; charset=utf-8");
  return h;
}

function describe(error: unknown) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return JSON.stringify(error);
}
