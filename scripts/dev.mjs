// npm run dev: the local stack and the app's Vite dev server, together.
//
// The local stack makes its keys on first start (per data folder), so they
// can't be written into .env ahead of time: this script starts the stack (or
// finds one already running), reads its keys, and hands SUPABASE_URL,
// SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY to the app, unless .env
// sets them. With a hosted project in .env (URL and anon key), no stack is
// started. Both logs are prefixed; Ctrl-C stops both.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { ensureNodeModules } from "./ensure-setup.mjs";

// A fresh clone needs nothing but this command: install packages when missing.
ensureNodeModules();

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const STACK_URL = process.env.STACK_URL ?? "http://127.0.0.1:54321";
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

const appEnv = {};
const hosted =
  setting("SUPABASE_URL") && setting("SUPABASE_ANON_KEY") && !/127\.0\.0\.1|localhost/.test(setting("SUPABASE_URL"));

if (!hosted) {
  const url = setting("SUPABASE_URL") || STACK_URL;
  if (await answers(url)) {
    console.log(`[dev] a local stack already answers on ${url}; using it`);
  } else {
    run("[stack]", "36", bin("tsx"), ["stack/cli.ts"], {});
    if (!(await waitFor(url, 120_000))) {
      console.error(`[dev] the local stack did not answer on ${url} within 2 minutes`);
      stop(1);
    }
  }
  const keysFile = path.join(DATA_DIR, "keys.json");
  const keys = fs.existsSync(keysFile) ? JSON.parse(fs.readFileSync(keysFile, "utf8")) : null;
  if (!keys && !setting("SUPABASE_ANON_KEY")) {
    console.error(
      `[dev] no keys in ${keysFile}; is the running stack using another data folder? Set SUPABASE_ANON_KEY in .env.`,
    );
    stop(1);
  }
  appEnv.SUPABASE_URL = setting("SUPABASE_URL") || url;
  appEnv.SUPABASE_ANON_KEY = setting("SUPABASE_ANON_KEY") || keys?.anonKey;
  const serviceRoleKey = setting("SUPABASE_SERVICE_ROLE_KEY") || keys?.serviceRoleKey;
  if (serviceRoleKey) appEnv.SUPABASE_SERVICE_ROLE_KEY = serviceRoleKey;
}
appEnv.SESSION_SECRET = setting("SESSION_SECRET") || "dev-only-secret-change-me-in-production";

if (!stopping) {
  console.log(`[dev] app on http://localhost:5173 (backend ${appEnv.SUPABASE_URL ?? setting("SUPABASE_URL")})`);
  run("[app]  ", "35", bin("remix"), ["vite:dev", "--host", "localhost", "--port", "5173", "--strictPort"], {
    ...fromDotenv,
    ...appEnv,
  });
}
