/**
 * npm run bench:web — what each page costs a browser. The BUILT app under the
 * production server (server.mjs, compressed as deployed) against a local stack
 * loaded with the demo seed; Debian's Chromium through Playwright and through
 * Lighthouse 12. For each route:
 *   - JS first: bytes on the wire of the scripts the first HTML names (its
 *     module preloads and the modules its inline scripts import), as fetched
 *     (Brotli: Chromium takes it from localhost as from HTTPS);
 *   - JS total: bytes on the wire of every script the browser fetched in the
 *     first 5 s after navigation, without any interaction, what the same
 *     scripts weigh as the build's gzip copies (for browsers without Brotli,
 *     and the unit the issue's budget is written in), and the encoding seen;
 *   - document: the HTML's bytes on the wire and decoded;
 *   - Lighthouse (mobile emulation, simulated slow 4G; the median of
 *     BENCH_LIGHTHOUSE_RUNS loads, 3 by default): performance,
 *     accessibility, best practices, LCP, CLS, TBT — for /, /login, the seeded
 *     board, a task page, /teams and /account (every route with
 *     BENCH_LIGHTHOUSE_ALL=1).
 * Bytes are the encoded body sizes Chromium reports for what it really
 * fetched (`request.sizes().responseBodySize`), not the build's file sizes.
 * Builds the app first unless BENCH_NO_BUILD=1. BENCH_LIGHTHOUSE=0 skips
 * Lighthouse; BENCH_ONLY=text keeps the routes whose name contains it;
 * BENCH_LIGHTHOUSE_DIR=dir saves each Lighthouse report (JSON) there; BENCH_VERBOSE=1
 * lists each page's scripts. Console errors the pages log are printed too.
 */
import { chromium, type Cookie } from "@playwright/test";
import type { RunnerResult } from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/e2e/support/chromium.ts";
import { gzipCopyBytes, measureJs, type ScriptFile } from "../tests/e2e/support/js-bytes.ts";
import { startTestStack } from "../tests/support/stack.ts";

/** Lighthouse launches Chromium itself and must ask for headless; Playwright does on its own. */
const LIGHTHOUSE_FLAGS = ["--headless", ...CHROMIUM_ARGS];

/**
 * chrome-launcher's default flags, except that Chromium's RenderDocument stays
 * on as in every user's browser. chrome-launcher 1.2 turns it off (a 2024
 * workaround for Lighthouse bugs); on Debian's Chromium 156 that holds the
 * first paint back about a second after the page has loaded (observed first
 * paint of /login 1.22–1.35 s with it off, 0.32–0.36 s with it on), and
 * Lighthouse's simulation then counts every script and task of that second
 * as delaying FCP and LCP. BENCH_LIGHTHOUSE_LAUNCHER_DEFAULTS=1 keeps
 * chrome-launcher's flags as they are (docs/decisions/0021).
 */
function launcherFlags(defaults: string[]): string[] {
  if (process.env.BENCH_LIGHTHOUSE_LAUNCHER_DEFAULTS === "1") return defaults;
  return defaults.map((flag) => {
    if (!flag.startsWith("--disable-features=")) return flag;
    const features = flag
      .slice("--disable-features=".length)
      .split(",")
      .filter((feature) => feature !== "RenderDocument");
    return `--disable-features=${features.join(",")}`;
  });
}
const PORT = Number(process.env.BENCH_WEB_PORT ?? 4790);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const OWNER = { email: "owner@teamboard.local", password: "teamboard-demo-1" };
const WATCH_MS = 5_000;

interface Route {
  name: string;
  url: string;
  signedIn: boolean;
  lighthouse?: boolean;
}

const BOARD = "/teams/acme/projects/WEB";
const ROUTES: Route[] = [
  { name: "/", url: "/", signedIn: false, lighthouse: true },
  { name: "/login", url: "/login", signedIn: false, lighthouse: true },
  { name: "/signup", url: "/signup", signedIn: false },
  { name: "/forgot-password", url: "/forgot-password", signedIn: false },
  { name: "/teams", url: "/teams", signedIn: true, lighthouse: true },
  { name: "/teams/new", url: "/teams/new", signedIn: true },
  { name: "/teams/:team", url: "/teams/acme", signedIn: true },
  { name: "/teams/:team/members", url: "/teams/acme/members", signedIn: true },
  { name: "/teams/:team/settings", url: "/teams/acme/settings", signedIn: true },
  { name: "/teams/:team/projects", url: "/teams/acme/projects", signedIn: true },
  { name: "board (60 tasks)", url: BOARD, signedIn: true, lighthouse: true },
  { name: "task page", url: `${BOARD}/tasks/1`, signedIn: true, lighthouse: true },
  { name: "tasks/new", url: `${BOARD}/tasks/new`, signedIn: true },
  { name: "/search", url: "/search?q=portal", signedIn: true },
  { name: "/account", url: "/account", signedIn: true, lighthouse: true },
  { name: "/account/password", url: "/account/password", signedIn: true },
].filter((r) => !process.env.BENCH_ONLY || r.name.includes(process.env.BENCH_ONLY));

async function waitForHttp(url: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

interface LighthouseFigures {
  performance: number;
  /** the lowest and highest performance score of the runs */
  performanceRange: string;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** Lighthouse's measure of this machine's speed at the time (a mid-range desktop: about 1,000+) */
  benchmarkIndex: number;
  /** audits of the accessibility and best-practices categories that didn't pass */
  failed: string[];
  /** the errors-in-console and inspector-issues items, when those failed */
  details: string[];
}

/**
 * How many times Lighthouse loads each page (BENCH_LIGHTHOUSE_RUNS, default 3). The figures
 * are those of the median run as Lighthouse's own computeMedianRun picks it (nearest the
 * median FCP and TTI), since performance and TBT swing 10–15 points between runs here.
 */
const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));

type LighthouseResult = RunnerResult["lhr"];

/** One Lighthouse load of the page, in a Chromium of its own. */
async function lighthouseOnce(url: string, cookies: Cookie[]): Promise<LighthouseResult> {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    ignoreDefaultFlags: true,
    chromeFlags: [...launcherFlags(chromeLauncher.Launcher.defaultFlags()), ...LIGHTHOUSE_FLAGS],
  });
  try {
    if (cookies.length) {
      // A real session cookie in the browser's own jar, as after signing in (the browser client
      // reads it from document.cookie); Lighthouse keeps cookies when it resets storage.
      const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      await cdp.contexts()[0].addCookies(cookies);
      await cdp.close();
    }
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices"],
      },
      undefined,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

async function runLighthouse(url: string, cookies: Cookie[]): Promise<LighthouseFigures> {
  const runs: LighthouseResult[] = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await lighthouseOnce(url, cookies));
  const lhr: LighthouseResult = computeMedianRun(runs);
  if (process.env.BENCH_LIGHTHOUSE_DIR) {
    fs.mkdirSync(process.env.BENCH_LIGHTHOUSE_DIR, { recursive: true });
    const file = `${new URL(url).pathname.replace(/\W+/g, "_") || "_"}.json`;
    fs.writeFileSync(path.join(process.env.BENCH_LIGHTHOUSE_DIR, file), JSON.stringify(lhr, null, 1));
  }
  const { categories, audits } = lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const failed = ["accessibility", "best-practices"].flatMap((id) =>
    (categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
  );
  // what the console errors and DevTools issues were, when those audits failed
  const details = ["errors-in-console", "inspector-issues"].flatMap((id) => {
    const items = (audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
    return audits[id]?.score === 1 ? [] : items.map((item) => `${id}: ${JSON.stringify(item).slice(0, 300)}`);
  });
  const performances = runs.map((run) => Math.round((run.categories.performance?.score ?? 0) * 100));
  return {
    details,
    performance: score("performance"),
    performanceRange: `${Math.min(...performances)}–${Math.max(...performances)}`,
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    lcpMs: audits["largest-contentful-paint"]?.numericValue ?? NaN,
    cls: audits["cumulative-layout-shift"]?.numericValue ?? NaN,
    tbtMs: audits["total-blocking-time"]?.numericValue ?? NaN,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failed,
  };
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** "br" when every script arrived as Brotli, else the encodings seen */
function encodings(files: ScriptFile[]): string {
  return [...new Set(files.map((f) => f.encoding || "none"))].join("+");
}

async function main() {
  if (process.env.BENCH_NO_BUILD !== "1") execFileSync("npm", ["run", "build", "--silent"], { stdio: "ignore" });
  const stack = await startTestStack({ auth: { siteUrl: ORIGIN } });
  const app = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(PORT),
      SUPABASE_URL: stack.url,
      SUPABASE_ANON_KEY: stack.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
      SESSION_SECRET: crypto.randomBytes(24).toString("hex"),
    },
    stdio: "ignore",
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await stack.db.exec(fs.readFileSync(path.resolve("supabase/seed.sql"), "utf8"));
    await waitForHttp(`${ORIGIN}/favicon.svg`, 60_000);

    // signed in the way a person is: the login form
    const signedIn = await browser.newContext({ baseURL: ORIGIN });
    const login = await signedIn.newPage();
    await login.goto("/login");
    await login.getByLabel("Email").first().fill(OWNER.email);
    await login.getByLabel("Password").fill(OWNER.password);
    await login.getByRole("button", { name: "Log in", exact: true }).click();
    await login.waitForURL(/\/teams$/);
    await login.close();
    const cookies = await signedIn.cookies(ORIGIN);

    const rows: string[][] = [];
    for (const route of ROUTES) {
      // a fresh context per page: nothing cached, as on a first visit
      const context = await browser.newContext({ baseURL: ORIGIN });
      if (route.signedIn) await context.addCookies(cookies);
      const consoleErrors: string[] = [];
      context.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(message.text());
      });
      context.on("weberror", (error) => consoleErrors.push(String(error.error())));
      const js = await measureJs(context, route.url, WATCH_MS);
      await context.close();
      const lh =
        (route.lighthouse || process.env.BENCH_LIGHTHOUSE_ALL === "1") && process.env.BENCH_LIGHTHOUSE !== "0"
          ? await runLighthouse(`${ORIGIN}${route.url}`, route.signedIn ? cookies : [])
          : null;
      const row = [
        route.name,
        kib(js.firstBytes),
        kib(js.totalBytes),
        kib(gzipCopyBytes(js.files)),
        encodings(js.files),
        String(js.files.length),
        `${kib(js.documentWire)} / ${kib(js.documentBytes)}`,
        lh ? String(lh.performance) : "",
        lh ? String(lh.accessibility) : "",
        lh ? String(lh.bestPractices) : "",
        lh ? (lh.lcpMs / 1000).toFixed(2) : "",
        lh ? lh.cls.toFixed(3) : "",
        lh ? String(Math.round(lh.tbtMs)) : "",
      ];
      rows.push(row);
      if (process.env.BENCH_VERBOSE)
        console.log(route.name, js.files.map((f) => `${f.path.replace("/assets/", "")} ${f.bytes}`).join(", "));
      console.error(`[bench:web] ${row.join(" | ")}`);
      for (const error of consoleErrors) console.error(`[bench:web]   console error: ${error}`);
      for (const detail of lh?.details ?? []) console.error(`[bench:web]   Lighthouse ${detail}`);
      if (lh)
        console.error(
          `[bench:web]   Lighthouse median of ${LIGHTHOUSE_RUNS} runs (performance ${lh.performanceRange}), benchmarkIndex ${Math.round(lh.benchmarkIndex)}${lh.failed.length ? `; not passed: ${lh.failed.join(", ")}` : ""}`,
        );
    }
    const header = [
      "route",
      "JS first (KiB sent)",
      "JS total 5 s (KiB sent)",
      "same as gzip -9 (KiB)",
      "sent as",
      "scripts",
      "document (KiB sent / raw)",
      "perf",
      "a11y",
      "best pr.",
      "LCP (s)",
      "CLS",
      "TBT (ms)",
    ];
    console.log(`| ${header.join(" | ")} |`);
    console.log(`| ${header.map(() => "---").join(" | ")} |`);
    for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  } finally {
    await browser.close();
    app.kill("SIGTERM");
    await stack.close();
  }
}

await main();
