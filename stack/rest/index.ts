import { Hono } from "hono";
import type { ServiceContext } from "../context.ts";

/** PostgREST-compatible service, mounted at /rest/v1. */
export async function createRestService(_ctx: ServiceContext): Promise<{ app: Hono; close?: () => Promise<void> }> {
  const app = new Hono();
  return { app };
}
