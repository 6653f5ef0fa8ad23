import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";

/**
 * The id of the request being handled, when the server gives one
 * (server.mjs: its access log line and X-Request-Id carry the same id), so
 * that an unexpected error is logged, and shown on the 500 page, under the
 * id an operator finds in the access log.
 */
const requestIds = new AsyncLocalStorage<string>();

export function runWithRequestId<T>(id: string, handle: () => T): T {
  return requestIds.run(id, handle);
}

/** This request's id, or a fresh one when the server gave none (the dev server, benchmarks). */
export function errorIdForThisRequest(): string {
  return requestIds.getStore() ?? crypto.randomUUID().slice(0, 8);
}
