/**
 * npm run bench:notifications — the figures of issue 25 (docs/product.md §10),
 * printed, never asserted:
 *   1. what the event and notification triggers add to a task update and a
 *      comment insert (through the REST API as a person, and the statement
 *      alone in the database), triggers on vs off in interleaved rounds;
 *   2. from a comment to the recipient's bell: the request's start to the
 *      notification's INSERT reaching the recipient over Realtime, p50/p95;
 *   3. send-notifications' throughput for 1,000 pending notifications (1,000
 *      emails into the stack's inbox through SMTP);
 *   4. the task page's server time (the BUILT app's request handler) with
 *      500 events and 200 comments beside one with none, and its backend
 *      requests' sequential depth (with 50 ms added to each).
 * On PGlite in this process (BENCH_DATABASE_URL: not supported here).
 */
import { performance } from "node:perf_hooks";
import { sequentialDepth } from "../stack/request-log.ts";
import { loadBuiltApp, signInWithCookies } from "../tests/support/built-app.ts";
import { Inbox, makePerson, makeTeam, type Person } from "../tests/support/realtime.ts";
import { startTestStack } from "../tests/support/stack.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const OPS_PER_ROUND = 25;
const BELL_SAMPLES = Number(process.env.BENCH_BELL_SAMPLES ?? 100);
const PENDING = 1000;
const PAGE_RUNS = Number(process.env.BENCH_RUNS ?? 15);
const APP_ORIGIN = "http://127.0.0.1:4999";
/** BENCH_ONLY=1,3 runs some of the four */
const only = (n: number) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(",").includes(String(n));

const TRIGGERS: Array<[table: string, trigger: string]> = [
  ["tasks", "tasks_record_insert"],
  ["tasks", "tasks_record_update"],
  ["comments", "comments_record_insert"],
  ["comments", "comments_record_update"],
  ["comments", "comments_record_delete"],
  ["attachments", "attachments_record_change"],
  ["task_events", "task_events_notify"],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x: number) => `${x.toFixed(2)} ms`;

const stack = await startTestStack({ auth: { siteUrl: APP_ORIGIN }, smtpPort: 0 });
const lines: string[] = [];
try {
  // A team: Olive acts; three watchers (one of them the assignee); a project and a task.
  const [olive, ...watchers] = await Promise.all(["Olive", "Wanda", "Walt", "Wes"].map((n) => makePerson(stack, n)));
  const { team, project } = await makeTeam(stack, [
    [olive, "owner"],
    ...watchers.map((w): [Person, "member"] => [w, "member"]),
  ]);
  const { rows: slugs } = await stack.db.query<{ slug: string }>("select slug from teams where id = $1", [team]);
  const slug = slugs[0].slug;
  const { data: task } = await olive.client
    .from("tasks")
    .insert({ project_id: project, title: "Benchmark task", assignee_id: watchers[0].id })
    .select("id")
    .single();
  const taskId = (task as { id: string }).id;
  for (const w of watchers)
    await stack.db.query("insert into task_watchers (task_id, user_id) values ($1, $2) on conflict do nothing", [
      taskId,
      w.id,
    ]);

  if (only(1)) {
    await overhead(olive, taskId, watchers, "with the local stack's Realtime capture (a trigger per published row)");
    // hosted Realtime reads the WAL: nothing runs in the writing transaction, nothing drains after it
    await stack.db.exec("alter table public.notifications disable trigger realtime_capture");
    await overhead(
      olive,
      taskId,
      watchers,
      "the notifications' capture off (as on hosted, where Realtime reads the WAL)",
    );
    await stack.db.exec("alter table public.notifications enable trigger realtime_capture");
  }
  if (only(2)) await bell(olive, watchers[1], taskId);
  if (only(3)) await throughput(team, project);
  if (only(4)) await taskPage(team, slug, project);
} finally {
  await stack.close();
}
for (const line of lines) console.log(line);

async function setTriggers(on: boolean) {
  for (const [table, trigger] of TRIGGERS)
    await stack.db.exec(`alter table public.${table} ${on ? "enable" : "disable"} trigger ${trigger}`);
}

/** 1. A task update (title and assignee: one event, one notification) and a comment (one event, three notifications). */
async function overhead(actor: Person, taskId: string, watchers: Person[], label: string) {
  let n = 0;
  const update = () =>
    actor.client
      .from("tasks")
      .update({ title: `Benchmark task ${++n}`, assignee_id: watchers[n % 2].id })
      .eq("id", taskId)
      .then(({ error }) => {
        if (error) throw error;
      });
  const comment = () =>
    actor.client
      .from("comments")
      .insert({ task_id: taskId, body: `Comment ${++n}` })
      .then(({ error }) => {
        if (error) throw error;
      });
  const claims = { role: "authenticated", claims: { sub: actor.id, role: "authenticated", aud: "authenticated" } };
  const sqlUpdate = () =>
    stack.db.asRequest(claims, (tx) =>
      tx.query("update tasks set title = $2, assignee_id = $3 where id = $1", [
        taskId,
        `Benchmark task ${++n}`,
        watchers[n % 2].id,
      ]),
    );
  const sqlComment = () =>
    stack.db.asRequest(claims, (tx) =>
      tx.query("insert into comments (task_id, body) values ($1, $2)", [taskId, `C ${++n}`]),
    );
  const cases = {
    "task update (REST)": update,
    "comment insert (REST)": comment,
    "task update (SQL)": sqlUpdate,
    "comment insert (SQL)": sqlComment,
  };
  const times: Record<string, { on: number[]; off: number[] }> = {};
  for (const name of Object.keys(cases)) times[name] = { on: [], off: [] };
  for (let w = 0; w < 10; w++) for (const op of Object.values(cases)) await op();
  for (let round = 0; round < ROUNDS; round++) {
    for (const on of round % 2 === 0 ? [true, false] : [false, true]) {
      await setTriggers(on);
      for (const [name, op] of Object.entries(cases)) {
        for (let i = 0; i < OPS_PER_ROUND; i++) {
          const started = performance.now();
          await op();
          times[name][on ? "on" : "off"].push(performance.now() - started);
        }
      }
    }
  }
  await setTriggers(true);
  lines.push(
    `1. Trigger overhead, ${label} (${ROUNDS} interleaved rounds × ${OPS_PER_ROUND}; median per operation, ${process.env.TEST_DATABASE_URL ? "native PostgreSQL" : "PGlite"}):`,
  );
  for (const [name, { on, off }] of Object.entries(times)) {
    lines.push(
      `   ${name.padEnd(22)} without ${ms(median(off))}, with events and notifications ${ms(median(on))}: ratio ${(median(on) / median(off)).toFixed(2)}×`,
    );
  }
}

/** 2. Olive comments; Walt (a watcher) hears of it over Realtime. */
async function bell(actor: Person, recipient: Person, taskId: string) {
  const inbox = new Inbox<number>();
  const channel = recipient.client
    .channel(`bench-bell-${Date.now()}`)
    .on(
      "postgres_changes",
      { event: "INSERT", schema: "public", table: "notifications", filter: `recipient_id=eq.${recipient.id}` },
      () => inbox.push(performance.now()),
    );
  await new Promise<void>((resolve, reject) =>
    channel.subscribe((status) => (status === "SUBSCRIBED" ? resolve() : status === "CHANNEL_ERROR" ? reject() : null)),
  );
  const delays: number[] = [];
  for (let i = 0; i < BELL_SAMPLES + 5; i++) {
    const before = inbox.items.length;
    const started = performance.now();
    const { error } = await actor.client.from("comments").insert({ task_id: taskId, body: `Bell ${i}` });
    if (error) throw error;
    const items = await inbox.until(before + 1, 5000);
    if (i >= 5) delays.push(items[before] - started);
  }
  await recipient.client.removeChannel(channel);
  lines.push(
    `2. Comment → the recipient's bell over Realtime (request start to the INSERT received, n=${BELL_SAMPLES}): p50 ${ms(pct(delays, 0.5))}, p95 ${ms(pct(delays, 0.95))}, max ${ms(Math.max(...delays))}`,
  );
}

/** 3. 1,000 people, one pending notification each, sent by the function. */
async function throughput(team: string, project: string) {
  const call = async () => {
    const res = await fetch(`${stack.url}/functions/v1/send-notifications`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.serviceRoleKey}`, "content-type": "application/json" },
      body: "{}",
    });
    return (await res.json()) as { sent: number; failed: number };
  };
  // nothing else pending, an empty inbox, and the function started once (its Deno boot is not the figure)
  await stack.db.exec("update notifications set email = 'none' where email = 'pending'");
  await fetch(`${stack.url}/inbox/api/v1/messages`, {
    method: "DELETE",
    headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
  });
  await call();
  const { rows } = await stack.db.query<{ id: string }>(
    `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
     select gen_random_uuid(), 'reader-' || n || '@bench.test', 'authenticated', 'authenticated',
            jsonb_build_object('display_name', 'Reader ' || n), now(), now(), now()
     from generate_series(1, $1::int) n returning id`,
    [PENDING],
  );
  await stack.db.query("insert into team_members (team_id, user_id, role) select $1, unnest($2::uuid[]), 'member'", [
    team,
    rows.map((r) => r.id),
  ]);
  const { rows: t } = await stack.db.query<{ id: string }>(
    "insert into tasks (project_id, title) values ($1, 'Read me') returning id",
    [project],
  );
  await stack.db.query(
    `insert into notifications (recipient_id, team_id, task_id, kind, created_at)
     select unnest($1::uuid[]), $2, $3, 'assigned', now() - interval '2 minutes'`,
    [rows.map((r) => r.id), team, t[0].id],
  );
  const started = performance.now();
  let sent = 0;
  let calls = 0;
  while (sent < PENDING && calls < 20) {
    const answer = await call();
    sent += answer.sent;
    calls++;
    if (answer.sent === 0) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const inbox = (await (await fetch(`${stack.url}/inbox/api/v1/messages?limit=1`)).json()) as { total: number };
  lines.push(
    `3. send-notifications, ${PENDING} pending (one per person): ${sent} sent in ${seconds.toFixed(1)} s over ${calls} call(s), ` +
      `${(sent / seconds).toFixed(0)} emails/s; the inbox holds ${inbox.total}`,
  );
}

/** 4. The task page with 500 events and 200 comments beside one with none. */
async function taskPage(team: string, slug: string, project: string) {
  const handle = await loadBuiltApp(stack);
  const email = `page-${Date.now()}@bench.test`;
  const password = "bench-password-1";
  const { data: created } = await stack.adminClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { display_name: "Page Reader" },
  });
  const reader = created.user!.id;
  await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [team, reader]);
  const { rows } = await stack.db.query<{ id: string; number: number }>(
    "insert into tasks (project_id, title) values ($1, 'Busy'), ($1, 'Quiet') returning id, number",
    [project],
  );
  const [busy, quiet] = rows;
  await stack.db.query(
    `insert into task_events (team_id, project_id, task_id, actor_id, kind, data, created_at)
     select $1, $2, $3, $4, 'task_updated',
            jsonb_build_object('changes', jsonb_build_object('priority', jsonb_build_object('from', 'low', 'to', 'high'))),
            now() - n * interval '1 minute'
     from generate_series(1, 500) n`,
    [team, project, busy.id, reader],
  );
  await stack.db.query(
    `insert into comments (task_id, author_id, body, created_at)
     select $1, $2, 'Comment ' || n, now() - n * interval '90 seconds' from generate_series(1, 200) n`,
    [busy.id, reader],
  );
  await stack.db.exec("analyze public.task_events; analyze public.comments");
  const { cookie } = await signInWithCookies(stack, { email, password });
  const view = async (number: number) => {
    const started = performance.now();
    const response = await handle(
      new Request(`${APP_ORIGIN}/teams/${slug}/projects/RT/tasks/${number}`, { headers: { cookie: cookie() } }),
    );
    await response.text();
    if (response.status !== 200) throw new Error(`task page: ${response.status}`);
    return performance.now() - started;
  };
  const times = { busy: [] as number[], quiet: [] as number[] };
  for (let i = 0; i < 3; i++) await Promise.all([view(busy.number), view(quiet.number)]);
  for (let i = 0; i < PAGE_RUNS; i++) {
    times.busy.push(await view(busy.number));
    times.quiet.push(await view(quiet.number));
  }
  stack.setLatency(50);
  const since = Date.now();
  await view(busy.number);
  const logged = stack.requests.list(since).filter((r) => !r.path.includes("/.well-known/"));
  stack.setLatency(0);
  lines.push(
    `4. Task page server time (built app, p50 of ${PAGE_RUNS}): 500 events + 200 comments ${ms(median(times.busy))}, none ${ms(median(times.quiet))}: ratio ${(median(times.busy) / median(times.quiet)).toFixed(2)}×; ` +
      `backend requests ${logged.length}, sequential depth ${sequentialDepth(logged)} (50 ms added to each)`,
  );
}
