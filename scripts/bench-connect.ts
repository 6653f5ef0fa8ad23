/**
 * npm run bench:tokens / npm run bench:webhooks — the figures of issue 40
 * (docs/product.md §19), printed, never asserted; docs/decisions/0036.
 *
 * tokens:   the same REST read (a project's 50 tasks) with a session's JWT and
 *           with an API token's access token, interleaved, p50/p95; what the
 *           exchange at /functions/v1/api-token costs (first call: the
 *           function's Deno process starts; then each call), and a request
 *           with a cached access token (the client reuses it for 60 s).
 * webhooks: 1,000 task changes within a minute, bulk edits (10 × 50 tasks)
 *           and REST writes as a person (500), to a loopback receiver; commit
 *           (the write's answer) → delivery, p50/p95, all delivered? Then the
 *           receiver is stopped for 2 minutes while 100 more changes are made:
 *           when did they all arrive, none lost, none twice (by webhook-id)?
 *           BENCH_OUTAGE=0 skips that part (it takes about 8 minutes: the
 *           back-off is 1 then 5 minutes).
 * On PGlite in this process, with the scheduler on (pg_cron's 5-second tick).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { newApiToken } from "../app/lib/api-tokens.server.ts";
import { makePerson, makeTeam } from "../tests/support/realtime.ts";
import { startTestStack } from "../tests/support/stack.ts";

const which = process.argv[2] ?? "tokens";
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x: number) => `${x.toFixed(1)} ms`;

const stack = await startTestStack({ scheduler: { cron: which === "webhooks" } });
try {
  const olive = await makePerson(stack, "Olive");
  const { team, project } = await makeTeam(stack, [[olive, "owner"]]);
  await stack.db.query("insert into tasks (project_id, title) select $1, 'Task ' || n from generate_series(1, 500) n", [
    project,
  ]);
  if (which === "tokens") await tokens(olive.token, team, project);
  else await webhooks(olive, project);
} finally {
  await stack.close();
}

async function tokens(sessionJwt: string, team: string, project: string) {
  const made = newApiToken();
  await stack.db.query(
    `insert into api_tokens (user_id, name, team_id, mode, token_hash, prefix, aal, expires_at)
     select (select user_id from team_members where team_id = $1 limit 1), 'bench', $1, 'read', $2, $3, 'aal1', now() + interval '30 days'`,
    [team, made.hash, made.prefix],
  );
  const exchange = async () => {
    const t = performance.now();
    const res = await fetch(`${stack.url}/functions/v1/api-token`, {
      method: "POST",
      headers: { Authorization: `Bearer ${made.token}` },
    });
    const body = (await res.json()) as { access_token: string };
    return { ms: performance.now() - t, token: body.access_token };
  };
  const first = await exchange();
  const exchanges: number[] = [];
  for (let i = 0; i < 50; i++) exchanges.push((await exchange()).ms);
  const access = (await exchange()).token;
  const read = async (jwt: string) => {
    const t = performance.now();
    const res = await fetch(`${stack.url}/rest/v1/tasks?select=id,number,title&project_id=eq.${project}&limit=50`, {
      headers: { apikey: stack.anonKey, Authorization: `Bearer ${jwt}` },
    });
    const rows = (await res.json()) as unknown[];
    if (res.status !== 200 || rows.length !== 50) throw new Error(`read: ${res.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 30; i++) await Promise.all([read(sessionJwt), read(access)]).catch(() => {});
  const session: number[] = [];
  const token: number[] = [];
  for (let i = 0; i < 300; i++) {
    if (i % 2) {
      session.push(await read(sessionJwt));
      token.push(await read(access));
    } else {
      token.push(await read(access));
      session.push(await read(sessionJwt));
    }
  }
  console.log(`exchange, first call (the function's process starts): ${ms(first.ms)}`);
  console.log(`exchange, each call after: p50 ${ms(pct(exchanges, 0.5))}, p95 ${ms(pct(exchanges, 0.95))}`);
  console.log(`GET 50 tasks, session JWT:      p50 ${ms(pct(session, 0.5))}, p95 ${ms(pct(session, 0.95))}`);
  console.log(`GET 50 tasks, API token (cached access token): p50 ${ms(pct(token, 0.5))}, p95 ${ms(pct(token, 0.95))}`);
  console.log(`token / session p50: ${(pct(token, 0.5) / pct(session, 0.5)).toFixed(2)}×`);
}

async function webhooks(olive: { id: string; token: string }, project: string) {
  await stack.db.query("insert into webhook_allowed_hosts (host) values ('127.0.0.1')");
  const arrivals = new Map<string, number>();
  const ids = new Map<string, number>();
  let up = true;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (!up) {
        req.socket.destroy();
        return;
      }
      const id = String(req.headers["webhook-id"]);
      ids.set(id, (ids.get(id) ?? 0) + 1);
      const { data } = JSON.parse(body) as { data: { task: { title: string } } };
      if (!arrivals.has(data.task.title)) arrivals.set(data.task.title, performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await stack.db.asRequest(
    { role: "authenticated", claims: { sub: olive.id, role: "authenticated", aud: "authenticated" } },
    (tx) =>
      tx.query("select public.create_webhook($1, $2, array['task.changed'], 'standard')", [
        project,
        `http://127.0.0.1:${port}/in`,
      ]),
  );
  const { rows: tasks } = await stack.db.query<{ id: string }>(
    "select id from tasks where project_id = $1 order by number",
    [project],
  );
  const rest = (path: string, body: unknown, method = "PATCH") =>
    fetch(`${stack.url}/rest/v1${path}`, {
      method,
      headers: {
        apikey: stack.anonKey,
        Authorization: `Bearer ${olive.token}`,
        "Content-Type": "application/json",
        Prefer: "return=minimal",
      },
      body: JSON.stringify(body),
    });
  const committed = new Map<string, number>();
  const started = performance.now();
  // 1,000 changes in about a minute: 10 bulk edits of 50 tasks (a title each, by SQL in one
  // statement as the bulk edit's UPDATE is) and 500 REST writes, spread over 60 s
  const bulk: Array<() => Promise<void>> = [];
  const writes: Array<() => Promise<void>> = [];
  for (let b = 0; b < 10; b++) {
    const slice = tasks.slice(b * 50, b * 50 + 50).map((t) => t.id);
    bulk.push(async () => {
      await stack.db.asRequest(
        { role: "authenticated", claims: { sub: olive.id, role: "authenticated", aud: "authenticated" } },
        (tx) => tx.query("update tasks set title = 'bulk ' || $2 || ' ' || id where id = any ($1::uuid[])", [slice, b]),
      );
      const at = performance.now();
      for (const id of slice) committed.set(`bulk ${b} ${id}`, at);
    });
  }
  for (let i = 0; i < 500; i++) {
    const id = tasks[i].id;
    writes.push(async () => {
      const title = `api ${i} ${id}`;
      const res = await rest(`/tasks?id=eq.${id}`, { title });
      if (res.status !== 204) throw new Error(`write ${res.status}`);
      committed.set(title, performance.now());
    });
  }
  // interleave: a bulk edit every 50 REST writes, at an even pace over 60 s
  const order = writes.flatMap((job, i) => (i % 50 === 49 ? [job, bulk[(i - 49) / 50]] : [job]));
  const gap = 60_000 / order.length;
  for (let i = 0; i < order.length; i++) {
    const due = started + i * gap;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await order[i]();
  }
  const wroteIn = performance.now() - started;
  const until = performance.now() + 60_000;
  while (arrivals.size < committed.size && performance.now() < until) await new Promise((r) => setTimeout(r, 100));
  const lags = [...committed].filter(([t]) => arrivals.has(t)).map(([t, at]) => arrivals.get(t)! - at);
  console.log(`${committed.size} changes written in ${(wroteIn / 1000).toFixed(1)} s; delivered ${lags.length}`);
  console.log(`commit → delivery: p50 ${ms(pct(lags, 0.5))}, p95 ${ms(pct(lags, 0.95))}, max ${ms(Math.max(...lags))}`);
  const twice = [...ids.values()].filter((n) => n > 1).length;
  console.log(`webhook-ids received more than once: ${twice}`);

  if (process.env.BENCH_OUTAGE === "0") return;
  // the receiver goes down for 2 minutes while 100 more changes are made
  arrivals.clear();
  up = false;
  const down = performance.now();
  const outage: string[] = [];
  for (let i = 0; i < 100; i++) {
    const title = `outage ${i} ${tasks[i].id}`;
    await rest(`/tasks?id=eq.${tasks[i].id}`, { title });
    outage.push(title);
    await new Promise((r) => setTimeout(r, 600));
  }
  while (performance.now() - down < 120_000) await new Promise((r) => setTimeout(r, 500));
  up = true;
  const back = performance.now();
  console.log("receiver back after 2 minutes; waiting for the retries (back-off 1 min, then 5 min)…");
  const deadline = back + 9 * 60_000;
  while (outage.some((t) => !arrivals.has(t)) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
  }
  const got = outage.filter((t) => arrivals.has(t)).length;
  const last = Math.max(...outage.map((t) => arrivals.get(t) ?? 0));
  console.log(
    `outage: ${got}/100 delivered, the last ${((last - back) / 1000).toFixed(0)} s after the receiver came back`,
  );
  const { rows: states } = await stack.db.query<{ status: string; n: number }>(
    "select status, count(*)::int as n from webhook_deliveries group by status order by status",
  );
  console.log(`deliveries: ${states.map((s) => `${s.status} ${s.n}`).join(", ")}`);
  console.log(`webhook-ids received more than once: ${[...ids.values()].filter((n) => n > 1).length}`);
  server.close();
}
