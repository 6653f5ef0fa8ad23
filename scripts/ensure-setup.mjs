// Makes a fresh clone runnable: installs npm packages when node_modules is
// missing or older than package.json, and (for the browser tests) Debian's
// Chromium and its headless shell when they are missing. Uses only Node built-ins, so
// `npm run dev` and `npm test` work straight after `git clone`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

export function ensureNodeModules() {
  const installed = mtime("node_modules/.package-lock.json");
  if (installed > 0 && installed >= mtime("package.json")) return;
  console.log("[setup] installing npm packages (npm install)…");
  // npm install, not npm ci: the lockfile made here lacks other platforms' optional binaries.
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm install failed");
}

/**
 * Debian's Chromium: the full browser (/usr/bin/chromium, Lighthouse in
 * bench:web) and its headless shell (/usr/bin/chromium-headless-shell, the
 * e2e run: tests/e2e/support/chromium.ts).
 */
export function ensureChromium() {
  const packages = { chromium: "/usr/bin/chromium", "chromium-headless-shell": "/usr/bin/chromium-headless-shell" };
  const missing = Object.keys(packages).filter((name) => !fs.existsSync(packages[name]));
  if (missing.length === 0) return;
  const root = process.getuid?.() === 0;
  console.log(`[setup] installing Chromium from Debian (apt-get install ${missing.join(" ")})…`);
  const sh = (args) => spawnSync(root ? args[0] : "sudo", root ? args.slice(1) : args, { stdio: "inherit" });
  sh(["apt-get", "update", "-qq"]);
  const r = sh(["apt-get", "install", "-y", "-qq", ...missing]);
  if (r.status !== 0 || missing.some((name) => !fs.existsSync(packages[name]))) {
    throw new Error(`Chromium is needed for the browser tests: apt-get install -y ${missing.join(" ")}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureNodeModules();
  if (process.argv.includes("--browser")) ensureChromium();
}
