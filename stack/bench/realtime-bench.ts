/**
 * Realtime benchmark: postgres_changes with row-level security on, for 1, 10
 * and 100 subscribed clients (each a different person, so each change is
 * checked once per subscriber, as hosted Realtime does).
 *
 * For each size it prints
 *   - commit-to-delivery latency p50/p99: from the writing statement's commit
 *     returning to the change arriving in a subscriber's callback (every
 *     subscriber of every change counts), beside the commit's own time and
 *     the ratio of the two p50s;
 *   - changes per second sustained: updates written back to back until every
 *     subscriber has all of them;
 *   - the process's RSS (stack and clients share the process; see below).
 *
 *   npm run bench:realtime                        # embedded PGlite
 *   BENCH_DATABASE_URL=postgres://… npm run bench:realtime   # native PostgreSQL (scratch database)
 *
 * Options (env): BENCH_CHANGES (sequential changes measured, default 60),
 * BENCH_BURST (changes in the sustained run, default 200), BENCH_SIZES (default 1,10,100),
 * BENCH_FLOOD_MS (the join flood below, default 5000; 0 skips it).
 *
 * Last, a join flood (issue 22 M6): one socket sends `postgres_changes` joins
 * as fast as it can while another client reads /rest/v1 every 100 ms; it
 * prints how many joins were sent, whether the stack closed the socket, and
 * the reads' p50 and worst latency.
 *
 * The clients are supabase-js 2.109 with the `ws` transport in this same Node
 * process, so their JSON decoding shares the event loop with the stack; the
 * figures are an upper bound of the stack's own cost. The machine is shared:
 * quote medians of several runs.
 */
import crypto from "node:crypto";
import pg from "pg";
import ws from "ws";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { startStack, type RunningStack } from "../server.ts";

const CHANGES = Number(process.env.BENCH_CHANGES ?? 60);
const BURST = Number(process.env.BENCH_BURST ?? 200);
const SIZES = (process.env.BENCH_SIZES ?? "1,10,100").split(",").map(Number);
const FLOOD_MS = Number(process.env.BENCH_FLOOD_MS ?? 5000);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function scratchDatabase(): Promise<{ url?: string; drop: () => Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin) return { drop: async () => {} };
  const name = `teamboard_rtbench_${crypto.randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${pg.escapeIdentifier(name)}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await d.end();
    },
  };
}

async function people(stack: RunningStack, count: number, team: string): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `rt-bench-${i}-${crypto.randomBytes(3).toString("hex")}@bench.test`;
    const { rows } = await stack.db.query<{ id: string }>(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
       values (gen_random_uuid(), $1, 'authenticated', 'authenticated', '{"display_name":"Bench"}', now(), now(), now()) returning id`,
      [email],
    );
    await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [
      team,
      rows[0].id,
    ]);
    tokens.push(
      await stack.keys.sign(
        { sub: rows[0].id, role: "authenticated", aud: "authenticated", email },
        { expiresIn: 3600 },
      ),
    );
  }
  return tokens;
}

async function run(size: number) {
  const scratch = await scratchDatabase();
  const stack = await startStack({ port: 0, dataDir: null, seedFile: null, quiet: true, databaseUrl: scratch.url });
  const clients: SupabaseClient[] = [];
  try {
    // a team must have its owner by the end of the transaction that makes it
    const { team, project } = await stack.db.transaction(async (tx) => {
      const owner = (
        await tx.query<{ id: string }>(
          "insert into auth.users (id, email, aud, role) values (gen_random_uuid(), 'owner@bench.test', 'authenticated', 'authenticated') returning id",
        )
      ).rows[0].id;
      const team = (
        await tx.query<{ id: string }>(
          "insert into teams (name, slug, created_by) values ('Bench', 'bench', $1) returning id",
          [owner],
        )
      ).rows[0].id;
      await tx.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'owner')", [team, owner]);
      const project = (
        await tx.query<{ id: string }>(
          "insert into projects (team_id, key, name) values ($1, 'RT', 'Bench') returning id",
          [team],
        )
      ).rows[0].id;
      return { team, project };
    });
    const task = (
      await stack.db.query<{ id: string }>(
        "insert into tasks (project_id, title) values ($1, 'Counter 0') returning id",
        [project],
      )
    ).rows[0].id;
    // a project of realistic size: the per-subscriber RLS check selects the row by its key among these
    await stack.db.query(
      "insert into tasks (project_id, title) select $1, 'Filler ' || g from generate_series(1, 500) g",
      [project],
    );

    const tokens = await people(stack, size, team);
    const seen = new Map<number, number[]>(); // change n -> arrival times
    let onArrival: (() => void) | null = null;
    await Promise.all(
      tokens.map(async (token) => {
        const client = createClient(stack.url, stack.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: ws as never },
        });
        clients.push(client);
        await client.realtime.setAuth(token);
        await new Promise<void>((resolve, reject) => {
          client
            .channel(`bench-${crypto.randomUUID()}`)
            .on(
              "postgres_changes",
              { event: "UPDATE", schema: "public", table: "tasks", filter: `project_id=eq.${project}` },
              (p) => {
                const n = Number(String((p.new as { title: string }).title).replace("Counter ", ""));
                const list = seen.get(n) ?? [];
                list.push(performance.now());
                seen.set(n, list);
                onArrival?.();
              },
            )
            .subscribe((status) =>
              status === "SUBSCRIBED" ? resolve() : status === "CHANNEL_ERROR" ? reject(new Error(status)) : undefined,
            );
        });
      }),
    );

    const allArrived = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if ((seen.get(n)?.length ?? 0) >= size) {
            onArrival = null;
            resolve();
          }
        };
        onArrival = check;
        check();
      });

    // sequential: one change at a time, each waited for by every subscriber
    const commits: number[] = [];
    const deliveries: number[] = [];
    for (let n = 1; n <= CHANGES + 5; n++) {
      const arrived = allArrived(n);
      const t0 = performance.now();
      await stack.db.query("update tasks set title = $2 where id = $1", [task, `Counter ${n}`]);
      const t1 = performance.now();
      await arrived;
      if (n <= 5) continue; // warm-up
      commits.push(t1 - t0);
      for (const at of seen.get(n)!) deliveries.push(at - t1);
    }
    commits.sort((a, b) => a - b);
    deliveries.sort((a, b) => a - b);

    // sustained: BURST changes back to back
    const first = CHANGES + 6;
    const last = first + BURST - 1;
    const done = allArrivedThrough(seen, first, last, size);
    const started = performance.now();
    for (let n = first; n <= last; n++)
      await stack.db.query("update tasks set title = $2 where id = $1", [task, `Counter ${n}`]);
    const written = performance.now();
    await done;
    const elapsed = performance.now() - started;

    return {
      size,
      commitP50: pct(commits, 50),
      p50: pct(deliveries, 50),
      p99: pct(deliveries, 99),
      changesPerSecond: (BURST / elapsed) * 1000,
      writesPerSecond: (BURST / (written - started)) * 1000,
      rssMb: process.memoryUsage().rss / 1024 / 1024,
    };
  } finally {
    for (const c of clients) await c.removeAllChannels();
    await stack.close();
    await scratch.drop();
  }
}

function allArrivedThrough(seen: Map<number, number[]>, first: number, last: number, size: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      for (let n = first; n <= last; n++) if ((seen.get(n)?.length ?? 0) < size) return;
      clearInterval(timer);
      resolve();
    }, 5);
  });
}

async function flood() {
  const scratch = await scratchDatabase();
  const stack = await startStack({ port: 0, dataDir: null, seedFile: null, quiet: true, databaseUrl: scratch.url });
  const read = () =>
    fetch(`${stack.url}/rest/v1/teams?select=id&limit=1`, { headers: { apikey: stack.keys.anonKey } }).then((r) =>
      r.text(),
    );
  try {
    await read(); // the REST schema is loaded before the clock starts
    const socket = new ws(
      `${stack.url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=2.0.0`,
    );
    await new Promise((resolve) => socket.once("open", resolve));
    let sent = 0;
    let closed = false;
    socket.on("close", () => (closed = true));
    socket.on("error", () => {});
    const until = Date.now() + FLOOD_MS;
    const join = { config: { postgres_changes: [{ event: "*", schema: "public", table: "tasks" }] } };
    const sending = (async () => {
      while (Date.now() < until && !closed && sent < 100_000) {
        for (let i = 0; i < 200 && !closed; i++, sent++)
          socket.send(JSON.stringify([String(sent), String(sent), `realtime:flood-${sent % 50}`, "phx_join", join]));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const latencies: number[] = [];
    const reading = (async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        await read();
        latencies.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await Promise.all([sending, reading]);
    socket.terminate();
    latencies.sort((a, b) => a - b);
    console.log(
      `\njoin flood, ${FLOOD_MS} ms: ${sent} joins sent, socket ${closed ? "closed by the stack" : "still open"}; ` +
        `another client's ${latencies.length} REST reads: p50 ${ms(pct(latencies, 50))}, worst ${ms(latencies[latencies.length - 1])}`,
    );
  } finally {
    await stack.close();
    await scratch.drop();
  }
}

async function main() {
  console.log(
    `Realtime postgres_changes with RLS — ${process.env.BENCH_DATABASE_URL ? "native PostgreSQL" : "PGlite"}; ${CHANGES} sequential changes, ${BURST} in the sustained run\n`,
  );
  console.log(
    "clients | commit p50 | delivery p50 | delivery p99 | p50 ratio | changes/s sustained (writes/s alone) | RSS",
  );
  for (const size of SIZES) {
    const r = await run(size);
    console.log(
      `${String(r.size).padStart(7)} | ${ms(r.commitP50).padStart(10)} | ${ms(r.p50).padStart(12)} | ${ms(r.p99).padStart(12)} | ${(r.p50 / r.commitP50).toFixed(1).padStart(8)}x | ${r.changesPerSecond.toFixed(0).padStart(8)} (${r.writesPerSecond.toFixed(0)}) | ${r.rssMb.toFixed(0)} MB`,
    );
  }
  if (FLOOD_MS > 0) await flood();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
