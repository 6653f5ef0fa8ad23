/**
 * npm run bench:scale — three years of a 50-person team (issue 37), printed, never asserted.
 *
 * The demo seed is loaded and its pages measured as Mia (member@teamboard.local); then a team
 * of 50 people is made beside it, deterministically (setseed), at BENCH_SCALE of three years
 * (1 = 20 projects, 100,000 tasks, 500,000 comments, 2,000,000 activity events, 1,000,000
 * notifications, 50,000 attachments; defaults: 0.1 on native PostgreSQL, 0.02 on PGlite):
 * most tasks done, a few huge projects (project p gets a share ∝ 1/(p+1)), a long tail of
 * comments (the measured task has 400), a fiftieth of the notifications for each person.
 * The same pages and writes are then measured as Sam, one of the 50, in turns with Mia's on
 * the demo team (so the shared machine's load weighs on both alike): server time through the
 * BUILT app's request handler (p50/p95 over BENCH_RUNS views, default 10). The jobs (the
 * reminder job, the email batch's claim; SQL as the job's owner) read every team's rows, so
 * their demo figure is taken before the big team is made.
 * PGlite in this process by default; BENCH_DATABASE_URL=<admin URL of a native PostgreSQL>
 * (e.g. from `node scripts/native-pg.mjs`) runs on it. Builds the app when build/ is missing.
 *
 * BENCH_PRIVATE=1 (issue 41, decision 0041): instead of the demo/scale table, the big team's board
 * and task panel as Pat, a member, with the same data all team-wide and with 10 of the 20
 * projects private (the measured, biggest one among them; Pat and half the team chosen for
 * them), the two states in turns (BENCH_ROUNDS, default 3, each BENCH_RUNS views per case).
 */
import fs from "node:fs";
import { loadBuiltApp, signInWithCookies } from "../tests/support/built-app.ts";
import { startTestStack } from "../tests/support/stack.ts";

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const NATIVE = Boolean(process.env.TEST_DATABASE_URL);
const SCALE = Number(process.env.BENCH_SCALE ?? (NATIVE ? 0.1 : 0.02));
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const WARMUP = 2;
const APP_ORIGIN = "http://127.0.0.1:4999";
const MIA = { email: "member@teamboard.local", password: "teamboard-demo-1" };
const SAM = { email: "sam@scale.test", password: "scale-password-1" };
const PAT = { email: "pat@scale.test", password: "scale-password-1" };
const PRIVATE = Boolean(process.env.BENCH_PRIVATE);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SCALE_TEAM = "5ca1e000-0000-4000-8000-000000000000";
const N = {
  people: 50,
  projects: 20,
  tasks: Math.round(100_000 * SCALE),
  comments: Math.round(500_000 * SCALE),
  events: Math.round(2_000_000 * SCALE),
  notifications: Math.round(1_000_000 * SCALE),
  attachments: Math.round(50_000 * SCALE),
};

type Where = { team: string; key: string; task: number; q: string };
type Timing = { p50: number; p95: number };
const stack = await startTestStack({ auth: { siteUrl: APP_ORIGIN } });
const started = Date.now();
let handle: Awaited<ReturnType<typeof loadBuiltApp>>;
try {
  await stack.db.exec(fs.readFileSync("supabase/seed.sql", "utf8"));
  handle = await loadBuiltApp(stack);
  const { rows: seeded } = await stack.db.query<{ n: number }>(
    "select t.number as n from tasks t join projects p on p.id = t.project_id where p.key = 'WEB' order by t.number limit 1",
  );
  const demo: Where = { team: "acme", key: "WEB", task: seeded[0].n, q: "task" };
  const mia = (await signInWithCookies(stack, MIA)).cookie();
  // the app's and the database's first runs (not counted); BENCH_PRIVATE measures the big team only
  if (!PRIVATE) await timeCases({ demo: casesFor(mia, demo) }, 1);
  // the jobs read every team's rows: the demo's figure is the demo database's, before the team is made
  const jobsBefore = PRIVATE ? {} : (await timeCases({ demo: casesFor(mia, demo, "jobs") })).demo;

  const made = Date.now();
  const scale = await makeTeam();
  const makeSeconds = (Date.now() - made) / 1000;
  if (PRIVATE) await comparePrivate(scale);
  else await compareDemo(scale, { mia, demo, jobsBefore, makeSeconds });
} finally {
  await stack.close();
}

/** The demo team's pages and the big team's, in turns (the default). */
async function compareDemo(
  scale: Where,
  {
    mia,
    demo,
    jobsBefore,
    makeSeconds,
  }: { mia: string; demo: Where; jobsBefore: Record<string, Timing>; makeSeconds: number },
) {
  const sam = (await signInWithCookies(stack, SAM)).cookie();
  // pages and writes: the demo team's and the big team's in turns, so the machine's load weighs on both alike
  const pages = await timeCases({ demo: casesFor(mia, demo, "pages"), scale: casesFor(sam, scale, "pages") });
  const jobsAfter = (await timeCases({ scale: casesFor(sam, scale, "jobs") })).scale;
  const demoTimes = { ...pages.demo, ...jobsBefore };
  const scaleTimes = { ...pages.scale, ...jobsAfter };

  const memory = process.memoryUsage().rss / 2 ** 20;
  console.log(
    `${NATIVE ? "native PostgreSQL" : "PGlite"}, scale ${SCALE} of three years: ${Object.entries(N)
      .map(([k, v]) => `${v.toLocaleString("en")} ${k}`)
      .join(
        ", ",
      )}; made in ${makeSeconds.toFixed(0)} s; load ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}; this process's memory ${memory.toFixed(0)} MiB${NATIVE ? "" : " (PGlite inside)"}`,
  );
  console.log(`server time in ms, p50 / p95 over ${RUNS} (after ${WARMUP} warm-up)\n`);
  const rows = [["page or write", "demo p50", "demo p95", "scale p50", "scale p95", "ratio p50"]];
  for (const [name, d] of Object.entries(demoTimes)) {
    const s = (scaleTimes as Record<string, Timing>)[name];
    rows.push([
      name,
      d.p50.toFixed(1),
      d.p95.toFixed(1),
      s.p50.toFixed(1),
      s.p95.toFixed(1),
      `${(s.p50 / d.p50).toFixed(2)}×`,
    ]);
  }
  console.log(table(rows));
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
}

type Cases = Record<string, () => Promise<void>>;

/** BENCH_PRIVATE: the big team's board and task panel, all team-wide vs 10 of 20 projects private, in turns. */
async function comparePrivate(w: Where) {
  const { data, error } = await stack.adminClient().auth.admin.createUser({
    email: PAT.email,
    password: PAT.password,
    email_confirm: true,
    user_metadata: { display_name: "Pat Private" },
  });
  if (error || !data.user) throw error ?? new Error("no Pat");
  const pat = data.user.id;
  await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [
    SCALE_TEAM,
    pat,
  ]);
  // the would-be private projects: every other one by key (the biggest, measured one first); half the
  // team chosen for each, and Pat for half of them (the measured one included)
  const privateOnes = `select id from (select id, row_number() over (order by key) - 1 as i from projects
                       where team_id = '${SCALE_TEAM}') x where x.i % 2 = 0`;
  await stack.db.query(
    `insert into project_members (project_id, user_id)
     select p.id, m.user_id
     from (select id, row_number() over (order by key) - 1 as i from projects where team_id = $1) p
     join (select user_id, row_number() over (order by user_id) - 1 as j from team_members
           where team_id = $1 and role = 'member' and user_id <> $2) m on (m.j + p.i) % 2 = 0
     where p.i % 2 = 0
     union all
     select p.id, $2::uuid
     from (select id, row_number() over (order by key) - 1 as i from projects where team_id = $1) p
     where p.i % 4 = 0`,
    [SCALE_TEAM, pat],
  );
  await stack.db.exec("analyze project_members");
  // the same rows either way: the switch skips the triggers (which would forget notifications)
  const setPrivate = (on: boolean) =>
    stack.db.transaction(async (tx) => {
      await tx.exec("set local session_replication_role = replica");
      await tx.query(`update projects set visibility = $1 where id in (${privateOnes})`, [on ? "private" : "team"]);
    });
  const cookie = (await signInWithCookies(stack, PAT)).cookie();
  const all = casesFor(cookie, w, "pages");
  const cases: Cases = { board: all.board, "task panel": all["task panel"] };
  // a private project Pat isn't in is a 404 for him (the setting is in force)
  const { rows: hidden } = await stack.db.query<{ key: string }>(
    `select key from projects where id in (${privateOnes}) and id not in (select project_id from project_members where user_id = $1) limit 1`,
    [pat],
  );
  await setPrivate(true);
  const probe = await handle(
    new Request(`${APP_ORIGIN}/teams/${w.team}/projects/${hidden[0].key}`, { headers: { cookie } }),
  );
  if (probe.status !== 404) throw new Error(`a private project Pat isn't in answered ${probe.status}`);
  await timeCases({ warm: cases }, 1);

  const rounds: Record<"team" | "private", Record<string, number[]>> = { team: {}, private: {} };
  for (let r = 0; r < ROUNDS; r++) {
    for (const state of ["team", "private"] as const) {
      await setPrivate(state === "private");
      const t = (await timeCases({ [state]: cases }))[state];
      for (const [name, timing] of Object.entries(t)) (rounds[state][name] ??= []).push(timing.p50);
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log(
    `${NATIVE ? "native PostgreSQL" : "PGlite"}, scale ${SCALE}: ${N.tasks.toLocaleString("en")} tasks in 20 projects; ` +
      `Pat (a member) in 5 of the 10 private ones; load ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
  );
  console.log(`server time in ms: p50 over ${RUNS} views, per round (${ROUNDS} rounds in turns), and their median\n`);
  const rows = [["page", "all team-wide p50s", "10 private p50s", "median team", "median private", "ratio"]];
  for (const name of Object.keys(cases)) {
    const a = rounds.team[name];
    const b = rounds.private[name];
    rows.push([
      name,
      a.map((x) => x.toFixed(1)).join(" "),
      b.map((x) => x.toFixed(1)).join(" "),
      median(a).toFixed(1),
      median(b).toFixed(1),
      `${(median(b) / median(a)).toFixed(2)}×`,
    ]);
  }
  console.log(table(rows));
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
}

function casesFor(cookie: string, w: Where, which: "pages" | "jobs" | "all" = "all"): Cases {
  const project = `/teams/${w.team}/projects/${w.key}`;
  const view =
    (url: string, method = "GET", form?: () => Promise<URLSearchParams>, status = [200]) =>
    async () => {
      const headers: Record<string, string> = { cookie };
      if (form)
        Object.assign(headers, {
          "content-type": "application/x-www-form-urlencoded",
          origin: APP_ORIGIN,
          host: "127.0.0.1:4999",
        });
      const body = form ? await form() : undefined;
      const response = await handle(new Request(`${APP_ORIGIN}${url}`, { method, headers, body }));
      const text = await response.text();
      if (!status.includes(response.status))
        throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 200)}`);
    };
  const sql = (text: string) => async () => void (await stack.db.exec(text));
  const first100 = async () =>
    (
      await stack.db.query<{ id: string; status_id: string }>(
        `select t.id, t.status_id from tasks t join projects p on p.id = t.project_id join teams m on m.id = p.team_id
         where m.slug = $1 and p.key = $2 order by t.number limit 100`,
        [w.team, w.key],
      )
    ).rows;
  const move = async () => {
    const [t] = await first100();
    return new URLSearchParams({ intent: "move", taskId: t.id, status: t.status_id, position: "0" });
  };
  const bulk = async () => {
    const form = new URLSearchParams([
      ["intent", "bulk"],
      ["change", "priority"],
      ["priority", "high"],
    ]);
    for (const { id } of await first100()) form.append("ids", id);
    return form;
  };
  const comment = async () => new URLSearchParams({ intent: "comment", body: "From the bench." });
  const pages: Cases = {
    board: view(project),
    "task panel": view(`${project}/tasks/${w.task}`),
    "list page 1": view(`${project}/list?sort=due`),
    "list page 50": view(`${project}/list?sort=due&page=50`),
    "My work": view("/my-work"),
    calendar: view(`${project}/calendar`),
    notifications: view("/notifications"),
    "team activity": view(`/teams/${w.team}/activity`),
    search: view(`/search?q=${w.q}`),
    export: view(`${project}/export`),
    "POST move (fetcher)": view(`${project}.data`, "POST", move),
    "POST comment": view(`${project}/tasks/${w.task}/comments`, "POST", comment, [302]),
    // (the list answers a bulk edit with its page and "N tasks changed.", docs/product.md §8)
    "POST bulk edit of 100": view(`${project}/list`, "POST", bulk, [200, 302]),
  };
  const jobs: Cases = {
    "reminder job": sql("select public.remind_due_tasks(now()); delete from public.due_reminders"),
    "email batch (claim)": sql(
      `update public.notifications set email_claim = null where email_claim is not null;
       select public.claim_notification_emails(now(), interval '50 seconds', 100)`,
    ),
  };
  const chosen = which === "pages" ? pages : which === "jobs" ? jobs : { ...pages, ...jobs };
  return Object.fromEntries(
    Object.entries(chosen).filter(([name]) => !process.env.BENCH_ONLY || name.includes(process.env.BENCH_ONLY)),
  );
}

/** Each case of each side, the sides in turns: p50/p95 per side and case. */
async function timeCases(sides: Record<string, Cases>, runs = RUNS): Promise<Record<string, Record<string, Timing>>> {
  const out: Record<string, Record<string, Timing>> = {};
  const names = Object.keys(Object.values(sides)[0]);
  for (const side of Object.keys(sides)) out[side] = {};
  for (const name of names) {
    const times: Record<string, number[]> = {};
    for (let r = 0; r < WARMUP + runs; r++) {
      for (const [side, cases] of Object.entries(sides)) {
        const t0 = performance.now();
        await cases[name]();
        if (r >= WARMUP) (times[side] ??= []).push(performance.now() - t0);
      }
    }
    for (const [side, list] of Object.entries(times)) {
      list.sort((a, b) => a - b);
      out[side][name] = {
        p50: list[Math.floor(list.length / 2)],
        p95: list[Math.min(list.length - 1, Math.ceil(list.length * 0.95) - 1)],
      };
    }
  }
  return out;
}

/** The team, deterministic: setseed, generate_series, triggers off while loading (counts and numbers set here). */
async function makeTeam(): Promise<Where> {
  const { data, error } = await stack.adminClient().auth.admin.createUser({
    email: SAM.email,
    password: SAM.password,
    email_confirm: true,
    user_metadata: { display_name: "Sam Scale" },
  });
  if (error || !data.user) throw error ?? new Error("no Sam");
  const samId = data.user.id;
  await stack.db.query(
    `insert into auth.users (id, email, aud, role, raw_user_meta_data, created_at, updated_at)
     select gen_random_uuid(), 'person' || n || '@scale.test', 'authenticated', 'authenticated',
            jsonb_build_object('display_name', 'Person ' || n), now(), now()
     from generate_series(2, $1::int) n`,
    [N.people],
  );
  const three = "interval '1095 days'";
  await stack.db.transaction(async (tx) => {
    await tx.exec("set local session_replication_role = replica; select setseed(0.37)");
    await tx.query(
      `insert into teams (id, name, slug, created_by) values ('5ca1e000-0000-4000-8000-000000000000', 'Scale', 'scale', $1)`,
      [samId],
    );
    await tx.query(
      `insert into team_members (team_id, user_id, role)
       select '5ca1e000-0000-4000-8000-000000000000', u.id, case when u.id = $1 then 'owner' else 'member' end::team_role
       from auth.users u where u.id = $1 or u.email like 'person%@scale.test'`,
      [samId],
    );
    await tx.exec(`
      insert into projects (team_id, key, name)
        select '5ca1e000-0000-4000-8000-000000000000', 'P' || chr(65 + p), 'Project ' || p from generate_series(0, ${N.projects - 1}) p;
    `);
  });
  // statuses for each project (made by a trigger that was off above)
  await stack.db.exec(`
    insert into project_statuses (project_id, name, category, color, position)
    select p.id, s.name, s.category::status_category, s.color::palette_color, s.position
    from projects p cross join (values ('Backlog', 'backlog', 'gray', 0), ('To do', 'unstarted', 'blue', 1),
      ('In progress', 'started', 'yellow', 2), ('Done', 'completed', 'green', 3), ('Canceled', 'canceled', 'gray', 4)) s (name, category, color, position)
    where p.team_id = '5ca1e000-0000-4000-8000-000000000000'
      and not exists (select 1 from project_statuses x where x.project_id = p.id)`);
  await stack.db.transaction(async (tx) => {
    await tx.exec(`set local session_replication_role = replica; select setseed(0.37);
      create temp table people on commit drop as
        select row_number() over (order by user_id) - 1 as i, user_id as id from team_members
        where team_id = '5ca1e000-0000-4000-8000-000000000000';
      create temp table proj on commit drop as
        select row_number() over (order by key) - 1 as i, id, key from projects where team_id = '5ca1e000-0000-4000-8000-000000000000';
      -- a project's share ∝ 1/(p+1): cumulative weights, a task's project by a uniform draw
      create temp table shares on commit drop as
        select i, id, sum(1.0 / (i + 1)) over (order by i) / sum(1.0 / (i + 1)) over () as upto from proj;
      create temp table draft on commit drop as
        select r.n as n, (select s.id from shares s where s.upto >= r.x order by s.i limit 1) as project_id,
               case when r.y < 0.75 then 3 when r.y < 0.80 then 4 when r.y < 0.87 then 2 when r.y < 0.95 then 1 else 0 end as pos,
               (select id from people where i = (n * 7) % ${N.people}) as assignee,
               now() - ${three} * (1 - n::float / ${N.tasks}) as made
        from (select n, random() as x, random() as y from generate_series(1, ${N.tasks}) n) r;
      insert into tasks (id, project_id, number, title, description, priority, assignee_id, due_on, position, created_by,
                         created_at, updated_at, status_id, completed_at)
        select gen_random_uuid(), d.project_id, row_number() over (partition by d.project_id order by d.n),
               'Task ' || d.n || ' about ' || (array['login','billing','search','export','onboarding','mobile','reports'])[1 + d.n % 7],
               repeat('Some words about it. ', 5), (array['none','low','medium','high','urgent'])[1 + d.n % 5]::task_priority,
               d.assignee, (d.made + interval '14 days')::date,
               row_number() over (partition by d.project_id, d.pos order by d.n) - 1, d.assignee, d.made, d.made,
               s.id, case when d.pos = 3 then d.made + interval '7 days' end
        from draft d join project_statuses s on s.project_id = d.project_id and s.position = d.pos;
      update projects p set next_task_number = (select count(*) + 1 from tasks t where t.project_id = p.id)
        where p.team_id = '5ca1e000-0000-4000-8000-000000000000';
      create temp table big on commit drop as
        select t.id, t.project_id, t.assignee_id, t.created_at, row_number() over (order by t.created_at) as k
        from tasks t join proj p on p.id = t.project_id;
      -- the measured task: the biggest project's newest open task, with 400 comments
      create temp table measured on commit drop as
        select t.id, t.project_id, t.number from tasks t join project_statuses s on s.id = t.status_id
        where t.project_id = (select id from proj where i = 0) and s.category <> 'completed' order by t.number desc limit 1;
      insert into comments (task_id, project_id, author_id, body, created_at)
        select b.id, b.project_id, b.assignee_id, 'A comment, number ' || c.g, b.created_at + c.g * interval '1 minute'
        from (select g, 1 + floor(${N.tasks} * power(random(), 3))::int as k
              from generate_series(1, ${Math.max(0, N.comments - 400)}) g) c
        join big b on b.k = c.k;
      insert into comments (task_id, project_id, author_id, body, created_at)
        select m.id, m.project_id, (select id from people where i = g % ${N.people}), 'On the measured task, ' || g,
               now() - g * interval '1 hour'
        from measured m, generate_series(1, 400) g;
      insert into task_events (team_id, project_id, task_id, actor_id, kind, data, created_at)
        select '5ca1e000-0000-4000-8000-000000000000', b.project_id, b.id, b.assignee_id, 'task_updated',
               '{"changes": {"priority": {"from": "low", "to": "high"}}}', b.created_at + (g % 500) * interval '1 hour'
        from generate_series(1, ${N.events}) g join big b on b.k = 1 + (g::bigint * 7919) % ${N.tasks};
      insert into notifications (recipient_id, team_id, task_id, actor_id, kind, created_at, read_at, email)
        select p.id, '5ca1e000-0000-4000-8000-000000000000', b.id, b.assignee_id, 'comment',
               now() - (g::float / ${N.notifications}) * interval '90 days', case when g % 10 <> 0 then now() end,
               case when g <= 50 then 'pending' else 'sent' end
        from generate_series(1, ${N.notifications}) g join big b on b.k = 1 + (g::bigint * 104729) % ${N.tasks}
        join people p on p.i = g % ${N.people};
      insert into attachments (task_id, project_id, uploaded_by, file_name, content_type, size_bytes, object_path)
        select b.id, b.project_id, b.assignee_id, 'file-' || b.k || '.pdf', 'application/pdf', 1000, b.id || '/file-' || b.k || '.pdf'
        from big b where b.k % ${Math.max(1, Math.round(N.tasks / Math.max(1, N.attachments)))} = 0
          and b.id not in (select id from measured);
      insert into task_watchers (task_id, project_id, user_id) select b.id, b.project_id, b.assignee_id from big b;
      update tasks t set comment_count = c.n from (select task_id, count(*) as n from comments group by task_id) c
        where c.task_id = t.id and t.project_id in (select id from proj);
      update tasks t set attachment_count = 1 where t.id in (select task_id from attachments) and t.project_id in (select id from proj);
    `);
  });
  const { rows: counts } = await stack.db.query(
    `select (select count(*) from projects where team_id = '5ca1e000-0000-4000-8000-000000000000') as projects,
            (select count(*) from tasks) as tasks, (select count(*) from comments) as comments,
            (select count(*) from task_events) as events, (select count(*) from notifications) as notifications`,
  );
  console.log("made:", JSON.stringify(counts[0]));
  const { rows } = await stack.db.query<{ key: string; number: number }>(
    `select p.key, t.number from tasks t join projects p on p.id = t.project_id
     where t.id = (select t2.id from tasks t2 join project_statuses s on s.id = t2.status_id
                   where t2.project_id = (select id from projects where team_id = '5ca1e000-0000-4000-8000-000000000000' order by key limit 1)
                     and s.category <> 'completed' order by t2.number desc limit 1)`,
  );
  await stack.db.exec("analyze");
  return { team: "scale", key: rows[0].key, task: rows[0].number, q: "billing" };
}

function table(rows: string[][]) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    "| " + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ") + " |";
  return [
    line(rows[0]),
    "|" + widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|",
    ...rows.slice(1).map(line),
  ].join("\n");
}
