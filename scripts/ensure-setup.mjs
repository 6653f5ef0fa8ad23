// Makes a fresh clone runnable: installs npm packages when node_modules is
// missing or older than package.json, and for the tests Debian's Chromium,
// its headless shell, nginx and PostgreSQL when they are missing. Uses only Node built-ins, so
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

/** package.json's `engines`: Node 20.19 or later, said before anything else runs. */
export function ensureNodeVersion(version = process.versions.node) {
  const [major, minor] = version.split(".").map(Number);
  if (major > 20 || (major === 20 && minor >= 19)) return;
  throw new Error(`Teamboard needs Node 20.19 or later (this is ${version}).`);
}

export function ensureNodeModules() {
  ensureNodeVersion();
  const installed = mtime("node_modules/.package-lock.json");
  if (installed > 0 && installed >= mtime("package.json")) return;
  console.log("[setup] installing npm packages (npm install)…");
  // npm install, not npm ci: the lockfile made here lacks other platforms' optional binaries.
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm install failed");
}

/** Installs the Debian packages whose test says they are missing (apt-get; sudo when not root). */
function ensureDebianPackages(packages, why) {
  const missing = Object.keys(packages).filter((name) => !packages[name]());
  if (missing.length === 0) return;
  const root = process.getuid?.() === 0;
  console.log(`[setup] installing from Debian (apt-get install ${missing.join(" ")})…`);
  const sh = (args) => spawnSync(root ? args[0] : "sudo", root ? args.slice(1) : args, { stdio: "inherit" });
  sh(["apt-get", "update", "-qq"]);
  const r = sh(["apt-get", "install", "-y", "-qq", ...missing]);
  if (r.status !== 0 || missing.some((name) => !packages[name]())) {
    throw new Error(`${why}: apt-get install -y ${missing.join(" ")}`);
  }
}

const file = (path) => () => fs.existsSync(path);
const onPath = (command) => () => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;

/**
 * Debian's Chromium: the full browser (/usr/bin/chromium, Lighthouse in
 * bench:web) and its headless shell (/usr/bin/chromium-headless-shell, the
 * e2e run: tests/e2e/support/chromium.ts); and nginx, which the scale-out
 * end-to-end test puts in front of two app instances.
 */
export function ensureChromium() {
  ensureDebianPackages(
    {
      chromium: file("/usr/bin/chromium"),
      "chromium-headless-shell": file("/usr/bin/chromium-headless-shell"),
      nginx: () => file("/usr/sbin/nginx")() || onPath("nginx")(),
    },
    "Chromium and nginx are needed for the browser tests",
  );
}

/** PostgreSQL's initdb and pg_ctl, for the integration tests on a native PostgreSQL (scripts/native-pg.mjs). */
export function ensurePostgres() {
  const initdb = () =>
    onPath("initdb")() ||
    (fs.existsSync("/usr/lib/postgresql") &&
      fs.readdirSync("/usr/lib/postgresql").some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)));
  ensureDebianPackages({ postgresql: initdb }, "PostgreSQL is needed for the native PostgreSQL run");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureNodeModules();
  if (process.argv.includes("--browser")) ensureChromium();
}
