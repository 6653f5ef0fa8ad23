/**
 * npm run bench:fields — the fields the team defines against the same work
 * without them (issue 38; docs/decisions/0044): p50 of the backend call a page
 * makes (one each), as a signed-in member through the stack's REST API:
 *  - board_view of 500 tasks in a project with 10 fields (3 on cards, one
 *    summed; every task holds a value of each) and 2–3 assignees a task,
 *    against the same 500 tasks in a project without fields (target ≤ 1.15×);
 *  - list_view of 5,000 tasks sorted by a number field against sorted by due
 *    date (target ≤ 1.2×);
 *  - bulk_edit_tasks "set Points" on 100 tasks: one request.
 * Rounds alternate the two sides so machine load hits both alike. Prints
 * figures only. BENCH_RUNS (default 25) calls a side per round, 3 rounds.
 */
import { startTestStack } from "../tests/support/stack.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const ROUNDS = 3;
const stack = await startTestStack();
const db = stack.db;

try {
  const email = `bench-fields-${Date.now()}@example.com`;
  const password = "bench-password-1";
  const admin = stack.adminClient();
  const made = await Promise.all(
    ["Bench Owner", "Bench Two", "Bench Three"].map((name, i) =>
      admin.auth.admin.createUser({
        email: i ? `${i}-${email}` : email,
        password,
        email_confirm: true,
        user_metadata: { display_name: name },
      }),
    ),
  );
  const people = made.map((m) => m.data.user!.id);
  const client = stack.anonClient();
  const { error: signInError } = await client.auth.signInWithPassword({ email, password });
  if (signInError) throw signInError;
  const { data: team, error: teamError } = await client.rpc("create_team", { name: "Bench", slug: "bench" });
  if (teamError) throw teamError;
  for (const id of people.slice(1))
    await db.query("insert into public.team_members (team_id, user_id, role) values ($1, $2, 'member')", [team.id, id]);

  /** a project of `count` tasks over its five statuses, 2–3 assignees each; with `fields`, 10 fields holding values */
  async function project(key: string, count: number, fields: boolean) {
    const { rows } = await db.query<{ id: string }>(
      "insert into public.projects (team_id, key, name) values ($1, $2, $2) returning id",
      [team.id, key],
    );
    const id = rows[0].id;
    await db.query(
      `insert into public.tasks (project_id, title, status_id, priority, due_on, created_by)
       select $1, 'Task ' || n || ' of the benchmark',
              (select s.id from public.project_statuses s where s.project_id = $1 and s.position = n % 5),
              (array['none','low','medium','high','urgent'])[1 + n % 5]::public.task_priority,
              case when n % 4 = 0 then null else current_date + (n % 400) end, $2::uuid
       from generate_series(1, $3::int) as n`,
      [id, people[0], count],
    );
    await db.query(
      `insert into public.task_assignees (task_id, person_id, position)
       select t.id, p.id, p.pos from public.tasks t
       cross join unnest($2::uuid[]) with ordinality p(id, pos)
       where t.project_id = $1 and (p.pos <= 2 or t.number % 2 = 0)`,
      [id, people],
    );
    if (!fields) return id;
    const kinds = [
      ["Customer", "select", true, false],
      ["Points", "number", true, true],
      ["Signed", "checkbox", true, false],
      ["Notes", "text", false, false],
      ["Estimate", "number", false, false],
      ["Review", "date", false, false],
      ["Lead", "person", false, false],
      ["Area", "multi_select", false, false],
      ["Link", "link", false, false],
      ["Risk", "select", false, false],
    ] as const;
    for (const [position, [name, kind, onCard, sum]] of kinds.entries()) {
      const { rows: f } = await db.query<{ id: string }>(
        `insert into public.fields (project_id, name, kind, position, on_card, sum)
         values ($1, $2, $3::public.field_kind, $4, $5, $6) returning id`,
        [id, name, kind, position, onCard, sum],
      );
      if (kind === "select" || kind === "multi_select")
        await db.query(
          `insert into public.field_options (field_id, project_id, name, position)
           select $1, $2, 'Option ' || n, n from generate_series(0, 4) n`,
          [f[0].id, id],
        );
      const value: Record<string, string> = {
        select: "to_jsonb('Option ' || (t.number % 5))",
        multi_select: "jsonb_build_array('Option ' || (t.number % 5), 'Option ' || ((t.number + 1) % 5))",
        number: "to_jsonb(t.number % 100)",
        checkbox: "to_jsonb(t.number % 2 = 0)",
        text: "to_jsonb('A note on ' || t.number)",
        date: "to_jsonb(to_char(current_date + (t.number % 90), 'YYYY-MM-DD'))",
        person: `to_jsonb('${people[1]}'::text)`,
        link: "to_jsonb('https://example.com/' || t.number)",
      };
      await db.query(
        `insert into public.field_values (task_id, field_id, value)
         select t.id, $2, ${value[kind]} from public.tasks t where t.project_id = $1`,
        [id, f[0].id],
      );
    }
    return id;
  }

  await project("PLAIN", 500, false);
  await project("FIELDS", 500, true);
  const bigId = await project("BIG", 5000, true);
  await db.exec("analyze");
  const { rows: pointsRow } = await db.query<{ id: string }>(
    "select id from public.fields where project_id = $1 and name = 'Points'",
    [bigId],
  );
  const points = pointsRow[0].id;

  const p50 = async (call: () => PromiseLike<{ error: unknown }>) => {
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const started = performance.now();
      const { error } = await call();
      if (error) throw new Error(JSON.stringify(error));
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  };
  const board = (key: string) => () =>
    client.rpc("board_view", { team_slug: "bench", project_key: key }, { get: true });
  const listBy = (sort: string) => () =>
    client.rpc("list_view", { team_slug: "bench", project_key: "BIG", sort }, { get: true });

  // warm-up
  for (let w = 0; w < 3; w++) {
    await board("PLAIN")();
    await board("FIELDS")();
    await listBy("due")();
    await listBy(`field:${points}`)();
  }
  for (let round = 1; round <= ROUNDS; round++) {
    const plain = await p50(board("PLAIN"));
    const withFields = await p50(board("FIELDS"));
    const due = await p50(listBy("due"));
    const byPoints = await p50(listBy(`field:${points}`));
    console.log(
      `round ${round}: board_view 500 tasks p50 ${plain.toFixed(1)} ms without fields, ${withFields.toFixed(1)} ms with ` +
        `(${(withFields / plain).toFixed(2)}x); list_view 5,000 tasks p50 ${due.toFixed(1)} ms by due, ` +
        `${byPoints.toFixed(1)} ms by Points (${(byPoints / due).toFixed(2)}x)`,
    );
  }

  // bulk "set Points" on 100 tasks: one request
  const { rows: ids } = await db.query<{ id: string }>(
    "select id from public.tasks where project_id = $1 order by number limit 100",
    [bigId],
  );
  const since = Date.now();
  const started = performance.now();
  const { data: changed, error } = await client.rpc("bulk_edit_tasks", {
    task_ids: ids.map((r) => r.id),
    change: "set_field",
    value: JSON.stringify({ field: points, value: 5 }),
  });
  if (error) throw new Error(JSON.stringify(error));
  const ms = performance.now() - started;
  const requests = stack.requests.list(since).filter((r) => r.path.startsWith("/rest/")).length;
  console.log(`bulk set Points on 100 tasks: ${changed} changed in ${ms.toFixed(1)} ms, ${requests} request(s)`);
} finally {
  await stack.close();
}
