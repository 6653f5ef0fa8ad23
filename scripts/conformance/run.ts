/**
 * Runs one of supabase-js's own test suites against the local stack:
 *
 *   tsx scripts/conformance/run.ts <postgrest-js|auth-js|storage-js> <supabase-js checkout>
 *
 * (normally through scripts/conformance/<suite>.sh). Nothing in the checkout
 * is changed: its package is copied to a temporary folder, where only the
 * server addresses in the test files are rewritten to the stacks' random
 * ports. A throwaway native PostgreSQL holds the suite's fixture; one stack is
 * started per server the suite expects, with that server's settings (see
 * suites.ts). Jest runs without updating snapshots (--ci). The test
 * dependencies are installed from npm once into a cache folder.
 *
 * A test "reaches the server" when it sent at least one request to a stack;
 * setup.cjs counts requests per test by wrapping fetch. The closing line,
 * `N passed, N failed`, counts those tests; the line above it counts all.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startNativePostgres } from "../native-pg.mjs";
import { startStack, type RunningStack } from "../../stack/server.ts";
import { SUITES, type StackSpec } from "./suites.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const [suiteName, checkoutArg] = process.argv.slice(2);
const suite = SUITES[suiteName as keyof typeof SUITES];
if (!suite || !checkoutArg) {
  console.error(`usage: ${Object.keys(SUITES).join("|")} <path of a supabase-js checkout>`);
  process.exit(2);
}
const checkout = path.resolve(checkoutArg);
const pkgRel = `packages/core/${suiteName}`;
if (!fs.existsSync(path.join(checkout, pkgRel, "package.json"))) {
  console.error(`${checkout} is not a supabase-js checkout (no ${pkgRel}/package.json)`);
  process.exit(2);
}

// Test dependencies, as the suite's package.json pins them (its "catalog:"
// entries resolve to the workspace catalog's versions).
const DEPS = [
  "jest@30.4.2",
  "ts-jest@^29.4.9",
  "ts-node@^10.9.2",
  "@jest/types@^30",
  "@jest/globals@^30",
  "@types/jest@30.0.0",
  "@types/node@20.19.9",
  "typescript@~5.8.3",
  "prettier@^3.6.2",
  "tslib@2.8.1",
  "type-fest@^4.32.0",
  "zod@^3.25.76",
  "jsonwebtoken@^9",
  "@types/jsonwebtoken@^8.5.8",
  "@faker-js/faker@^9.9.0",
  "jest-environment-jsdom@30.4.1",
  "jest-mock-server@^0.1.0",
  // storage-js's own dependency (its analytics client)
  "iceberg-js@^0.8.1",
];
const depsDir = process.env.CONFORMANCE_DEPS_DIR ?? path.join(os.homedir(), ".cache", "teamboard-conformance");
function ensureDeps() {
  const stamp = path.join(depsDir, "deps.json");
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === JSON.stringify(DEPS)) return;
  fs.mkdirSync(depsDir, { recursive: true });
  fs.writeFileSync(path.join(depsDir, "package.json"), JSON.stringify({ name: "conformance-deps", private: true }));
  console.log(`installing the suite's test dependencies into ${depsDir} …`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...DEPS], {
    cwd: depsDir,
    stdio: "inherit",
  });
  fs.writeFileSync(stamp, JSON.stringify(DEPS));
}

function copyPackage(work: string) {
  for (const f of ["tsconfig.base.json", "tsconfig.json"]) {
    if (fs.existsSync(path.join(checkout, f))) fs.copyFileSync(path.join(checkout, f), path.join(work, f));
  }
  fs.cpSync(path.join(checkout, pkgRel), path.join(work, pkgRel), {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|coverage|dist)$/.test(src),
  });
  fs.symlinkSync(path.join(depsDir, "node_modules"), path.join(work, pkgRel, "node_modules"));
  return path.join(work, pkgRel);
}

/** Points the test files at the stacks: the only edit made to the suite. */
function rewriteUrls(pkgDir: string, dirs: string[], urls: Record<string, string>) {
  for (const dir of dirs) {
    for (const rel of fs.readdirSync(path.join(pkgDir, dir), { recursive: true }) as string[]) {
      const file = path.join(pkgDir, dir, rel);
      if (!/\.[cm]?[jt]s$/.test(file) || !fs.statSync(file).isFile()) continue;
      const before = fs.readFileSync(file, "utf8");
      let text = before;
      for (const [from, to] of Object.entries(urls)) text = text.split(from).join(to);
      if (text !== before) fs.writeFileSync(file, text);
    }
  }
}

interface AssertionResult {
  fullName: string;
  status: string;
  failureMessages: string[];
}
interface JestJson {
  testResults: { name: string; assertionResults: AssertionResult[]; message: string }[];
}

async function main() {
  ensureDeps();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `conformance-${suiteName}-`));
  const pkgDir = copyPackage(work);
  suite.prepare?.(pkgDir);
  const pg = await startNativePostgres();
  if (!pg) throw new Error("No initdb/pg_ctl found: install PostgreSQL 15.");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      pg.stop();
      fs.rmSync(work, { recursive: true, force: true });
      process.exit(130);
    });
  }
  const stacks: RunningStack[] = [];
  let totals = { passed: 0, failed: 0, serverPassed: 0, serverFailed: 0 };
  try {
    for (const run of suite.runs) {
      const urls: Record<string, string> = {};
      const started: RunningStack[] = [];
      for (const spec of run.stacks) {
        const stack = await startStack(stackOptions(spec, pkgDir, pg.url, work));
        stacks.push(stack);
        started.push(stack);
        urls[spec.url] = stack.url + (spec.path ?? "");
      }
      rewriteUrls(pkgDir, run.rewrite, urls);
      const result = await runJest(
        pkgDir,
        run.config,
        started.map((s) => s.url),
        work,
      );
      totals = addTotals(totals, report(result, pkgDir));
      for (const s of started) await s.close();
    }
  } finally {
    for (const s of stacks) await s.close().catch(() => {});
    pg.stop();
    if (!process.env.CONFORMANCE_KEEP) fs.rmSync(work, { recursive: true, force: true });
  }
  console.log(`\nall tests: ${totals.passed} passed, ${totals.failed} failed`);
  console.log(`tests that reach the server (${suiteName}):`);
  console.log(`${totals.serverPassed} passed, ${totals.serverFailed} failed`);
}

function stackOptions(spec: StackSpec, pkgDir: string, databaseUrl: string, work: string) {
  const emptyMigrations = path.join(work, "no-migrations");
  fs.mkdirSync(emptyMigrations, { recursive: true });
  const settings = spec.settings(pkgDir);
  return {
    ...settings,
    port: 0,
    host: "127.0.0.1",
    dataDir: null,
    databaseUrl,
    quiet: !process.env.CONFORMANCE_VERBOSE,
    migrationsDir: spec.migrationsDir ? path.join(pkgDir, spec.migrationsDir) : emptyMigrations,
    seedFile: spec.seedFile ? path.join(pkgDir, spec.seedFile) : null,
    auth: { bcryptCost: 4, ...settings.auth },
  };
}

/** Runs jest in a child process; asynchronously, since the stacks answer from this process's event loop. */
async function runJest(pkgDir: string, config: string, stackUrls: string[], work: string) {
  const out = path.join(work, `jest-${path.basename(config)}.json`);
  const log = path.join(work, `requests-${path.basename(config)}.jsonl`);
  fs.rmSync(log, { force: true });
  const args = [
    path.join(pkgDir, "node_modules", "jest", "bin", "jest.js"),
    "--config",
    config,
    "--runInBand",
    "--ci",
    "--coverage=false",
    "--json",
    `--outputFile=${out}`,
    "--setupFilesAfterEnv",
    path.join(here, "setup.cjs"),
    // Type-checking the suites' test files (huge generated types) takes tens of
    // minutes on a small machine and tells nothing about the server; the files
    // are transpiled only, unless CONFORMANCE_TYPECHECK=1 asks for the suite's own setting.
    ...(process.env.CONFORMANCE_TYPECHECK
      ? []
      : [
          "--transform",
          JSON.stringify({
            "^.+\\.tsx?$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.test.json", isolatedModules: true }],
          }),
        ]),
    ...(process.env.CONFORMANCE_FILTER ? [process.env.CONFORMANCE_FILTER] : []),
  ];
  const env = { ...process.env, CONFORMANCE_STACK_URLS: stackUrls.join(","), CONFORMANCE_REQUEST_LOG: log };
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: pkgDir, env, stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-20_000);
      if (process.env.CONFORMANCE_VERBOSE) process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("exit", () => resolve());
  });
  if (!fs.existsSync(out)) {
    console.error(stderr.slice(-4000));
    throw new Error(`jest (${config}) produced no results`);
  }
  const json = JSON.parse(fs.readFileSync(out, "utf8")) as JestJson;
  const reached = new Set<string>();
  if (fs.existsSync(log)) {
    for (const line of fs.readFileSync(log, "utf8").split("\n")) {
      if (!line) continue;
      const { file, name } = JSON.parse(line) as { file: string; name: string };
      reached.add(`${file}\0${name}`);
    }
  }
  return { json, reached };
}

function report({ json, reached }: Awaited<ReturnType<typeof runJest>>, pkgDir: string) {
  const t = { passed: 0, failed: 0, serverPassed: 0, serverFailed: 0 };
  const showFailures = !!process.env.CONFORMANCE_SHOW_FAILURES;
  for (const file of [...json.testResults].sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = path.relative(pkgDir, file.name);
    const f = { passed: 0, failed: 0, serverPassed: 0, serverFailed: 0 };
    for (const a of file.assertionResults) {
      const ok = a.status === "passed";
      if (a.status !== "passed" && a.status !== "failed") continue;
      f[ok ? "passed" : "failed"]++;
      if (reached.has(`${file.name}\0${a.fullName}`)) {
        f[ok ? "serverPassed" : "serverFailed"]++;
        if (!ok && showFailures)
          console.log(`  ✗ ${a.fullName}\n    ${a.failureMessages.join("\n").split("\n").slice(0, 6).join("\n    ")}`);
      }
    }
    if (file.assertionResults.length === 0 && file.message) f.failed++;
    console.log(
      `${rel}: ${f.passed} passed, ${f.failed} failed` +
        (f.serverPassed + f.serverFailed ? ` (server: ${f.serverPassed} passed, ${f.serverFailed} failed)` : ""),
    );
    Object.assign(t, addTotals(t, f));
  }
  return t;
}

function addTotals<T extends Record<string, number>>(a: T, b: T): T {
  return Object.fromEntries(Object.keys(a).map((k) => [k, a[k] + b[k]])) as T;
}

await main();
