/**
 * npm run bench:board — the board page with 60, 600 and 6,000 tasks in its
 * project: server time (p50 over repeated page views, through the BUILT app's
 * Remix request handler, signed in) and backend requests per page view
 * (counted by the local stack: GET /_stack/requests with the service key).
 * Every third task has two comments and every fifth an attachment.
 * Builds the app first when build/server/index.js is missing. Prints figures only.
 */
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { loadBuiltApp, signInWithCookies } from "../tests/support/built-app.ts";
import { startTestStack } from "../tests/support/stack.ts";

const SIZES = [60, 600, 6000];
const WARMUP = 3;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const APP_ORIGIN = "http://127.0.0.1:4999";

const stack = await startTestStack({ auth: { siteUrl: APP_ORIGIN } });

try {
  const handle = await loadBuiltApp(stack);

  // One owner, one team; a project per size, its tasks written straight into the database.
  const admin = createClient(stack.url, stack.serviceRoleKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as never },
  });
  const email = `bench-${Date.now()}@example.com`;
  const password = "bench-password-1";
  const { data: created, error: userError } = await admin.auth.admin.createUser({
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

  const keys = ["SMALL", "MEDIUM", "LARGE"];
  const results: string[] = [];
  for (const [i, size] of SIZES.entries()) {
    const key = keys[i];
    const { rows } = await stack.db.query<{ id: string }>(
      "insert into public.projects (team_id, key, name) values ($1, $2, $3) returning id",
      [team.id, key, `${size} tasks`],
    );
    const projectId = rows[0].id;
    await stack.db.query(
      `insert into public.tasks (project_id, title, description, status_id, priority, assignee_id, created_by)
       select $1, 'Task ' || n || ' of the benchmark', repeat('Some words about it. ', 20),
              (select s.id from public.project_statuses s where s.project_id = $1 and s.position = n % 5),
              (array['none','low','medium','high','urgent'])[1 + n % 5]::public.task_priority,
              case when n % 2 = 0 then $2::uuid end, $2::uuid
       from generate_series(1, $3::int) as n`,
      [projectId, userId, size],
    );
    // a team label on every task, as the free-text one was
    await stack.db.query(
      `insert into public.labels (team_id, name)
       select $1, 'label' || g from generate_series(0, 6) g on conflict do nothing`,
      [team.id],
    );
    await stack.db.query(
      `insert into public.task_labels (task_id, label_id)
       select t.id, l.id from public.tasks t join public.labels l on l.team_id = $2 and l.name = 'label' || (t.number % 7)
       where t.project_id = $1`,
      [projectId, team.id],
    );
    // two comments on every third task and an attachment on every fifth (the cards' counts)
    await stack.db.query(
      `insert into public.comments (task_id, author_id, body)
       select t.id, $2::uuid, 'A comment on task ' || t.number || ', number ' || c
       from public.tasks t cross join generate_series(1, 2) c
       where t.project_id = $1 and t.number % 3 = 0`,
      [projectId, userId],
    );
    await stack.db.query(
      `insert into public.attachments (task_id, object_path, file_name, size_bytes, uploaded_by)
       select t.id, t.id || '/notes.txt', 'notes.txt', 12, $2::uuid
       from public.tasks t where t.project_id = $1 and t.number % 5 = 0`,
      [projectId, userId],
    );
    // what autovacuum would do on a live database after a bulk load
    if (!process.env.BENCH_NO_ANALYZE)
      await stack.db.exec(
        "analyze public.tasks; analyze public.task_labels; analyze public.comments; analyze public.attachments",
      );

    const url = `${APP_ORIGIN}/teams/bench/projects/${key}`;
    const view = async () => {
      const started = performance.now();
      const response = await handle(new Request(url, { headers: { cookie } }));
      const html = await response.text();
      const ms = performance.now() - started;
      if (response.status !== 200 || !html.includes(`${size} tasks`))
        throw new Error(`board ${key}: ${response.status}`);
      return ms;
    };
    for (let w = 0; w < WARMUP; w++) await view();

    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) times.push(await view());
    times.sort((a, b) => a - b);

    await fetch(`${stack.url}/_stack/requests`, {
      method: "DELETE",
      headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    await view();
    const logged = (await (
      await fetch(`${stack.url}/_stack/requests`, {
        headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
      })
    ).json()) as Array<{ path: string; ms: number; search: string }>;
    if (process.env.BENCH_DEBUG) for (const l of logged) console.error(l.path, l.search.slice(0, 120), l.ms.toFixed(1));

    results.push(
      `board with ${String(size).padStart(5)} tasks: server time p50 ${times[Math.floor(times.length / 2)].toFixed(1)} ms ` +
        `(min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}, n=${RUNS}); backend requests per page view ${logged.length} ` +
        `(${summarise(logged.map((l) => l.path))})`,
    );
  }
  for (const line of results) console.log(line);
} finally {
  await stack.close();
}

function summarise(paths: string[]) {
  const counts = new Map<string, number>();
  for (const p of paths) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts].map(([p, n]) => `${n}× ${p}`).join(", ");
}
