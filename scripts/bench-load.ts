/**
 * npm run bench:load — many people at once on the BUILT app under the
 * production server (server.mjs), behind a real nginx (round-robin, no sticky
 * sessions), with one app instance and then two. The stack runs in its own
 * process on a throwaway native PostgreSQL (scripts/native-pg.mjs;
 * BENCH_PGLITE=1 uses PGlite instead). Access tokens last 30 s, so sessions
 * are refreshed under load (auth-js refreshes any session within 90 s of
 * expiry: every signed-in request refreshes once).
 *
 * For each instance count: a run with think time (each person one request
 * every 2 s) and one at saturation (each person's two connections send as
 * fast as answers come). Prints requests/s, p50/p95/p99 per route, errors,
 * requests shed (503 at once: server.mjs's limit of requests in flight),
 * logouts, refreshes, peak RSS. Settings: BENCH_PEOPLE (50), BENCH_SECONDS
 * (60), BENCH_INSTANCES ("1,2"), BENCH_JWT_EXP (30), BENCH_MODES
 * ("think,saturation"); the app instances take server.mjs's settings from the
 * environment (MAX_CONCURRENT_REQUESTS, QUEUE_TIMEOUT_MS,
 * BACKEND_MAX_CONNECTIONS; 0 turns a limit off). Builds the app when
 * build/server/index.js is missing.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { startNativePostgres } from "./native-pg.mjs";
import { newSessionSecret, startApp, startBackend, startNginx, type Proc } from "../tests/support/app-cluster.ts";
import {
  createPeople,
  readWorkload,
  refreshTally,
  resetTally,
  runLoad,
  signIn,
  type LoadResult,
} from "../tests/support/load.ts";

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const INSTANCES = (process.env.BENCH_INSTANCES ?? "1,2").split(",").map(Number);
const JWT_EXP = Number(process.env.BENCH_JWT_EXP ?? 30);
const THINK_RATE = 0.5;
const MODES = (process.env.BENCH_MODES ?? "think,saturation").split(",");

if (!fs.existsSync("build/server/index.js")) execFileSync("npx", ["remix", "vite:build"], { stdio: "ignore" });

const pg = process.env.BENCH_PGLITE ? null : ((await startNativePostgres()) as { url: string; stop(): void } | null);
if (!process.env.BENCH_PGLITE && !pg)
  throw new Error("no native PostgreSQL (initdb/pg_ctl); BENCH_PGLITE=1 runs on PGlite");
const backend = await startBackend({ jwtExpiry: JWT_EXP, siteUrl: "http://127.0.0.1", databaseUrl: pg?.url });
const running: Proc[] = [];
try {
  const limits = ["MAX_CONCURRENT_REQUESTS", "QUEUE_TIMEOUT_MS", "BACKEND_MAX_CONNECTIONS"]
    .map((name) => `${name}=${process.env[name] ?? "default"}`)
    .join(" ");
  console.log(
    `${PEOPLE} people, ${SECONDS} s per run, access tokens ${JWT_EXP} s, backend: stack on ${pg ? "native PostgreSQL" : "PGlite"}; app: ${limits}\n`,
  );
  const people = await createPeople(backend, PEOPLE, "acme");
  const workload = await readWorkload(backend, "acme", "WEB");
  const sessionSecret = newSessionSecret();

  for (const instances of INSTANCES) {
    const apps = [];
    for (let i = 0; i < instances; i++) apps.push(await startApp(backend, { sessionSecret }));
    const nginx = await startNginx(apps.map((a) => a.url));
    running.push(...apps, nginx);
    for (const person of people) {
      person.cookies.clear();
      await signIn(nginx.url, person);
    }
    const modes = [
      ["think time", THINK_RATE],
      ["saturation", undefined],
    ] as const;
    for (const [mode, perPersonRate] of modes.filter(([m]) => MODES.includes(m.split(" ")[0]))) {
      await resetTally(backend);
      const result = await runLoad({ baseUrl: nginx.url, people, workload, seconds: SECONDS, perPersonRate });
      const refreshes = await refreshTally(backend);
      report(`${instances} instance${instances > 1 ? "s" : ""} behind nginx, ${mode}`, result, refreshes);
    }
    console.log(
      `peak RSS: ${apps.map((a, i) => `app ${i + 1} ${a.peakRssMb()} MB`).join(", ")}; stack so far ${backend.peakRssMb()} MB\n`,
    );
    for (const p of [nginx, ...apps]) await p.stop();
    running.length = 0;
  }
} catch (error) {
  console.error(`${backend}`);
  throw error;
} finally {
  for (const p of running) await p.stop().catch(() => undefined);
  await backend.stop();
  pg?.stop();
}

function report(title: string, r: LoadResult, refreshes: { done: number; alreadyUsed: number; failed: number }) {
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0).padStart(6) : "     -");
  const errors = Object.entries(r.errors);
  console.log(`── ${title}`);
  console.log(
    `   ${r.requests} requests, ${r.requestsPerSecond.toFixed(1)} requests/s (${((r.requests - r.shed) / r.seconds).toFixed(1)}/s not shed); errors: ${errors.length ? errors.map(([k, n]) => `${k}×${n}`).join(", ") : "0"}; transport errors ${r.transportErrors}; shed ${r.shed}; logouts ${r.logouts}`,
  );
  const rounds = [...r.roundsPerPerson].sort((a, b) => a - b);
  console.log(
    `   full rounds (all six steps answered) per person: min ${rounds[0]}, median ${rounds[Math.floor(rounds.length / 2)]}, total ${rounds.reduce((a, b) => a + b, 0)}`,
  );
  console.log(
    `   refreshes: ${refreshes.done} done for ${r.requests} signed-in requests (expected: about one each); failed ${refreshes.failed}, refresh_token_already_used ${refreshes.alreadyUsed}`,
  );
  console.log("   route      count    p50    p95    p99 (ms)");
  for (const [route, f] of Object.entries(r.routes))
    console.log(`   ${route.padEnd(8)} ${String(f.count).padStart(7)} ${ms(f.p50)} ${ms(f.p95)} ${ms(f.p99)}`);
}
