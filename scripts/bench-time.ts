/**
 * npm run bench:time — docs/product.md §12's two figures (docs/decisions/0029-time.md).
 *
 * 1. The due-reminders job: 100,000 open assigned tasks with due dates, of
 *    which 1,000 fall in the job's window (today and tomorrow), assignees in
 *    ten time zones. Prints the plan of remind_due_tasks()'s statement
 *    (EXPLAIN ANALYZE: which index, how many rows read) and its run time: a
 *    first run (it makes the reminders; p50 of BENCH_RUNS, the reminders
 *    deleted between runs) and a repeat run (it makes none).
 * 2. A project's calendar page against its board, 500 tasks due this month:
 *    server time p50 through the BUILT app's request handler (signed in), and
 *    the ratio. Builds the app first when build/server/index.js is missing:
 *    delete build/ after changing the app.
 *
 * On the stack's PGlite, or a native PostgreSQL with TEST_DATABASE_URL (as the tests).
 */
import { loadBuiltApp, signInWithCookies } from "../tests/support/built-app.ts";
import { startTestStack } from "../tests/support/stack.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const APP_ORIGIN = "http://127.0.0.1:4999";
const TASKS = 100_000;
const DUE = 1_000;
const ZONES = [
  "UTC",
  "Europe/Berlin",
  "Europe/London",
  "America/New_York",
  "America/Los_Angeles",
  "Asia/Kolkata",
  "Asia/Tokyo",
  "Australia/Sydney",
  "Pacific/Auckland",
  "America/Sao_Paulo",
];

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

const stack = await startTestStack({ auth: { siteUrl: APP_ORIGIN } });
try {
  const { db } = stack;
  await db.query("select cron.unschedule(jobid) from cron.job"); // the migrations' jobs stay out of the figures

  // 1. The reminder job ------------------------------------------------------------------------
  const { rows: people } = await db.query<{ id: string }>(
    `insert into auth.users (id, email, aud, role, created_at, updated_at)
     select gen_random_uuid(), 'remind-' || i || '@bench.test', 'authenticated', 'authenticated', now(), now()
     from generate_series(1, 100) i returning id`,
  );
  await db.query(
    `update profiles set time_zone = ($2::text[])[1 + (abs(hashtext(id::text)) % array_length($2::text[], 1))]
     where id = any($1::uuid[])`,
    [people.map((p) => p.id), ZONES],
  );
  // a team has exactly one owner from its first statement's end: the team and its people in one transaction
  const teams = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      "insert into teams (name, slug, created_by) values ('Bench', 'bench-time', $1) returning id",
      [people[0].id],
    );
    await tx.query(
      `insert into team_members (team_id, user_id, role)
       select $1, p, (case when p = $3 then 'owner' else 'member' end)::team_role from unnest($2::uuid[]) p`,
      [rows[0].id, people.map((p) => p.id), people[0].id],
    );
    return rows;
  });
  const { rows: projects } = await db.query<{ id: string }>(
    "insert into projects (team_id, key, name) values ($1, 'REM', 'Reminders') returning id",
    [teams[0].id],
  );
  // written straight into the table (triggers off for the load: numbers and places given here)
  const loadStarted = performance.now();
  await db.transaction(async (tx) => {
    await tx.query("set local session_replication_role = replica");
    await tx.query(
      `insert into tasks (project_id, number, title, status_id, assignee_id, due_on, position)
       select $1, i, 'Task ' || i, (select s.id from project_statuses s where s.project_id = $1 and s.name = 'To do'),
              ($2::uuid[])[1 + i % 100],
              case when i <= $4 then current_date + (i % 2)
                   -- the rest: 3 to 700 days before or after today, outside the job's window
                   else current_date + (case when i % 2 = 0 then 1 else -1 end) * (3 + i % 698) end,
              i
       from generate_series(1, $3::int) i`,
      [projects[0].id, people.map((p) => p.id), TASKS, DUE],
    );
  });
  await db.query("analyze tasks");
  await db.query("analyze profiles");
  console.log(
    `reminders: ${TASKS.toLocaleString("en")} open assigned tasks with due dates (${DUE.toLocaleString("en")} due today or tomorrow), ` +
      `${people.length} assignees in ${ZONES.length} zones; loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s\n`,
  );

  // at 23:30 UTC every zone's day has passed 08:00 or is the next day, so each run makes reminders
  const { rows: at } = await db.query<{ at: string }>("select (current_date + time '23:30') at time zone 'UTC' as at");
  const runAt = new Date(at[0].at).toISOString();
  const { rows: body } = await db.query<{ src: string }>(
    "select prosrc as src from pg_proc where proname = 'remind_due_tasks'",
  );
  const statement = body[0].src.replaceAll("$1", `'${runAt}'::timestamptz`);
  const { rows: planRows } = await db.query<{ "QUERY PLAN": string }>(`explain (analyze, costs off) ${statement}`);
  const plan = planRows.map((r) => r["QUERY PLAN"]);
  console.log(plan.join("\n"));

  const first: number[] = [];
  const again: number[] = [];
  let made = 0;
  for (let i = 0; i < RUNS; i++) {
    await db.query("delete from due_reminders");
    let started = performance.now();
    const { rows } = await db.query<{ n: number }>("select remind_due_tasks($1) as n", [runAt]);
    first.push(performance.now() - started);
    made = rows[0].n;
    started = performance.now();
    const repeat = await db.query<{ n: number }>("select remind_due_tasks($1) as n", [runAt]);
    again.push(performance.now() - started);
    if (repeat.rows[0].n !== 0) throw new Error("a repeat run made reminders again");
  }
  console.log(
    `\nremind_due_tasks(): first run p50 ${p50(first).toFixed(1)} ms (made ${made}), repeat run p50 ${p50(again).toFixed(1)} ms (made 0), ${RUNS} runs each\n`,
  );

  // 2. The calendar page against the board -------------------------------------------------------
  const handle = await loadBuiltApp(stack);
  const calendarOwner = { email: "calendar@bench.test", password: "bench-password-1" };
  const created = await stack.adminClient().auth.admin.createUser({ ...calendarOwner, email_confirm: true });
  if (created.error || !created.data.user) throw created.error ?? new Error("no user");
  const ownerId = created.data.user.id;
  await db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'admin')", [teams[0].id, ownerId]);
  const { rows: cal } = await db.query<{ id: string; month: string }>(
    `insert into projects (team_id, key, name) values ($1, 'CAL', 'Calendar') returning id, to_char(current_date, 'YYYY-MM') as month`,
    [teams[0].id],
  );
  await db.query(
    `insert into tasks (project_id, title, status_id, assignee_id, due_on)
     select $1, 'Calendar task ' || i,
            (select s.id from project_statuses s where s.project_id = $1 order by s.position offset i % 5 limit 1),
            $2, date_trunc('month', current_date)::date + (i % extract(day from date_trunc('month', current_date) + interval '1 month - 1 day')::int)
     from generate_series(1, 500) i`,
    [cal[0].id, ownerId],
  );
  const cookie = (await signInWithCookies(stack, calendarOwner)).cookie();
  const time = async (url: string) => {
    const view = async () => {
      const started = performance.now();
      const response = await handle(new Request(`${APP_ORIGIN}${url}`, { headers: { cookie } }));
      await response.text();
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      return performance.now() - started;
    };
    for (let w = 0; w < 3; w++) await view();
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) times.push(await view());
    return p50(times);
  };
  const board = await time("/teams/bench-time/projects/CAL");
  const calendar = await time(`/teams/bench-time/projects/CAL/calendar?month=${cal[0].month}`);
  console.log(
    `500 tasks due in ${cal[0].month}: board p50 ${board.toFixed(1)} ms, calendar p50 ${calendar.toFixed(1)} ms, ` +
      `calendar / board ${(calendar / board).toFixed(2)} (${RUNS} views each after 3 warm-up views)`,
  );
} finally {
  await stack.close();
}
