// The README's test command (npm test): every suite, one closing line.
//   1. vitest: unit tests and integration tests on embedded PGlite
//   2. vitest: the integration tests again on a native PostgreSQL
//   3. Playwright: end-to-end tests in Chromium against the built app
// Each runner writes a JSON report; the closing line `N passed, N failed`
// sums them. A runner that dies without a report counts as a failure.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { e2ePorts } from "../tests/e2e/support/ports.mjs";
import { findFreeOffset } from "./dev-ports.mjs";
import { ensureChromium, ensureNodeModules, ensurePostgres } from "./ensure-setup.mjs";
import { startNativePostgres } from "./native-pg.mjs";

const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`
const want = (name) => only.length === 0 || only.includes(name);
const reportDir = path.resolve(".data/test-reports");
fs.rmSync(reportDir, { recursive: true, force: true });
fs.mkdirSync(reportDir, { recursive: true });

ensureNodeModules();
if (want("e2e")) ensureChromium();
if (want("postgres")) {
  // a failed install shows below as the native run's failure
  try {
    ensurePostgres();
  } catch (error) {
    console.error(String(error));
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

function run(label, command, args, env = {}) {
  console.log(`\n━━ ${label} ━━`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  console.log(`━━ ${label}: exit ${result.status ?? result.signal} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status ?? 1;
}

function readVitest(label, file, exitCode) {
  if (!fs.existsSync(file)) {
    problems.push(`${label}: no report (exit ${exitCode})`);
    totals.failed += 1;
    return;
  }
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that failed to load has no tests but is a failure all the same.
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === "failed" && f.assertionResults.length === 0,
  );
  totals.failed += brokenFiles.length;
  for (const f of brokenFiles)
    problems.push(`${label}: ${path.relative(process.cwd(), f.name)} failed to run: ${f.message?.split("\n")[0]}`);
  if (exitCode !== 0 && report.numFailedTests === 0 && brokenFiles.length === 0) {
    problems.push(`${label}: exited ${exitCode} with no failed test`);
    totals.failed += 1;
  }
}

function readPlaywright(file, exitCode) {
  if (!fs.existsSync(file)) {
    problems.push(`e2e: no report (exit ${exitCode})`);
    totals.failed += 1;
    return;
  }
  const { stats, errors } = JSON.parse(fs.readFileSync(file, "utf8"));
  totals.passed += stats.expected;
  totals.failed += stats.unexpected + stats.flaky;
  totals.skipped += stats.skipped;
  if ((errors ?? []).length > 0 && stats.unexpected === 0) {
    problems.push(`e2e: ${errors.length} error(s) outside tests: ${errors[0].message?.split("\n")[0]}`);
    totals.failed += errors.length;
  }
}

const vitest = ["node_modules/.bin/vitest", "run", "--reporter=default", "--reporter=json"];

if (want("unit")) {
  const file = path.join(reportDir, "vitest-pglite.json");
  const code = run("unit + integration (PGlite)", vitest[0], [...vitest.slice(1), `--outputFile.json=${file}`]);
  readVitest("vitest (PGlite)", file, code);
}

// The e2e run needs the production build; it is made while the PostgreSQL
// pass runs (which leaves a core to spare) instead of on the critical path.
const e2e = want("e2e") && fs.existsSync("playwright.config.ts") && fs.existsSync("tests/e2e");
const build = e2e ? startBuild() : null;

function startBuild() {
  const started = Date.now();
  // to a file, not a pipe: the passes before the e2e run block this process (spawnSync) and would leave a pipe unread
  const log = path.join(reportDir, "build.log");
  const fd = fs.openSync(log, "w");
  const child = spawn("npm", ["run", "--silent", "build"], { stdio: ["ignore", fd, fd] });
  fs.closeSync(fd);
  return new Promise((resolve) =>
    child.on("close", (code) =>
      resolve({ code, output: fs.readFileSync(log, "utf8"), seconds: (Date.now() - started) / 1000 }),
    ),
  );
}

const NOT_ON_NATIVE = [
  "storage-render.test.ts",
  "edge-fuzz.test.ts",
  "functions-imports.test.ts",
  // PGlite's one connection stalled by a runaway caller (issue 35 H1) and its engine reopened after
  // a cut statement: on a native server each request has its own connection and PostgreSQL's
  // statement_timeout does the cutting, which stack-limits.test.ts checks on both engines
  "stack-runaway-callers.test.ts",
  "stack-runaway-statements.test.ts",
];

if (want("postgres")) {
  const pg = await startNativePostgres();
  if (!pg) {
    problems.push("native PostgreSQL: initdb/pg_ctl not found (apt-get install -y postgresql)");
    totals.failed += 1;
  } else {
    try {
      const file = path.join(reportDir, "vitest-postgres.json");
      const code = run(
        "integration (native PostgreSQL)",
        vitest[0],
        [
          ...vitest.slice(1),
          "tests/integration",
          // what these test doesn't reach the database, or is PGlite's alone (NOT_ON_NATIVE):
          // the PGlite pass runs them, a second engine adds nothing
          ...NOT_ON_NATIVE.flatMap((name) => ["--exclude", `tests/integration/${name}`]),
          `--outputFile.json=${file}`,
        ],
        { TEST_DATABASE_URL: pg.url },
      );
      readVitest("vitest (PostgreSQL)", file, code);
    } finally {
      pg.stop();
    }
  }
}

if (e2e) {
  const file = path.join(reportDir, "playwright.json");
  const built = await build;
  console.log(`\n━━ production build (for the e2e run): exit ${built.code} in ${built.seconds.toFixed(1)} s`);
  if (built.code !== 0) process.stdout.write(built.output);
  const offset = await e2eOffset();
  const code = run(
    "end-to-end (Playwright, Chromium)",
    "node_modules/.bin/playwright",
    ["test", "--reporter=list,json"],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
      // built above; playwright.config.ts builds when run on its own
      E2E_PREBUILT: built.code === 0 ? "1" : "",
      E2E_PORT_OFFSET: String(offset),
    },
  );
  readPlaywright(file, code);
}

/**
 * E2E_PORT_OFFSET when set, else the first offset whose ports are all free:
 * a stack or app still listening on the usual ports (another checkout's run,
 * one left running) moves this run aside instead of failing it.
 */
async function e2eOffset() {
  if (process.env.E2E_PORT_OFFSET) return Number(process.env.E2E_PORT_OFFSET);
  const offset = await findFreeOffset(e2ePorts());
  if (offset === null) {
    console.log("! the e2e ports and the next 19 offsets are all taken: set E2E_PORT_OFFSET");
    return 0;
  }
  if (offset !== 0) console.log(`(the e2e ports ${e2ePorts().join(", ")} are taken: this run moves them by ${offset})`);
  return offset;
}

for (const p of problems) console.log(`! ${p}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : "";
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
