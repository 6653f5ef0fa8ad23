/**
 * What scripts/conformance/functions.ts needs to run a suite: its test
 * dependencies, a copy of the checkout, rewriting test files, jest and Deno's
 * test runner in child processes, and the counts each prints (a test "reaches
 * the server" when it sent a request to a stack).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { StartOptions } from "../../stack/server.ts";
import { denoBinary } from "../../stack/functions/worker.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

// Test dependencies as the packages pin them ("catalog:" resolved from the workspace catalog).
const DEPS = [
  "jest@30.4.2",
  "ts-jest@^29.4.9",
  "ts-node@^10.9.2",
  "@jest/types@^30",
  "@jest/globals@^30",
  "@types/jest@30.0.0",
  "@types/node@20.19.9",
  "typescript@~5.8.3",
  "tslib@2.8.1",
  "jsonwebtoken@^9",
  "nanoid@^3.3.1",
  "ws@^8",
  "@supabase/phoenix@0.4.5",
  "iceberg-js@^0.8.1",
  "@opentelemetry/api@^1.9.0",
  "@opentelemetry/context-async-hooks@^2.8.0",
  "@opentelemetry/core@^2.8.0",
  "@opentelemetry/sdk-trace-node@^2.8.0",
];
const depsDir =
  process.env.CONFORMANCE_FUNCTIONS_DEPS_DIR ?? path.join(os.homedir(), ".cache", "teamboard-conformance-functions");

export function ensureDeps() {
  const stamp = path.join(depsDir, "deps.json");
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === JSON.stringify(DEPS)) return;
  fs.mkdirSync(depsDir, { recursive: true });
  fs.writeFileSync(path.join(depsDir, "package.json"), JSON.stringify({ name: "conformance-deps", private: true }));
  console.log(`installing the suites' test dependencies into ${depsDir} …`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...DEPS], {
    cwd: depsDir,
    stdio: "inherit",
  });
  fs.writeFileSync(stamp, JSON.stringify(DEPS));
}

/** The checkout's packages in a temporary folder, with the test dependencies beside them. */
export function copyCheckout(checkout: string, work: string) {
  for (const f of ["tsconfig.base.json", "tsconfig.json"]) {
    if (fs.existsSync(path.join(checkout, f))) fs.copyFileSync(path.join(checkout, f), path.join(work, f));
  }
  fs.cpSync(path.join(checkout, "packages"), path.join(work, "packages"), {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|coverage|dist|\.nx)$/.test(src),
  });
  fs.symlinkSync(path.join(depsDir, "node_modules"), path.join(work, "node_modules"));
}

/** Replaces `from` with `to` in the test files under `dir`: the only edit made to a suite's tests. */
export function rewrite(dir: string, replacements: Record<string, string>) {
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, rel);
    if (!/\.[cm]?[jt]s$/.test(file) || !fs.statSync(file).isFile()) continue;
    const before = fs.readFileSync(file, "utf8");
    let text = before;
    for (const [from, to] of Object.entries(replacements)) text = text.split(from).join(to);
    if (text !== before) fs.writeFileSync(file, text);
  }
}

/** Gives every function in `functionsDir` a deno.json with `imports`; shims go to its `_shims` folder. */
export function mapFunctionImports(
  functionsDir: string,
  imports: Record<string, string>,
  shims: Record<string, string>,
) {
  const shimDir = path.join(functionsDir, "_shims");
  fs.mkdirSync(shimDir, { recursive: true });
  for (const [name, source] of Object.entries(shims)) fs.copyFileSync(source, path.join(shimDir, name));
  for (const entry of fs.readdirSync(functionsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith("_")) continue;
    fs.writeFileSync(path.join(functionsDir, entry.name, "deno.json"), JSON.stringify({ imports }, null, 2));
  }
}

export function stackOptions(over: StartOptions): StartOptions {
  return {
    port: 0,
    host: "127.0.0.1",
    dataDir: null,
    seedFile: null,
    quiet: !process.env.CONFORMANCE_VERBOSE,
    ...over,
  };
}

export interface Counts {
  passed: number;
  failed: number;
  serverPassed: number;
  serverFailed: number;
}
const zero = (): Counts => ({ passed: 0, failed: 0, serverPassed: 0, serverFailed: 0 });
export const add = (a: Counts, b: Counts): Counts => ({
  passed: a.passed + b.passed,
  failed: a.failed + b.failed,
  serverPassed: a.serverPassed + b.serverPassed,
  serverFailed: a.serverFailed + b.serverFailed,
});
const showFailures = !!process.env.CONFORMANCE_SHOW_FAILURES;

/** Runs jest in a child process (the stacks answer from this process's event loop); prints and returns counts. */
export async function runJest(
  pkgDir: string,
  args: string[],
  stackPrefixes: string[],
  env: Record<string, string> = {},
) {
  const tsconfig = fs.existsSync(path.join(pkgDir, "tsconfig.test.json")) ? "tsconfig.test.json" : "tsconfig.json";
  const out = path.join(pkgDir, "..", `jest-${path.basename(pkgDir)}.json`);
  const log = path.join(pkgDir, "..", `requests-${path.basename(pkgDir)}.jsonl`);
  fs.rmSync(log, { force: true });
  const jestArgs = [
    path.join(depsDir, "node_modules", "jest", "bin", "jest.js"),
    "--runInBand",
    "--ci",
    "--coverage=false",
    "--json",
    `--outputFile=${out}`,
    "--setupFilesAfterEnv",
    path.join(here, "setup.cjs"),
    // transpiled only, as in run.ts: type-checking tells nothing about the server
    "--transform",
    JSON.stringify({ "^.+\\.tsx?$": ["ts-jest", { tsconfig: `<rootDir>/${tsconfig}`, isolatedModules: true }] }),
    ...args,
  ];
  const childEnv = {
    ...process.env,
    ...env,
    CONFORMANCE_STACK_URLS: stackPrefixes.join(","),
    CONFORMANCE_REQUEST_LOG: log,
  };
  const stderr = await child(process.execPath, jestArgs, pkgDir, childEnv);
  if (!fs.existsSync(out)) {
    console.error(stderr.slice(-4000));
    throw new Error("jest produced no results");
  }
  const json = JSON.parse(fs.readFileSync(out, "utf8")) as {
    testResults: {
      name: string;
      message: string;
      assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
    }[];
  };
  const reached = new Set(
    (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n") : []).filter(Boolean).map((line) => {
      const { file, name } = JSON.parse(line) as { file: string; name: string };
      return `${file}\0${name}`;
    }),
  );
  let total = zero();
  for (const file of [...json.testResults].sort((a, b) => a.name.localeCompare(b.name))) {
    const f = zero();
    for (const a of file.assertionResults) {
      if (a.status !== "passed" && a.status !== "failed") continue;
      const ok = a.status === "passed";
      f[ok ? "passed" : "failed"]++;
      if (!reached.has(`${file.name}\0${a.fullName}`)) continue;
      f[ok ? "serverPassed" : "serverFailed"]++;
      if (!ok && showFailures) printFailure(a.fullName, a.failureMessages.join("\n"));
    }
    if (file.assertionResults.length === 0 && file.message) {
      f.failed++;
      printFailure("(the file did not run)", file.message);
    }
    printFile(path.relative(pkgDir, file.name), f);
    total = add(total, f);
  }
  return total;
}

/** Runs Deno's test runner on `files`; every test and step counts as reaching the server. */
export async function runDenoTests(
  cwd: string,
  files: string[],
  importMap: string,
  denoDir: string,
  labelBase: string,
) {
  let total = zero();
  for (const file of files) {
    const args = [
      "test",
      "--allow-all",
      "--no-check",
      "--no-lock",
      "--unstable-sloppy-imports",
      "--unstable-detect-cjs",
    ];
    args.push("--node-modules-dir=manual", `--import-map=${importMap}`, file);
    let output = "";
    await child(
      denoBinary(),
      args,
      cwd,
      { ...process.env, DENO_DIR: denoDir, NO_COLOR: "1" },
      (text) => (output += text),
    );
    const f = zero();
    // pretty reporter: "name ... ok (5ms)" / "name ... FAILED (5ms)"; a test with steps opens with a bare
    // "name ..." line, its steps indented below, and closes with its own result: it counts by its steps
    const parents = new Set([...output.matchAll(/^(\s*)(.+?) \.\.\.$/gm)].map((m) => `${m[1]}|${m[2]}`));
    const results = [...output.matchAll(/^(\s*)(.+?) \.\.\. (ok|FAILED)\b/gm)];
    for (const m of results) {
      if (parents.has(`${m[1]}|${m[2]}`)) continue;
      const ok = m[3] === "ok";
      f[ok ? "passed" : "failed"]++;
      f[ok ? "serverPassed" : "serverFailed"]++;
      if (!ok && showFailures) printFailure(m[2].trim(), failureOf(output, m[2].trim()));
    }
    if (results.length === 0) {
      f.failed++;
      console.error(output.slice(-3000));
    }
    printFile(path.relative(labelBase, file), f);
    total = add(total, f);
  }
  return total;
}

/** Deno's ERRORS section entry for a test or step: "name => file:line" and the error under it. */
function failureOf(output: string, name: string): string {
  const start = output.indexOf(`${name} => `);
  if (start < 0) return "";
  return output
    .slice(start, start + 1200)
    .split("\n")
    .slice(1, 8)
    .join("\n");
}

function child(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, onOut?: (t: string) => void) {
  return new Promise<string>((resolve, reject) => {
    let stderr = "";
    const p = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    p.stdout.on("data", (chunk: Buffer) => {
      onOut?.(chunk.toString());
      if (process.env.CONFORMANCE_VERBOSE) process.stdout.write(chunk);
    });
    p.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-20_000);
      onOut?.(chunk.toString());
      if (process.env.CONFORMANCE_VERBOSE) process.stderr.write(chunk);
    });
    p.on("error", reject);
    p.on("exit", () => resolve(stderr));
  });
}

function printFile(name: string, f: Counts) {
  console.log(
    `${name}: ${f.passed} passed, ${f.failed} failed` +
      (f.serverPassed + f.serverFailed ? ` (server: ${f.serverPassed} passed, ${f.serverFailed} failed)` : ""),
  );
}

function printFailure(name: string, message: string) {
  console.log(`  ✗ ${name}${message ? `\n    ${message.split("\n").slice(0, 6).join("\n    ")}` : ""}`);
}
