// npm run dev: the local stack and the app's Vite dev server, together.
//
// The local stack makes its keys on first start (per data folder), so they
// can't be written into .env ahead of time: this script starts the stack (or
// finds this checkout's already running), reads its keys, and hands
// SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY to the app,
// unless .env sets them. With a hosted project in .env (URL and anon key), no
// stack is started. Both logs are prefixed; Ctrl-C stops both.
//
// Ports: the app takes PORT (default 5173), the stack STACK_PORT (default the
// port of a local SUPABASE_URL, else 54321). A default port that is taken
// gives way to the next free one; a port you chose that is taken stops here
// with a message. A stack that already answers is used only when it runs on
// this checkout's data folder (.data/stack): it accepts this folder's
// service role key. Another checkout's stack is never attached to.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { planAppPort, planStack, readKeys } from "./dev-ports.mjs";
import { ensureNodeModules } from "./ensure-setup.mjs";

// A fresh clone needs nothing but this command: install packages when missing.
ensureNodeModules();

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const DATA_DIR = path.join(root, ".data", "stack");

const fromDotenv = {};
const dotenv = path.join(root, ".env");
if (fs.existsSync(dotenv)) {
  for (const line of fs.readFileSync(dotenv, "utf8").split(/\r?\n/)) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith("#")) continue;
    const value = match[2].replace(/^(['"])(.*)\1$/, "$2");
    if (value !== "") fromDotenv[match[1]] = value;
  }
}
const setting = (name) => process.env[name] || fromDotenv[name];

const children = [];
let stopping = false;

function prefixed(stream, label, color) {
  let buffer = "";
  stream.on("data", (chunk) => {
    buffer += chunk.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) process.stdout.write(`\x1b[${color}m${label}\x1b[0m ${line}\n`);
  });
  stream.on("end", () => buffer && process.stdout.write(`\x1b[${color}m${label}\x1b[0m ${buffer}\n`));
}

function run(label, color, command, args, env) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["inherit", "pipe", "pipe"],
  });
  prefixed(child.stdout, label, color);
  prefixed(child.stderr, label, color);
  child.on("exit", (code, signal) => {
    process.stdout.write(`\x1b[${color}m${label}\x1b[0m exited (${signal ?? code})\n`);
    if (!stopping) stop(code ?? 1);
  });
  children.push(child);
  return child;
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGINT");
  const force = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  }, 5000);
  force.unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null))).then(() =>
    process.exit(code),
  );
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

async function answers(url) {
  try {
    const res = await fetch(`${url}/auth/v1/health`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

async function waitFor(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (stopping) return false;
    if (await answers(url)) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

function fail(message) {
  console.error(`[dev] ${message}`);
  stop(1);
}

/** A port from the environment, or null; anything else than a port number stops here. */
function portSetting(name) {
  const raw = setting(name);
  if (raw === undefined) return null;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    fail(`${name}=${raw} is not a port number (1-65535)`);
    return null;
  }
  return port;
}

/**
 * This checkout's stack: the one already running on its data folder, or a
 * new one on STACK_PORT or the first free port from the default on
 * (scripts/dev-ports.mjs decides). Returns its URL, or null after saying why not.
 */
async function localStack(appOrigin) {
  const fromUrl = setting("SUPABASE_URL") ? Number(new URL(setting("SUPABASE_URL")).port) || null : null;
  const plan = await planStack({ dataDir: DATA_DIR, preferred: fromUrl ?? 54321, chosen: portSetting("STACK_PORT") });
  if (plan.fail) {
    fail(plan.fail);
    return null;
  }
  if (plan.use) {
    console.log(`[dev] this checkout's stack already runs on ${plan.use}; using it`);
    return plan.use;
  }
  if (plan.note) console.log(`[dev] ${plan.note}`);
  const url = `http://127.0.0.1:${plan.start}`;
  // its emails' links and passkeys point at the app's address
  run("[stack]", "36", bin("tsx"), ["stack/cli.ts", "--port", String(plan.start)], {
    GOTRUE_SITE_URL: setting("GOTRUE_SITE_URL") || appOrigin,
    GOTRUE_WEBAUTHN_RP_ORIGINS: setting("GOTRUE_WEBAUTHN_RP_ORIGINS") || appOrigin,
  });
  if (!(await waitFor(url, 120_000))) {
    fail(`the local stack did not answer on ${url} within 2 minutes`);
    return null;
  }
  return url;
}

/** The app's port: PORT, or the first free one from 5173 on. */
async function appPort() {
  const plan = await planAppPort({ preferred: 5173, chosen: portSetting("PORT") });
  if (plan.fail) fail(plan.fail);
  if (plan.note) console.log(`[dev] ${plan.note}`);
  return plan.port ?? null;
}

const appEnv = {};
const hosted =
  setting("SUPABASE_URL") && setting("SUPABASE_ANON_KEY") && !/127\.0\.0\.1|localhost/.test(setting("SUPABASE_URL"));

const port = await appPort();
if (!hosted && !stopping) {
  const url = await localStack(`http://localhost:${port}`);
  const keys = readKeys(DATA_DIR);
  if (url && !keys && !setting("SUPABASE_ANON_KEY")) fail(`no keys in ${path.join(DATA_DIR, "keys.json")}`);
  if (url) {
    appEnv.SUPABASE_URL = url;
    appEnv.SUPABASE_ANON_KEY = setting("SUPABASE_ANON_KEY") || keys?.anonKey;
    const serviceRoleKey = setting("SUPABASE_SERVICE_ROLE_KEY") || keys?.serviceRoleKey;
    if (serviceRoleKey) appEnv.SUPABASE_SERVICE_ROLE_KEY = serviceRoleKey;
  }
}
appEnv.SESSION_SECRET = setting("SESSION_SECRET") || "dev-only-secret-change-me-in-production";

if (!stopping) {
  const backend = appEnv.SUPABASE_URL ?? setting("SUPABASE_URL");
  const inbox = hosted ? "" : `; mail: ${backend}/inbox`;
  console.log(`[dev] app on http://localhost:${port} (backend ${backend}${inbox})`);
  run("[app]  ", "35", bin("remix"), ["vite:dev", "--host", "localhost", "--port", String(port), "--strictPort"], {
    ...fromDotenv,
    ...appEnv,
  });
}
