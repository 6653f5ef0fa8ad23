import { Hono } from "hono";
import type { ServiceContext } from "../context.ts";

/** Supabase Auth (GoTrue) compatible service, mounted at /auth/v1. */
export function createAuthService(ctx: ServiceContext): Hono {
  const app = new Hono();
  app.get("/health", (c) => c.json({ version: "teamboard-local", name: "GoTrue", description: "GoTrue is a user registration and authentication API" }));
  app.get("/.well-known/jwks.json", (c) => c.json(ctx.keys.jwks));
  return app;
}
