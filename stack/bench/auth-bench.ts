/**
 * Figures for the auth service on this machine (no thresholds; it prints):
 *   - cold start of a fresh data folder (migrations included) and of a reopen
 *   - POST /token password and refresh_token requests per second
 *   - memory after start
 *
 *   npm run bench:stack [-- --seconds 3 --concurrency 4 --bcrypt-cost 10]
 *
 * With DATABASE_URL set, the stack runs on that PostgreSQL instead of PGlite
 * (the "fresh data folder" is then only the key folder).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startStack, type RunningStack } from "../server.ts";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const SECONDS = arg("seconds", 3);
const CONCURRENCY = arg("concurrency", 4);
const BCRYPT_COST = arg("bcrypt-cost", 10);

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function timedStart(dataDir: string): Promise<{ stack: RunningStack; ms: number }> {
  const started = performance.now();
  const stack = await startStack({
    port: 0,
    dataDir,
    databaseUrl: process.env.DATABASE_URL || null,
    seedFile: null,
    quiet: true,
    auth: { tokenRequestsPerMinute: 1_000_000, bcryptCost: BCRYPT_COST, emailSendInterval: 0 },
  });
  return { stack, ms: performance.now() - started };
}

/** Runs `op` from `CONCURRENCY` workers for `SECONDS`; returns requests per second and latency percentiles. */
async function load(op: (worker: number) => Promise<void>) {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          await op(worker);
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { rps: latencies.length / SECONDS, p50: pct(0.5), p95: pct(0.95), errors, n: latencies.length };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tb-auth-bench-"));
  try {
    const fresh = await timedStart(dir);
    await fresh.stack.close();
    const reopened = await timedStart(dir);
    const stack = reopened.stack;
    const memory = process.memoryUsage();

    const email = "bench@example.test";
    const password = "bench-pass-123";
    const created = await fetch(`${stack.url}/auth/v1/admin/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.serviceRoleKey}`, "content-type": "application/json" },
      body: JSON.stringify({ email, password, email_confirm: true }),
    });
    if (!created.ok) throw new Error(`could not create the bench user: ${created.status} ${await created.text()}`);

    const token = async (grant: string, body: object) => {
      const res = await fetch(`${stack.url}/auth/v1/token?grant_type=${grant}`, {
        method: "POST",
        headers: { apikey: stack.anonKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${res.status}`);
      return (await res.json()) as { refresh_token: string };
    };

    const passwordRun = await load(async () => {
      await token("password", { email, password });
    });

    const chains = await Promise.all(Array.from({ length: CONCURRENCY }, () => token("password", { email, password })));
    const current = chains.map((s) => s.refresh_token);
    const refreshRun = await load(async (worker) => {
      current[worker] = (await token("refresh_token", { refresh_token: current[worker] })).refresh_token;
    });

    const line = (label: string, r: Awaited<ReturnType<typeof load>>) =>
      `${label.padEnd(30)} ${r.rps.toFixed(1).padStart(8)} req/s   p50 ${r.p50.toFixed(1)} ms   p95 ${r.p95.toFixed(1)} ms   (${r.n} ok, ${r.errors} failed)`;
    console.log(
      `auth bench — ${stack.db.kind}, node ${process.version}, ${os.cpus().length} CPUs, ${CONCURRENCY} concurrent, ${SECONDS} s per run, bcrypt cost ${BCRYPT_COST}`,
    );
    console.log(
      `${"cold start, fresh data folder".padEnd(30)} ${fresh.ms.toFixed(0).padStart(8)} ms (migrations: ${fresh.stack.migrations.applied.length} applied)`,
    );
    console.log(`${"cold start, reopen".padEnd(30)} ${reopened.ms.toFixed(0).padStart(8)} ms`);
    console.log(`${"memory after start".padEnd(30)} rss ${mb(memory.rss)}, heap used ${mb(memory.heapUsed)}`);
    console.log(line("POST /token password", passwordRun));
    console.log(line("POST /token refresh_token", refreshRun));
    await stack.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
