import type { Server } from "node:http";
import type { Hono } from "hono";
import type { StackConfig } from "./config.ts";
import type { Database } from "./db/types.ts";
import type { Keys } from "./keys.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { RequestLog } from "./request-log.ts";

/** What every service of the stack is built from. */
export interface ServiceContext {
  db: Database;
  keys: Keys;
  config: StackConfig;
  mailer: Mailer;
  /** the public base URL of the API, e.g. http://127.0.0.1:54321 */
  apiUrl: string;
  requests: RequestLog;
  log: (service: string, message: string) => void;
}

/**
 * One piece of the stack, in the one shape they all have: a name, its HTTP
 * API if it has one (the gateway, stack/http/gateway.ts, resolves requests to
 * it and applies CORS, guards, latency, the request log and the body limit),
 * and its life cycle. `startStack` builds the services in order, starts them
 * in that order once the gateway serves them, and closes them in the reverse
 * order, so shutdown follows construction. A background piece (a scheduler)
 * is a service without `http`.
 */
export interface StackService {
  /** for logs: "auth", "rest", … */
  readonly name: string;
  readonly http?: ServiceHttp;
  /** once every service is built and the gateway serves them (a WebSocket upgrade, a timer, a LISTEN) */
  start?(server: Server): void | Promise<void>;
  /** at shutdown, before the services built ahead of it */
  close?(): void | Promise<void>;
}

export interface ServiceHttp {
  /** where the API answers, e.g. "/rest/v1": requests whose canonical path is it or under it */
  readonly mount: string;
  /** the routes, relative to `mount` */
  readonly app: Hono;
  /**
   * "api": any web page may call it, with open CORS, as Supabase's gateway
   * allows; "local": this machine's own tools and pages only (the inbox and
   * /_stack: no CORS, cross-site requests refused; stack/http/same-origin.ts)
   */
  readonly access: "api" | "local";
  /** true: the service answers CORS itself, preflights included (Edge Functions, as on hosted) */
  readonly ownCors?: boolean;
  /**
   * the largest request body any of its endpoints reads: a longer body can't
   * be read past it, whoever reads it (endpoints read with readBodyLimited
   * and their own, possibly lower, limit, and answer 413 in their own words)
   */
  readonly maxBodyBytes: number;
  /** false: neither delayed by the latency setting nor written to the request log (/_stack, which reads them) */
  readonly measured?: boolean;
}
