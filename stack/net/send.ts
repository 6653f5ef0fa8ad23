import { fetch } from "undici";
import { type AllowList, ResolvedElsewhere } from "./allow-list.ts";

/** A row taken from net.http_request_queue. */
export interface QueuedRequest {
  id: number;
  method: string;
  url: string;
  headers: Record<string, string> | null;
  /** the body's bytes, base64 (null: none) */
  body: string | null;
  timeout_milliseconds: number;
}

/** What lands in net._http_response, as pg_net fills it. */
export interface NetResponse {
  status_code: number | null;
  content_type: string | null;
  headers: Record<string, string> | null;
  content: string | null;
  timed_out: boolean;
  error_msg: string | null;
  /** set when the allow-list refused the request (or a redirect) */
  refused: boolean;
}

const MAX_REDIRECTS = 20;
const USER_AGENT = "pg_net (teamboard local stack)";

const failure = (error_msg: string, extra: Partial<NetResponse> = {}): NetResponse => ({
  status_code: null,
  content_type: null,
  headers: null,
  content: null,
  timed_out: false,
  error_msg,
  refused: false,
  ...extra,
});

/** curl's words for what went wrong (pg_net stores curl_easy_strerror's text). */
function curlMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  switch (cause?.code) {
    case "ECONNREFUSED":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "Couldn't connect to server";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "Couldn't resolve host name";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "Failure when receiving data from the peer";
    default:
      return cause?.message ?? (error as Error).message;
  }
}

/**
 * Sends one request as pg_net's worker does with curl: its method, headers
 * and body, redirects followed, the whole exchange within
 * timeout_milliseconds; every hop must pass the allow-list.
 */
export async function sendRequest(request: QueuedRequest, allow: AllowList): Promise<NetResponse> {
  const started = performance.now();
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failure("URL using bad/illegal format or missing URL");
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeout_milliseconds);
  let method = request.method.toUpperCase();
  // pg_net hands curl the body as a C string: its text
  let body: string | undefined =
    request.body === null ? undefined : Buffer.from(request.body, "base64").toString("utf8");
  try {
    for (let hop = 0; ; hop++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") return failure("Unsupported protocol");
      const refusal = allow(url);
      if (refusal) return failure(`Refused by the local stack: ${refusal}`, { refused: true });
      const response = await fetch(url, {
        method,
        headers: { "user-agent": USER_AGENT, ...request.headers },
        body,
        redirect: "manual",
        signal: controller.signal,
        // connects to the address its lookup checked (allow-list.ts)
        dispatcher: allow.dispatcher,
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) return failure(`Number of redirects hit maximum amount`);
        url = new URL(location, url);
        // as curl (and browsers): 303, and 301/302 after a POST, continue as GET without the body
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
        }
        continue;
      }
      const content = await response.text();
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      return {
        status_code: response.status,
        content_type: response.headers.get("content-type"),
        headers,
        content: content === "" ? null : content,
        timed_out: false,
        error_msg: null,
        refused: false,
      };
    }
  } catch (error) {
    if (controller.signal.aborted) {
      const total = performance.now() - started;
      return failure(`Timeout of ${request.timeout_milliseconds} ms reached. Total time: ${total.toFixed(6)} ms`, {
        timed_out: true,
      });
    }
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof ResolvedElsewhere)
      return failure(`Refused by the local stack: ${cause.message}`, { refused: true });
    return failure(curlMessage(error));
  } finally {
    clearTimeout(timer);
  }
}
