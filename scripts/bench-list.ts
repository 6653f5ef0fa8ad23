/**
 * npm run bench:list — the list view against the board (docs/decisions/0030):
 * a project of 5,000 tasks; server time (p50 over repeated page views,
 * through the BUILT app's Remix request handler, signed in) of the board,
 * the list sorted by due date at page 1 and page 50, and the ratio list/board
 * (goal ≤ 1.5); then bulk edits of 100 tasks (one backend request each,
 * counted by the stack). Builds the app first when build/server/index.js is
 * missing. Prints figures only.
 */
import { loadBuiltApp, signInWithCookies } from "../tests/support/built-app.ts";
import { startTestStack } from "../tests/support/stack.ts";

const TASKS = 5000;
const WARMUP = 3;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const APP_ORIGIN = "http://127.0.0.1:4999";

const stack = await startTestStack({ auth: { siteUrl: APP_ORIGIN } });
const serviceHeaders = { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` };

try {
  const handle = await loadBuiltApp(stack);
  const email = `bench-${Date.now()}@example.com`;
  const password = "bench-password-1";
  const { data: created, error: userError } = await stack.adminClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { display_name: "Bench Owner" },
  });
  if (userError || !created.user) throw userError ?? new Error("no user");
  const userId = created.user.id;
  const { client: ssr, cookie: cookieHeader } = await signInWithCookies(stack, { email, password });
  const { data: team, error: teamError } = await ssr
    .rpc("create_team", { name: "Bench", slug: "bench" })
    .single<{ id: string }>();
  if (teamError || !team) throw teamError;
  const cookie = cookieHeader();

  const { rows } = await stack.db.query<{ id: string }>(
    "insert into public.projects (team_id, key, name) values ($1, 'BIG', $2) returning id",
    [team.id, `${TASKS} tasks`],
  );
  const projectId = rows[0].id;
  // spread over the project's five statuses, with one of seven team labels each
  await stack.db.query(
    `insert into public.tasks (project_id, title, description, status_id, priority, assignee_id, due_on, created_by)
     select $1, 'Task ' || n || ' of the benchmark', repeat('Some words about it. ', 20),
            (select s.id from public.project_statuses s where s.project_id = $1 and s.position = n % 5),
            (array['none','low','medium','high','urgent'])[1 + n % 5]::public.task_priority,
            case when n % 2 = 0 then $2::uuid end,
            case when n % 4 = 0 then null else current_date + (n % 400) end,
            $2::uuid
     from generate_series(1, $3::int) as n`,
    [projectId, userId, TASKS],
  );
  await stack.db.query(
    `insert into public.labels (team_id, name, color) select $1, 'label' || n, 'blue' from generate_series(0, 6) n`,
    [team.id],
  );
  await stack.db.query(
    `insert into public.task_labels (task_id, label_id)
     select t.id, l.id from public.tasks t join public.labels l on l.team_id = $2 and l.name = 'label' || (t.number % 7)
     where t.project_id = $1`,
    [projectId, team.id],
  );
  if (!process.env.BENCH_NO_ANALYZE) await stack.db.exec("analyze public.tasks");

  const timeOf = async (path: string, expect: string) => {
    const view = async () => {
      const started = performance.now();
      const response = await handle(new Request(`${APP_ORIGIN}${path}`, { headers: { cookie } }));
      const html = await response.text();
      const ms = performance.now() - started;
      if (response.status !== 200 || !html.includes(expect)) throw new Error(`${path}: ${response.status}`);
      return ms;
    };
    for (let w = 0; w < WARMUP; w++) await view();
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) times.push(await view());
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(times.length / 2)], min: times[0], max: times[times.length - 1] };
  };
  const line = (name: string, t: { p50: number; min: number; max: number }) =>
    `${name.padEnd(34)} p50 ${t.p50.toFixed(1)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)}, n=${RUNS})`;

  const board = await timeOf("/teams/bench/projects/BIG", `${TASKS} tasks`);
  const first = await timeOf("/teams/bench/projects/BIG/list?sort=due", "Task ");
  const fiftieth = await timeOf("/teams/bench/projects/BIG/list?sort=due&page=50", "Task ");
  console.log(`project of ${TASKS} tasks, server time through the built app:`);
  console.log(line("board", board));
  console.log(`${line("list sorted by due, page 1", first)}; list/board ${(first.p50 / board.p50).toFixed(2)}x`);
  console.log(`${line("list sorted by due, page 50", fiftieth)}; list/board ${(fiftieth.p50 / board.p50).toFixed(2)}x`);

  // bulk edit: 100 tasks' priority, through the list's form (one backend request for the edit)
  const { rows: ids } = await stack.db.query<{ id: string }>(
    "select id from public.tasks where project_id = $1 order by number limit 100",
    [projectId],
  );
  const bulkTimes: number[] = [];
  let editRequests = 0;
  for (let r = 0; r < 5; r++) {
    const form = new URLSearchParams([
      ["intent", "bulk"],
      ["change", "priority"],
      ["priority", r % 2 ? "low" : "high"],
    ]);
    for (const { id } of ids) form.append("ids", id);
    await fetch(`${stack.url}/_stack/requests`, { method: "DELETE", headers: serviceHeaders });
    const started = performance.now();
    const response = await handle(
      new Request(`${APP_ORIGIN}/teams/bench/projects/BIG/list`, {
        method: "POST",
        headers: {
          cookie,
          "content-type": "application/x-www-form-urlencoded",
          origin: APP_ORIGIN,
          host: new URL(APP_ORIGIN).host,
        },
        body: form,
      }),
    );
    bulkTimes.push(performance.now() - started);
    if (response.status !== 302 && response.status !== 204 && response.status !== 200)
      throw new Error(`bulk edit: ${response.status}`);
    const logged = (await (await fetch(`${stack.url}/_stack/requests`, { headers: serviceHeaders })).json()) as Array<{
      path: string;
    }>;
    editRequests = logged.filter((l) => l.path === "/rest/v1/rpc/bulk_edit_tasks").length;
  }
  bulkTimes.sort((a, b) => a - b);
  const { rows: changed } = await stack.db.query<{ n: number }>(
    "select count(*)::int as n from public.tasks where id = any($1) and priority = 'high'",
    [ids.map((r) => r.id)],
  );
  console.log(
    `bulk edit of 100 tasks (priority)      p50 ${bulkTimes[2].toFixed(1)} ms (min ${bulkTimes[0].toFixed(1)}, max ${bulkTimes[4].toFixed(1)}, n=5); ` +
      `bulk_edit_tasks requests per edit: ${editRequests}; tasks with the last priority: ${changed[0].n}`,
  );
} finally {
  await stack.close();
}
