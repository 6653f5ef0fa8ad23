/**
 * npm run bench:functions — the local stack's Edge Functions runtime (real
 * Deno, one process per function): cold start (first request after the
 * function's file changed: process start, module load, the request), warm
 * request latency p50/p99 of export-project on an empty project beside a
 * plain /rest/v1 request for the same project (the ratio is the runtime's
 * cost: the proxy hop, Deno, supabase-js, the function's own REST call), and
 * the time to export a 6,000-task project as CSV. Prints figures only;
 * timings on a shared machine are noisy, so each is a median.
 */
import fs from "node:fs";
import path from "node:path";
import { startTestStack } from "../tests/support/stack.ts";

const WARM_RUNS = Number(process.env.BENCH_N ?? 200);
const COLD_RUNS = Number(process.env.BENCH_COLD ?? 5);
const EXPORT_RUNS = Number(process.env.BENCH_EXPORT ?? 5);
const TASKS = 6000;

const stack = await startTestStack();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

try {
  const email = "bench-owner@example.test";
  const created = await stack.adminClient().auth.admin.createUser({
    email,
    password: "bench-pass-1",
    email_confirm: true,
    user_metadata: { display_name: "Bench Owner" },
  });
  if (created.error) throw created.error;
  const owner = stack.anonClient();
  const signIn = await owner.auth.signInWithPassword({ email, password: "bench-pass-1" });
  if (signIn.error) throw signIn.error;
  const token = signIn.data.session!.access_token;
  const team = await owner.rpc("create_team", { name: "Bench", slug: "bench-functions" }).single<{ id: string }>();
  if (team.error) throw team.error;
  const project = async (key: string) =>
    (
      await stack.db.query<{ id: string }>(
        "insert into projects (team_id, key, name) values ($1, $2, $2) returning id",
        [team.data.id, key],
      )
    ).rows[0].id;
  const empty = await project("EMPTY");
  const big = await project("BIG");
  await stack.db.query(
    `insert into tasks (project_id, number, title, status_id, priority, position, assignee_id)
     select $1, n, 'Task ' || n || ', with "quotes"',
            (select s.id from project_statuses s where s.project_id = $1 and s.position = n % 4),
            'medium', n / 4, $2
     from generate_series(1, $3) n`,
    [big, created.data.user.id, TASKS],
  );
  // two team labels on every task, as the free-text ones were
  await stack.db.query(
    `with l as (
       insert into labels (team_id, name) select $2, 'label-' || g from generate_series(0, 6) g
       union all select $2, 'bench' returning id, name
     )
     insert into task_labels (task_id, label_id)
     select t.id, l.id from tasks t join l on l.name in ('bench', 'label-' || (t.number % 7)) where t.project_id = $1`,
    [big, team.data.id],
  );

  // The seeding blocks this process's event loop (PGlite) for seconds: the keep-alive sockets of the
  // sign-in are past the server's idle timeout by now, and a request sent down one of them before the
  // server's close is processed fails ("other side closed"). Let the server close them first.
  await new Promise((resolve) => setTimeout(resolve, 5500));

  const headers = { authorization: `Bearer ${token}`, apikey: stack.anonKey };
  const exportUrl = (id: string) => `${stack.url}/functions/v1/export-project?project_id=${id}`;
  const restUrl = `${stack.url}/rest/v1/projects?select=id,key,name&id=eq.${empty}`;
  const get = async (url: string) => {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${body}`);
    return { ms: performance.now() - t0, body };
  };

  // Cold starts: touching the file makes the runtime stop the process; the next request starts a new one.
  const entry = path.resolve("supabase/functions/export-project/index.ts");
  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const now = new Date();
    fs.utimesSync(entry, now, now);
    await new Promise((r) => setTimeout(r, 300));
    cold.push((await get(exportUrl(empty))).ms);
  }

  const warmFn: number[] = [];
  const warmRest: number[] = [];
  for (let i = 0; i < 20; i++) {
    await get(exportUrl(empty));
    await get(restUrl);
  }
  for (let i = 0; i < WARM_RUNS; i++) {
    warmFn.push((await get(exportUrl(empty))).ms);
    warmRest.push((await get(restUrl)).ms);
  }

  const exports: number[] = [];
  let lines = 0;
  let bytes = 0;
  for (let i = 0; i < EXPORT_RUNS; i++) {
    const { ms: t, body } = await get(exportUrl(big));
    exports.push(t);
    lines = body.split("\r\n").length - 2;
    bytes = Buffer.byteLength(body);
  }

  console.log(`Edge Functions on Deno (local stack, ${stack.db.kind}); medians on a shared machine, noisy`);
  console.log(
    `cold start (first request after a change), median of ${COLD_RUNS}: ${ms(median(cold))}  [${cold.map((x) => x.toFixed(0)).join(", ")}]`,
  );
  console.log(
    `warm export-project (empty project), ${WARM_RUNS} requests: p50 ${ms(pct(warmFn, 50))}  p99 ${ms(pct(warmFn, 99))}`,
  );
  console.log(
    `plain /rest/v1 select of that project:       p50 ${ms(pct(warmRest, 50))}  p99 ${ms(pct(warmRest, 99))}`,
  );
  console.log(
    `ratio function / rest: p50 ${(pct(warmFn, 50) / pct(warmRest, 50)).toFixed(2)}x  p99 ${(pct(warmFn, 99) / pct(warmRest, 99)).toFixed(2)}x`,
  );
  console.log(
    `export of ${lines} tasks (${(bytes / 1024).toFixed(0)} KiB CSV), median of ${EXPORT_RUNS}: ${ms(median(exports))}  [${exports.map((x) => x.toFixed(0)).join(", ")}]`,
  );
} finally {
  await stack.close();
}
