/**
 * npm run bench:statuses — what project statuses (issue 24) cost the board.
 *
 * 1. The old board (five enum statuses, free-text labels) against the new one
 *    on the same data: two stacks made by the migrations before the statuses
 *    work are filled alike with 5 columns × 200 tasks, each with a label; the
 *    new migrations move the second one's data over; the board's one backend
 *    read (GET /rest/v1/rpc/board_view, as the signed-in owner) is timed on
 *    both in turns. Prints both p50s and their ratio.
 * 2. The board page's server time through the BUILT app's request handler
 *    (build/, made first when missing) with 12 statuses × 200 tasks against
 *    5 × 200, timed in turns, and the backend requests per page view
 *    (counted by the stack).
 *
 * Prints figures only. BENCH_RUNS (default 15) sets the timed runs per case.
 */
import { createClient } from "@supabase/supabase-js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent, setGlobalDispatcher } from "undici";
import WebSocket from "ws";
import { listMigrations, migrate } from "../stack/db/migrate.ts";
import { reloadSchemaCache } from "../stack/rest/index.ts";
import { startStack, type RunningStack } from "../stack/server.ts";
import { loadBuiltApp, signInWithCookies } from "../tests/support/built-app.ts";
import { startTestStack } from "../tests/support/stack.ts";
import { MIGRATIONS_DIR } from "../tests/support/template.ts";

// A connection kept between two requests can be closed by the stack as the next is sent (ECONNRESET)
// when this shared machine stalls for a second: each request on a connection of its own.
setGlobalDispatcher(new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 }));

const FIRST_NEW = "20261126000300";
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 3;
const PER_COLUMN = 200;
const APP_ORIGIN = "http://127.0.0.1:4999";

const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
const ms = (n: number) => `${n.toFixed(1)} ms`;

/**
 * Each of `runs` in turns (a, b, a, b …), WARMUP rounds first: a stall of
 * this shared machine or a stack's warm-up weighs on all of them alike.
 * Returns each one's times.
 */
async function inTurns(rounds: number, runs: Array<() => Promise<void>>) {
  const times = runs.map(() => [] as number[]);
  for (let i = 0; i < WARMUP + rounds; i++)
    for (const [k, run] of runs.entries()) {
      const started = performance.now();
      await run();
      if (i >= WARMUP) times[k].push(performance.now() - started);
    }
  return times;
}

/** A confirmed owner with a session, and their team. */
async function owner(stack: Pick<RunningStack, "url" | "anonKey" | "serviceRoleKey">, slug: string) {
  const options = { auth: { persistSession: false }, realtime: { transport: WebSocket as never } };
  const admin = createClient(stack.url, stack.serviceRoleKey, options);
  const email = `bench-${Date.now()}@example.com`;
  const password = "bench-password-1";
  const { data: created, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !created.user) throw error ?? new Error("no user");
  const client = createClient(stack.url, stack.anonKey, options);
  const { data: session, error: signInError } = await client.auth.signInWithPassword({ email, password });
  if (signInError || !session.session) throw signInError ?? new Error("no session");
  const { data: team, error: teamError } = await client
    .rpc("create_team", { name: "Bench", slug })
    .single<{ id: string }>();
  if (teamError || !team) throw teamError;
  return { userId: created.user.id, token: session.session.access_token, email, password, teamId: team.id };
}

/** A stack made by the migrations before the statuses work, filled with 5 columns × 200 labelled tasks. */
async function oldStack(migrationsDir: string) {
  const stack = await startStack({
    port: 0,
    smtpPort: 0,
    dataDir: null,
    seedFile: null,
    migrationsDir,
    quiet: true,
    auth: { tokenRequestsPerMinute: 100_000, bcryptCost: 4 },
  });
  const who = await owner(stack, "bench-old");
  const { rows } = await stack.db.query<{ id: string }>(
    "insert into public.projects (team_id, key, name) values ($1, 'BENCH', 'Benchmark') returning id",
    [who.teamId],
  );
  await stack.db.query(
    `insert into public.tasks (project_id, title, description, status, priority, assignee_id, labels, created_by)
     select $1, 'Task ' || n || ' of the benchmark', repeat('Some words about it. ', 20),
            (array['backlog','todo','in_progress','done','canceled'])[1 + n % 5]::public.task_status,
            (array['none','low','medium','high','urgent'])[1 + n % 5]::public.task_priority,
            case when n % 2 = 0 then $2::uuid end, array['label' || (n % 7)], $2::uuid
     from generate_series(1, $3::int) as n`,
    [rows[0].id, who.userId, 5 * PER_COLUMN],
  );
  await stack.db.exec("analyze public.tasks");
  const board = () =>
    fetch(`${stack.url}/rest/v1/rpc/board_view?team_slug=bench-old&project_key=BENCH`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${who.token}` },
    }).then(async (res) => {
      const body = await res.text();
      if (res.status !== 200 || !body.includes("Task 1 of")) throw new Error(`board_view ${res.status}`);
    });
  return { stack, board };
}

/**
 * Two stacks made and filled alike by the old migrations; the new migrations
 * then move the second one's data over. The two boards are timed in turns
 * (old, new, old, new …), so a stall of this shared machine or a stack's
 * warm-up weighs on both alike.
 */
async function oldAgainstNew() {
  const oldDir = fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-old-migrations-"));
  for (const m of listMigrations(MIGRATIONS_DIR))
    if (m.version < FIRST_NEW) fs.copyFileSync(m.file, path.join(oldDir, path.basename(m.file)));
  const before = await oldStack(oldDir);
  const after = await oldStack(oldDir);
  try {
    const report = await migrate(after.stack.db, { migrationsDir: MIGRATIONS_DIR, seedFile: null });
    await reloadSchemaCache(after.stack.db);
    await after.stack.db.exec("analyze public.tasks; analyze public.task_labels; analyze public.project_statuses");
    const [oldTimes, newTimes] = await inTurns(RUNS, [before.board, after.board]);
    return { applied: report.applied.length, old: p50(oldTimes), new: p50(newTimes) };
  } finally {
    await before.stack.close();
    await after.stack.close();
    fs.rmSync(oldDir, { recursive: true, force: true });
  }
}

async function twelveAgainstFive() {
  const stack = await startTestStack({ auth: { siteUrl: APP_ORIGIN } });
  try {
    const handle = await loadBuiltApp(stack);
    const who = await owner(stack, "bench");
    const { cookie } = await signInWithCookies(stack, { email: who.email, password: who.password });
    const boards: Array<{ statuses: number; view: () => Promise<void>; requests: string[] }> = [];
    for (const statuses of [5, 12]) {
      const key = statuses === 5 ? "FIVE" : "TWELVE";
      const { rows } = await stack.db.query<{ id: string }>(
        "insert into public.projects (team_id, key, name) values ($1, $2, $3) returning id",
        [who.teamId, key, `${statuses} statuses`],
      );
      const projectId = rows[0].id;
      await stack.db.query(
        `insert into public.project_statuses (project_id, name, category, color, wip_limit)
         select $1, 'Step ' || n, 'started', 'teal', 150 from generate_series(1, $2::int) n`,
        [projectId, statuses - 5],
      );
      await stack.db.query(
        `insert into public.tasks (project_id, title, description, status_id, priority, assignee_id, created_by)
         select $1, 'Task ' || n || ' of the benchmark', repeat('Some words about it. ', 20), s.id,
                (array['none','low','medium','high','urgent'])[1 + n % 5]::public.task_priority,
                case when n % 2 = 0 then $2::uuid end, $2::uuid
         from public.project_statuses s cross join generate_series(1, $3::int) as n
         where s.project_id = $1
         order by s.position, n`,
        [projectId, who.userId, PER_COLUMN],
      );
      await stack.db.query(
        `insert into public.labels (team_id, name) select $1, 'label' || g from generate_series(0, 6) g
         on conflict do nothing`,
        [who.teamId],
      );
      await stack.db.query(
        `insert into public.task_labels (task_id, label_id)
         select t.id, l.id from public.tasks t join public.labels l on l.team_id = $2 and l.name = 'label' || (t.number % 7)
         where t.project_id = $1`,
        [projectId, who.teamId],
      );
      await stack.db.exec("analyze public.tasks; analyze public.task_labels; analyze public.project_statuses");
      const url = `${APP_ORIGIN}/teams/bench/projects/${key}`;
      const view = async () => {
        const response = await handle(new Request(url, { headers: { cookie: cookie() } }));
        const html = await response.text();
        if (response.status !== 200 || !html.includes(`${statuses} statuses`))
          throw new Error(`${key}: ${response.status}`);
      };
      const since = Date.now();
      await view();
      const requests = stack.requests
        .list(since)
        .map((r) => r.path)
        .filter((p) => !p.includes("/.well-known/"));
      boards.push({ statuses, view, requests });
    }
    const times = await inTurns(
      RUNS,
      boards.map((b) => b.view),
    );
    return boards.map(({ statuses, requests }, k) => ({ statuses, p50: p50(times[k]), requests }));
  } finally {
    await stack.close();
  }
}

const compared = await oldAgainstNew();
console.log(
  `board_view, 5 columns × ${PER_COLUMN} tasks, the same data: old enum board p50 ${ms(compared.old)}, ` +
    `new (after ${compared.applied} migrations moved it) p50 ${ms(compared.new)}; new/old ${(compared.new / compared.old).toFixed(2)}× (n=${RUNS})`,
);
const [five, twelve] = await twelveAgainstFive();
for (const r of [five, twelve])
  console.log(
    `board page, ${String(r.statuses).padStart(2)} statuses × ${PER_COLUMN} tasks: server time p50 ${ms(r.p50)} (n=${RUNS}); ` +
      `backend requests per page view ${r.requests.length} (${[...new Set(r.requests)].sort().join(", ")})`,
  );
console.log(`12 statuses / 5 statuses: ${(twelve.p50 / five.p50).toFixed(2)}×`);
