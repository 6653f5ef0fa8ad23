// eslint-disable-next-line no-restricted-imports -- the one place that wraps Remix's redirect
import { data, redirect as remixRedirect } from "@remix-run/node";
import { isBackendUnavailable } from "./auth-errors.server";
import { MESSAGES } from "./messages";
import { FORBIDDEN_MESSAGE } from "./permissions";
import { errorIdForThisRequest, requestScope } from "./request-scope.server";

/**
 * Remix's redirect, stamped with the cookies the request has set so far.
 * The server's door writes them into every response anyway
 * (request-scope.server); a redirect needs them at hand as well because
 * Remix reads them before the door: a single-fetch redirect that sets a
 * cookie tells the browser's router to reload every loader on arrival (after
 * signing in, the header's name), and Remix decides that from the Response
 * the route threw. Route code imports `redirect` from here (ESLint says so).
 */
export function redirect(url: string, init?: number | ResponseInit): Response {
  const response = remixRedirect(url, init);
  for (const line of requestScope().setCookies()) response.headers.append("Set-Cookie", line);
  return response;
}

/**
 * One mapping from a failed backend call to what a loader throws: 503 when
 * the backend can't be reached or fails, 500 otherwise (logged with an id
 * the person can quote).
 */
export function backendError(error: unknown): Response {
  if (isBackendUnavailable(error)) {
    console.error("[backend unavailable]", describe(error));
    return textResponse(MESSAGES.backendDown, 503);
  }
  return unexpectedError(error);
}

/**
 * For a request the production server shed (too many in flight): the 503
 * of an unreachable backend, with Retry-After, and not logged as a failure
 * (the access log marks it "shed").
 */
export function shedResponse(): Response {
  const response = textResponse(MESSAGES.backendDown, 503);
  response.headers.set("Retry-After", "1");
  return response;
}

export function unexpectedError(error: unknown): Response {
  const id = errorIdForThisRequest();
  console.error(`[error ${id}]`, error);
  return textResponse(`${MESSAGES.unexpected} (error id ${id})`, 500);
}

export function notFound(): Response {
  return textResponse(MESSAGES.notFound, 404);
}

/** For loaders: a page the role may not open at all. */
export function forbidden(): Response {
  return textResponse(FORBIDDEN_MESSAGE, 403);
}

/** A plain-text page with its status (what a loader throws for the error boundary to show). */
export function textResponse(text: string, status: number): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * A lookup behind a guard, shared by the loaders and the action of one
 * request (remembered in the request scope under `key`: the team layout and
 * the page inside it ask once between them). A failed read throws the
 * backend's error page; nothing found, a 404.
 */
export async function requireFound<T>(key: string, read: () => Promise<T | null>): Promise<T> {
  const found = await requestScope()
    .remember(key, read)
    .catch((error: unknown) => {
      throw backendError(error);
    });
  if (found === null) throw notFound();
  return found;
}

/** For actions: keep the form filled and say the backend is down. */
export function backendUnavailableResult(values: Record<string, string>) {
  return data({ errors: { form: MESSAGES.backendDown } as Record<string, string>, values }, { status: 503 });
}

function describe(error: unknown) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return JSON.stringify(error);
}
