// eslint-disable-next-line no-restricted-imports -- the one place that wraps Remix's redirect
import { data, redirect as remixRedirect, type ActionFunctionArgs } from "@remix-run/node";
import { isBackendUnavailable } from "./auth-errors.server";
import { MESSAGES } from "./messages";
import { isUnreadableForm } from "./form-bodies.server";
import { FORBIDDEN_MESSAGE } from "./permissions";
import { currentScope, errorIdForThisRequest, requestScope } from "./request-scope.server";
import { SECRET_FIELDS, submittedValues, type FormValues } from "./schemas";

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
    return backendDownResponse();
  }
  if (isUnreadableValue(error)) {
    console.warn("[bad input]", describe(error));
    return textResponse(MESSAGES.unreadableAddress, 400);
  }
  return unexpectedError(error);
}

/**
 * The backend refused a value the request carried, as PostgREST answers
 * malformed input with 400 (issue 35 L3): a NUL character in a filter
 * (PGRST100), or a data exception, SQLSTATE class 22 (text where a uuid or a
 * date goes, a NUL in text, a value out of range). The person's address was
 * wrong, not the app: 400 with words, never a 500.
 */
function isUnreadableValue(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && (code === "PGRST100" || /^22[0-9A-Z]{3}$/.test(code));
}

/**
 * The 503 a loader throws. A page that only reads says so (nothing was
 * changed, nothing lost). After a form's action found the backend down (a
 * post without JavaScript, whose page's loaders then fail too), it carries
 * that form's fields, so the error page shows the form again with every
 * value, ready to send again (components/error-page).
 */
function backendDownResponse(): Response {
  const kept = currentScope()?.keptForm;
  if (kept) return Response.json({ message: MESSAGES.backendDown, ...kept } satisfies KeptForm, { status: 503 });
  return textResponse(MESSAGES.backendDownRead, 503);
}

/** The body of a 503 that keeps a form (what error-page.tsx shows). */
export interface KeptForm {
  message: string;
  /** the text fields as sent (no passwords) */
  fields: Record<string, string>;
  /** the names of its file fields (a browser can't be handed a file back: they are chosen again) */
  files: string[];
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

/** For actions: keep the form filled and say the backend is down (beside the form whose `intent` it was). */
export function backendUnavailableResult(values: FormValues, intent?: string) {
  return data({ intent, errors: { form: MESSAGES.backendDown } as Record<string, string>, values }, { status: 503 });
}

/**
 * Every action that takes a form goes through this: when the backend can't
 * be reached — a guard's read threw the 503 page, or the action answered
 * 503 itself — the form comes back with §8's message and what was typed
 * (never a full-page error), and the request keeps the fields for its
 * loaders' 503 page (a post without JavaScript renders the page again, and
 * its reads fail as well).
 */
export function keepingTheForm<A extends (args: ActionFunctionArgs) => Promise<unknown>>(action: A) {
  return async (
    args: ActionFunctionArgs,
  ): Promise<Awaited<ReturnType<A>> | ReturnType<typeof backendUnavailableResult>> => {
    // the action reads the body; the copy is read only when the backend was down
    const copy = args.request.clone();
    try {
      const answer = (await action(args)) as Awaited<ReturnType<A>>;
      if (statusOf(answer) === 503) requestScope().keptForm = await sentForm(copy);
      return answer;
    } catch (thrown) {
      // a form of the right type whose bytes are garbled (formData() throws): the person's to send again, not a 500
      if (thrown instanceof TypeError && (await isUnreadableForm(copy.clone())))
        return data(
          { intent: undefined, errors: { form: MESSAGES.notAForm } as Record<string, string>, values: {} },
          { status: 400 },
        );
      if (!(thrown instanceof Response) || thrown.status !== 503) throw thrown;
      const kept = await sentForm(copy);
      requestScope().keptForm = kept;
      return backendUnavailableResult(submittedValues(kept.fields), kept.fields.intent);
    }
  };
}

/** A form as sent: its text fields (no passwords) and the names of its file fields. */
async function sentForm(request: Request): Promise<{ fields: Record<string, string>; files: string[] }> {
  const fields: Record<string, string> = {};
  const files = new Set<string>();
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(type)) return { fields, files: [] };
  const form = await request.formData().catch(() => null);
  for (const [name, value] of form?.entries() ?? []) {
    if (typeof value !== "string") files.add(name);
    else if (!SECRET_FIELDS.has(name) && !(name in fields)) fields[name] = value;
  }
  return { fields, files: [...files] };
}

function statusOf(answer: unknown): number | undefined {
  if (answer instanceof Response) return answer.status;
  const init = (answer as { init?: ResponseInit | null } | null)?.init;
  return typeof answer === "object" && answer !== null && "type" in answer && answer.type === "DataWithResponseInit"
    ? init?.status
    : undefined;
}

function describe(error: unknown) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return JSON.stringify(error);
}
