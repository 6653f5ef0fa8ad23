/**
 * Playwright's web server for the e2e run: for each environment in
 * environments.ts, a fresh local stack in memory (from the migrated PGlite
 * template) and the BUILT app under the production server (server.mjs, what
 * `npm start` runs) pointed at it. Writes the
 * stacks' keys to ENV_FILE for the tests, and stops everything on exit.
 * Run `npm run build` first (playwright.config.ts does).
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startTestStack, type TestStack } from "../../support/stack.ts";
import { appUrl, ENV_FILE, ENVIRONMENTS, type EnvironmentName, type RunningEnvironment } from "./environments.ts";

const SERVER_BUILD = path.resolve("build/server/index.js");
if (!fs.existsSync(SERVER_BUILD)) {
  console.error("[e2e] build/server/index.js is missing: run `npm run build` first");
  process.exit(1);
}

const stacks: TestStack[] = [];
const apps: ChildProcess[] = [];

async function waitForHttp(url: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

const running: Partial<Record<EnvironmentName, RunningEnvironment>> = {};

async function startEnvironment(name: EnvironmentName) {
  const { stackPort, jwtExpiry, backend } = ENVIRONMENTS[name];
  const url = appUrl(name);
  if (backend === "none") {
    // Keys of the main stack, so the app starts; the URL is a port nobody listens on.
    const main = running.main!;
    running[name] = { ...main, appUrl: url, apiUrl: `http://127.0.0.1:${stackPort}`, inboxUrl: "", jwtExpiry };
    fs.writeFileSync(ENV_FILE, JSON.stringify(running, null, 2));
    await startApp(name, running[name]!);
    return;
  }
  const stack = await startTestStack({ port: stackPort, auth: { siteUrl: url, jwtExpiry } });
  stacks.push(stack);
  const environment: RunningEnvironment = {
    appUrl: url,
    apiUrl: stack.url,
    anonKey: stack.anonKey,
    serviceRoleKey: stack.serviceRoleKey,
    inboxUrl: stack.inboxUrl,
    jwtExpiry,
  };
  // Written before the app starts: once the last app answers, the file is complete.
  running[name] = environment;
  fs.writeFileSync(ENV_FILE, JSON.stringify(running, null, 2));

  await startApp(name, environment);
}

async function startApp(name: EnvironmentName, environment: RunningEnvironment) {
  const url = environment.appUrl;
  const app = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(ENVIRONMENTS[name].appPort),
      SUPABASE_URL: environment.apiUrl,
      SUPABASE_ANON_KEY: environment.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: environment.serviceRoleKey,
      SESSION_SECRET: crypto.randomBytes(24).toString("hex"),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  apps.push(app);
  app.once("exit", (code) => {
    if (!stopping) {
      console.error(`[e2e] the ${name} app exited (${code})`);
      void stop(1);
    }
  });
  await waitForHttp(`${url}/favicon.svg`, 60_000);
  console.log(`[e2e] ${name}: app ${url} → backend ${environment.apiUrl}`);
}

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const app of apps) app.kill("SIGTERM");
  await Promise.allSettled(stacks.map((s) => s.close()));
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

fs.mkdirSync(path.dirname(ENV_FILE), { recursive: true });
fs.rmSync(ENV_FILE, { force: true });
// One after the other: the last app answering (Playwright's readiness URL) means everything is up.
for (const name of Object.keys(ENVIRONMENTS) as EnvironmentName[]) await startEnvironment(name);
console.log("[e2e] ready");
