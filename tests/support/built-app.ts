/**
 * The BUILT app's Remix request handler (inside its request scope), in this process and pointed at a
 * local stack, and a signed-in session's cookie for it: what the page
 * benchmarks (scripts/bench-pages.ts, scripts/bench-board.ts) measure through.
 */
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { createServerClient } from "@supabase/ssr";
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import WebSocket from "ws";
import type { TestStack } from "./stack.ts";

/**
 * Builds the app first when build/server/index.js is missing. The app reads
 * its environment when its module loads, so this sets it before importing,
 * once per process.
 */
export async function loadBuiltApp(stack: TestStack) {
  const serverBuild = path.resolve("build/server/index.js");
  if (!fs.existsSync(serverBuild)) execFileSync("npx", ["remix", "vite:build"], { stdio: "ignore" });
  Object.assign(process.env, {
    NODE_ENV: "production",
    SUPABASE_URL: stack.url,
    SUPABASE_ANON_KEY: stack.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    SESSION_SECRET: crypto.randomBytes(24).toString("hex"),
  });
  const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  const handler = createRequestHandler(build, "production");
  // every request inside its request scope, as server.mjs handles it (app/lib/request-scope.server.ts)
  const { handleInRequestScope } = build.entry.module as unknown as {
    handleInRequestScope: typeof import("../../app/lib/request-scope.server").handleInRequestScope;
  };
  return (request: Request) => handleInRequestScope(request, {}, () => handler(request));
}

/**
 * Signs in with a password the way the app's server does (cookies, not
 * storage): `client` acts as that person, and `cookie()` is the Cookie
 * header the browser would send now.
 */
export async function signInWithCookies(stack: TestStack, credentials: { email: string; password: string }) {
  const jar = new Map<string, string>();
  const client = createServerClient(stack.url, stack.anonKey, {
    realtime: { transport: WebSocket as never },
    cookies: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll: (cookies) => cookies.forEach(({ name, value }) => (value ? jar.set(name, value) : jar.delete(name))),
    },
  });
  const { error } = await client.auth.signInWithPassword(credentials);
  if (error) throw error;
  return { client, cookie: () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ") };
}
