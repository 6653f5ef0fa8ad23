/**
 * Figures for the web app (not a test): server time of GET /account with one
 * signed-in session (p50/p95 over 200 sequential requests, after warm-up),
 * and the backend requests one /account page view (document) and one client
 * navigation (single-fetch .data) cause, counted at the stack.
 *   npm run build && npx tsx tests/e2e/support/measure-account.ts
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createServerClient } from "@supabase/ssr";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { startStack } from "../../../stack/server.ts";
import { ensurePgliteTemplate, MIGRATIONS_DIR } from "../../support/template.ts";

const APP_PORT = 4090;
const appUrl = `http://127.0.0.1:${APP_PORT}`;
const stack = await startStack({
  host: "127.0.0.1",
  port: 54390,
  dataDir: null,
  seedFile: null,
  migrationsDir: MIGRATIONS_DIR,
  template: new Blob([fs.readFileSync(await ensurePgliteTemplate())]),
  skipMigrations: true,
  quiet: true,
  auth: { siteUrl: appUrl, tokenRequestsPerMinute: 100_000, bcryptCost: 4 },
});
const app = spawn(process.execPath, ["node_modules/@remix-run/serve/dist/cli.js", "build/server/index.js"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(APP_PORT),
    SUPABASE_URL: stack.url,
    SUPABASE_ANON_KEY: stack.anonKey,
    SESSION_SECRET: "measure-secret-0123456789",
  },
  stdio: "ignore",
});
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${appUrl}/favicon.svg`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 300) throw new Error("app did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  const admin = createClient(stack.url, stack.serviceRoleKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as never },
  });
  const email = `measure-${Date.now()}@example.com`;
  await admin.auth.admin.createUser({
    email,
    password: "measure-pass-1",
    email_confirm: true,
    user_metadata: { display_name: "Measure" },
  });
  const jar = new Map<string, string>();
  const client = createServerClient(stack.url, stack.anonKey, {
    realtime: { transport: WebSocket as never },
    cookies: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll: (cs) => cs.forEach((c) => (c.value ? jar.set(c.name, c.value) : jar.delete(c.name))),
    },
  });
  await client.auth.signInWithPassword({ email, password: "measure-pass-1" });
  const cookie = [...jar].map(([n, v]) => `${n}=${v}`).join("; ");

  const get = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${appUrl}${path}`, { headers: { cookie }, redirect: "manual" });
    await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i++) await get("/account");

  const times: number[] = [];
  for (let i = 0; i < 200; i++) times.push(await get("/account"));
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);

  const count = async (path: string) => {
    const headers = { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` };
    await fetch(`${stack.url}/_stack/requests`, { method: "DELETE", headers });
    await get(path);
    const log = (await (await fetch(`${stack.url}/_stack/requests`, { headers })).json()) as Array<{
      method: string;
      path: string;
      search: string;
    }>;
    return log.map((r) => `${r.method} ${r.path}${r.search}`);
  };
  const documentRequests = await count("/account");
  const dataRequests = await count("/account.data");
  console.log(
    `GET /account (document, signed in): p50 ${pct(50)} ms, p95 ${pct(95)} ms, max ${times.at(-1)!.toFixed(1)} ms over ${times.length} requests`,
  );
  console.log(
    `backend requests per /account document view: ${documentRequests.length}  ${JSON.stringify(documentRequests)}`,
  );
  console.log(
    `backend requests per /account client navigation (.data): ${dataRequests.length}  ${JSON.stringify(dataRequests)}`,
  );
} finally {
  app.kill("SIGTERM");
  await stack.close();
}
