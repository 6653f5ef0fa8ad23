/**
 * REST service benchmark: requests/second and p50/p99 latency of four typical
 * requests through HTTP, each beside the same work done as SQL directly on
 * the database (no HTTP, no JWT, no planning), and the ratio of the two.
 *
 *   npm run bench:rest                      # embedded PGlite
 *   BENCH_DATABASE_URL=postgres://… npm run bench:rest   # native PostgreSQL (a scratch database is created and dropped)
 *
 * Options (env): BENCH_N (measured iterations per case, default 400), BENCH_CONCURRENCY (default 1).
 */
import crypto from "node:crypto";
import pg from "pg";
import { startStack } from "../server.ts";
import { FIXTURE_SCHEMA, FIXTURE_SQL, SEED_SQL } from "../../tests/support/rest-fixture.ts";
import { reloadSchemaCache } from "../rest/index.ts";

const N = Number(process.env.BENCH_N ?? 400);
const WARMUP = Math.max(20, Math.floor(N / 10));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 1));

interface Stats {
  rps: number;
  p50: number;
  p99: number;
}

async function measure(fn: (i: number) => Promise<void>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        const i = next++;
        const t0 = performance.now();
        await fn(WARMUP + i);
        times.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  return { rps: (N / elapsed) * 1000, p50: pct(50), p99: pct(99) };
}

async function main() {
  let dropDb: (() => Promise<void>) | null = null;
  let databaseUrl: string | undefined;
  const admin = process.env.BENCH_DATABASE_URL;
  if (admin) {
    const name = `teamboard_bench_${crypto.randomBytes(4).toString("hex")}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`create database ${pg.escapeIdentifier(name)}`);
    await c.end();
    const u = new URL(admin);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await d.end();
    };
  }

  const stack = await startStack({
    port: 0,
    dataDir: null,
    databaseUrl: databaseUrl ?? null,
    seedFile: null,
    quiet: true,
    rest: { schemas: ["public", FIXTURE_SCHEMA] },
  });
  try {
    const db = stack.db;
    await db.exec(FIXTURE_SQL + SEED_SQL);
    // a bigger table to page through
    await db.exec(`
      insert into rt.tasks (project_id, title, status, priority)
      select 1 + (g % 3), 'task ' || g, (array['todo','doing','done'])[1 + g % 3]::rt.task_status, g % 5
        from generate_series(1, 5000) g;
      analyze;
    `);
    await reloadSchemaCache(db);
    const base = `${stack.url}/rest/v1`;
    const headers = {
      apikey: stack.serviceRoleKey,
      Authorization: `Bearer ${stack.serviceRoleKey}`,
      "Accept-Profile": FIXTURE_SCHEMA,
      "Content-Profile": FIXTURE_SCHEMA,
      "Content-Type": "application/json",
    };
    const { rows: idRows } = await db.query<{ id: number }>("select id from rt.tasks order by id");
    const ids = idRows.map((r) => r.id);
    const pick = (i: number) => ids[(i * 7919) % ids.length];

    const check = async (res: Response, status: number) => {
      const text = await res.text();
      if (res.status !== status) throw new Error(`unexpected ${res.status}: ${text.slice(0, 200)}`);
    };

    const cases: { name: string; http: (i: number) => Promise<void>; sql: (i: number) => Promise<void> }[] = [
      {
        name: "select by primary key",
        http: async (i) => check(await fetch(`${base}/tasks?id=eq.${pick(i)}&select=*`, { headers }), 200),
        sql: async (i) => {
          await db.query("select coalesce(json_agg(t), '[]')::text from (select * from rt.tasks where id = $1) t", [
            pick(i),
          ]);
        },
      },
      {
        name: "100 rows + embedded project",
        http: async (i) =>
          check(
            await fetch(
              `${base}/tasks?select=id,title,status,project:projects(name)&status=eq.${["todo", "doing"][i % 2]}&order=id&limit=100`,
              {
                headers,
              },
            ),
            200,
          ),
        sql: async (i) => {
          await db.query(
            `select coalesce(json_agg(t), '[]')::text from (
               select k.id, k.title, k.status, row_to_json(p) as project
                 from rt.tasks k left join lateral (select name from rt.projects where id = k.project_id) p on true
                where k.status = $1 order by k.id limit 100) t`,
            [["todo", "doing"][i % 2]],
          );
        },
      },
      {
        name: "insert one row",
        http: async (i) =>
          check(
            await fetch(`${base}/labels`, { method: "POST", headers, body: JSON.stringify({ name: `http-${i}` }) }),
            201,
          ),
        sql: async (i) => {
          await db.query("insert into rt.labels (name) values ($1)", [`sql-${i}`]);
        },
      },
      {
        name: "rpc add(a, b)",
        http: async (i) =>
          check(await fetch(`${base}/rpc/add`, { method: "POST", headers, body: JSON.stringify({ a: i, b: 1 }) }), 200),
        sql: async (i) => {
          await db.query("select rt.add($1, $2)", [i, 1]);
        },
      },
    ];

    const fmt = (n: number, d = 2) => n.toFixed(d).padStart(9);
    console.log(
      `REST bench on ${stack.db.kind}, n=${N} (+${WARMUP} warm-up), concurrency=${CONCURRENCY}\n` +
        `${"case".padEnd(30)}${"http req/s".padStart(11)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}` +
        `${"sql q/s".padStart(11)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"p50 ratio".padStart(11)}`,
    );
    for (const c of cases) {
      const h = await measure(c.http);
      const s = await measure(c.sql);
      console.log(
        `${c.name.padEnd(30)}${fmt(h.rps, 0).padStart(11)}${fmt(h.p50)}${fmt(h.p99)}${fmt(s.rps, 0).padStart(11)}${fmt(s.p50)}${fmt(s.p99)}${fmt(h.p50 / s.p50, 1).padStart(10)}x`,
      );
    }
  } finally {
    await stack.close();
    await dropDb?.();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
