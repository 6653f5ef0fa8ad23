import { PassThrough } from "node:stream";
import crypto from "node:crypto";
import type {
  ActionFunctionArgs,
  EntryContext,
  HandleDocumentRequestFunction,
  LoaderFunctionArgs,
} from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { env } from "~/lib/env.server";
import { ErrorIdContext } from "~/lib/error-id";
import { NonceContext } from "~/lib/nonce";
import { shedPage, unsentFormPage } from "~/lib/admission.server";
import { loggedPath } from "~/lib/log-redaction";
import { MESSAGES } from "~/lib/messages";
import { currentScope, errorIdForThisRequest } from "~/lib/request-scope.server";
import { isRemixCsrfRefusal } from "~/lib/same-origin.server";
import { applySecurityHeaders, BASELINE_HEADERS, STATIC_FILE_HEADERS } from "~/lib/security-headers.server";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;
const dev = env.NODE_ENV === "development";

const handleRequest: HandleDocumentRequestFunction = async (
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) => {
  // a signed-in form post the server shed: its page can't be drawn without the backend, so the
  // answer holds what was typed in a form that sends it again (admission.server.ts)
  if (currentScope()?.shed && request.method === "POST" && responseStatusCode === 503) {
    const page = await unsentFormPage(request, MESSAGES.backendDown);
    if (page !== null) {
      const headers = new Headers(STATIC_FILE_HEADERS);
      headers.set("Content-Type", "text/html; charset=utf-8");
      headers.set("Cache-Control", "no-store");
      headers.set("Retry-After", "1");
      return new Response(page, { status: 503, headers });
    }
  }
  return renderDocument(request, responseStatusCode, responseHeaders, remixContext);
};
export default handleRequest;

function renderDocument(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
): Promise<Response> {
  const errorId = currentScope()?.errorId ?? null;
  const nonce = crypto.randomBytes(16).toString("base64");
  applySecurityHeaders(responseHeaders, { nonce, backendUrl: env.SUPABASE_URL, dev });
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ErrorIdContext.Provider value={errorId}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </ErrorIdContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged here; before it, Remix's handleError logs them.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1_000);
  });
}

/** Data responses (single fetch `.data` requests) get the same headers as documents. */
export function handleDataRequest(response: Response, _args: LoaderFunctionArgs | ActionFunctionArgs) {
  applySecurityHeaders(response.headers, {
    nonce: crypto.randomBytes(16).toString("base64"),
    backendUrl: env.SUPABASE_URL,
    dev,
  });
  return response;
}

/** For the production server (server.mjs reads them from the build): headers of static files and of every other response. */
export const serverHeaders = { static: STATIC_FILE_HEADERS, baseline: BASELINE_HEADERS };
/**
 * For the servers (server.mjs; vite.config.ts's dev server; the page benchmarks): every request is
 * handled inside its request scope, whose cookies go out with whatever the app answers (request-scope.server).
 */
export { handleInRequestScope, serveInRequestScope } from "~/lib/request-scope.server";
/** For the production server: how many requests run at once, and shedding the rest (see admission.server). */
export { createAdmission } from "~/lib/admission.server";
/** For the production server: the page a shed page view gets, without the app. */
export const shedPageHtml = shedPage(MESSAGES.backendDown);
/** For the production server: each route's body limit and the 413 page (body-limits.server), and addresses as logs write them. */
export { bodyLimitFor, tooLargePage } from "~/lib/body-limits.server";
export { loggedPath } from "~/lib/log-redaction";

/**
 * Unexpected errors: logged with an id; a server-rendered error page shows
 * the same id (the page itself never gets the details). The id is the
 * request's id when the server gives one (server.mjs: its access log line
 * and X-Request-Id carry it too). Aborted requests are not errors.
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  // a refused cross-site post is not the app failing
  if (isRemixCsrfRefusal(error)) {
    console.warn(
      `[csrf] refused ${request.method} ${loggedPath(new URL(request.url).pathname)} from ${request.headers.get("Origin")}`,
    );
    return;
  }
  const id = errorIdForThisRequest();
  const scope = currentScope();
  if (scope) scope.errorId = id;
  console.error(`[error ${id}] ${request.method} ${loggedPath(new URL(request.url).pathname)}`, error);
}
