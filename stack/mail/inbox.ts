import { Hono } from "hono";
import type { ServiceContext } from "../context.ts";

/** The local inbox: a page for people and Mailpit's JSON API for tools. */
export function createInbox(_ctx: ServiceContext): Hono {
  const app = new Hono();
  return app;
}
