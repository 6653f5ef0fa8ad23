/**
 * Scheduler benchmark (Supabase Cron and pg_net in the local stack).
 *
 *   1. Scheduling delay: BENCH_JOBS jobs (100) on a '1 seconds' schedule for
 *      BENCH_SECONDS (30); for each run, from the second it became due to its
 *      SQL starting. Prints p50 / p99 / max and the runs made against the
 *      runs due (jobs × seconds).
 *   2. Outbound calls per second: BENCH_CALLS (400) POSTs to a local Edge
 *      Function (send-notifications, on the stack's Deno runtime) queued with
 *      net.http_post in one transaction, from its commit to the last answer
 *      recorded in net._http_response; beside the same calls made directly
 *      with fetch from this process, as many at once as pg_net's sender
 *      sends (net.concurrency, 32). Prints both rates and their ratio.
 *
 *   npm run bench:cron                                  # embedded PGlite
 *   BENCH_DATABASE_URL=postgres://… npm run bench:cron    # native PostgreSQL (a scratch database)
 *
 * The machine is shared: quote medians of several runs.
 */
import crypto from "node:crypto";
import pg from "pg";
import type { CronRun } from "../cron/run-job.ts";
import { startStack, type RunningStack } from "../server.ts";

const JOBS = Number(process.env.BENCH_JOBS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CALLS = Number(process.env.BENCH_CALLS ?? 400);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function scratchDatabase(): Promise<{ url?: string; drop: () => Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin) return { drop: async () => {} };
  const name = `teamboard_cronbench_${crypto.randomBytes(4).toString("hex")}`;
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await run(`create database ${pg.escapeIdentifier(name)}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => run(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`) };
}

async function schedulingDelay(databaseUrl: string | undefined) {
  const runs: (CronRun & { due: number | null })[] = [];
  const stack = await startStack({
    port: 0,
    dataDir: null,
    seedFile: null,
    quiet: true,
    databaseUrl,
    scheduler: { cron: true, onRun: (run) => runs.push(run) },
  });
  try {
    // the migrations' own jobs are not what is measured
    await stack.db.query("select cron.unschedule(jobid) from cron.job");
    await stack.db.query(
      "select cron.schedule('bench-' || i, '1 seconds', 'select 1') from generate_series(1, $1::int) as i",
      [JOBS],
    );
    // the first runs start as the jobs are loaded; measure whole seconds after that
    await sleep(1_500);
    const from = Math.ceil(Date.now() / 1000) * 1000;
    const until = from + SECONDS * 1000;
    await sleep(until - Date.now() + 3_000);
    await stack.db.query("select cron.alter_job(jobid, active := false) from cron.job");
    await stack.scheduler.cron.settled();
    const measured = runs.filter((r) => r.due !== null && r.due >= from && r.due < until);
    const delays = measured.map((r) => r.sqlStarted - r.due!).sort((a, b) => a - b);
    const failed = measured.filter((r) => r.status !== "succeeded").length;
    console.log(
      `scheduling delay, ${JOBS} jobs every second for ${SECONDS} s: p50 ${pct(delays, 50)} ms, p99 ${pct(delays, 99)} ms, ` +
        `max ${delays.at(-1)} ms; ${measured.length} runs of ${JOBS * SECONDS} due${failed ? `, ${failed} failed` : ""}`,
    );
  } finally {
    await stack.close();
  }
}

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

async function outboundCalls(databaseUrl: string | undefined) {
  const stack: RunningStack = await startStack({
    port: 0,
    dataDir: null,
    seedFile: null,
    quiet: true,
    databaseUrl,
    scheduler: { cron: false },
  });
  try {
    const url = `${stack.url}/functions/v1/send-notifications`;
    const headers = { "Content-Type": "application/json", Authorization: `Bearer ${stack.serviceRoleKey}` };
    const direct = () => fetch(url, { method: "POST", headers, body: "{}" }).then((r) => r.text());
    await direct(); // the function's Deno worker starts on its first call

    const viaNetOnce = async (calls: number) => {
      let answered = 0;
      let done: () => void = () => {};
      const all = new Promise<void>((resolve) => (done = resolve));
      const stop = stack.scheduler.net.onResult((result) => {
        if (result.status_code !== 200 && failed++ === 0) {
          firstFailure = `${result.status_code ?? ""} ${result.error_msg ?? result.content ?? ""}`.trim();
        }
        if (++answered === calls) done();
      });
      const seconds = await timed(async () => {
        await stack.db.query("select net.http_post($1, headers := $2::jsonb) from generate_series(1, $3::int)", [
          url,
          JSON.stringify(headers),
          calls,
        ]);
        await all;
      });
      stop();
      return seconds;
    };
    const concurrency = stack.config.net.concurrency;
    const viaFetchOnce = (calls: number) =>
      timed(async () => {
        let next = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next++ < calls) await direct();
          }),
        );
      });
    let failed = 0;
    let firstFailure = "";
    // both paths warm up first (Deno's JIT, the stack's own code): the first calls are several times slower
    await viaFetchOnce(CALLS / 4);
    await viaNetOnce(CALLS / 4);
    failed = 0;
    const viaNet = await viaNetOnce(CALLS);
    const viaFetch = await viaFetchOnce(CALLS);
    const netRate = CALLS / viaNet;
    const fetchRate = CALLS / viaFetch;
    console.log(
      `outbound calls to a local function (${CALLS}, ${concurrency} at once): net.http_post ${netRate.toFixed(0)}/s, ` +
        `fetch ${fetchRate.toFixed(0)}/s, ratio ${(netRate / fetchRate).toFixed(2)}${failed ? `; ${failed} not 200 (first: ${firstFailure})` : ""}`,
    );
  } finally {
    await stack.close();
  }
}

const scratch = await scratchDatabase();
try {
  console.log(`database: ${scratch.url ? "native PostgreSQL" : "PGlite"}`);
  await schedulingDelay(scratch.url);
  await outboundCalls(scratch.url);
} finally {
  await scratch.drop();
}
