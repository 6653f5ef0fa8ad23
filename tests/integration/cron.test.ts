/**
 * Supabase Cron (pg_cron) in the local stack, on PGlite and on a native
 * PostgreSQL: the SQL surface (cron.schedule / unschedule / alter_job, the
 * tables, pg_cron's errors and privileges) and the scheduler that runs the
 * jobs — in the right minute (on a clock the test moves), every N seconds on
 * the real clock, one run of a job at a time, as the role that scheduled it,
 * failures recorded, paused jobs skipped, nothing caught up after a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatJobs } from "../../stack/cron/cli.ts";
import { ManualClock } from "../../stack/cron/clock.ts";
import type { JobListing } from "../../stack/cron/routes.ts";
import { INVALID_SCHEDULES, VALID_SCHEDULES } from "../../stack/cron/schedule-cases.ts";
import type { Queryable } from "../../stack/db/types.ts";
import { advanceClock } from "../support/cron-clock.ts";
import { persistentTestDatabase, startTestStack, type TestStack } from "../support/stack.ts";

const at = (iso: string) => Date.parse(iso);
const clock = new ManualClock(at("2026-11-26T07:58:30Z"));
let stack: TestStack;

/** The migrations' own jobs (send-notifications every minute, due-reminders every quarter hour, the notifications' prune …) are not what these tests watch. */
const withoutProductJobs = (s: TestStack) => s.db.query("select cron.unschedule(jobid) from cron.job");

beforeAll(async () => {
  stack = await startTestStack({ scheduler: { cron: true, clock } });
  await withoutProductJobs(stack);
  await stack.db.exec(`
    create table public.cron_probe (job text not null, who text not null default current_user, at timestamptz not null default now());
    grant insert, select on public.cron_probe to authenticated;
  `);
});
afterAll(() => stack?.close());

/** The error a statement fails with, or null. */
async function failure(promise: Promise<unknown>) {
  try {
    await promise;
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function asRole<T>(role: "authenticated" | "anon", fn: (tx: Queryable) => Promise<T>) {
  return stack.db.asRequest({ role, claims: { role } }, fn);
}

async function runs(jobname: string) {
  const { rows } = await stack.db.query<{ status: string; return_message: string; start_time: string }>(
    `select d.status, d.return_message, d.start_time from cron.job_run_details d
     join cron.job j using (jobid) where j.jobname = $1 order by d.runid`,
    [jobname],
  );
  return rows.map((r) => ({ ...r, start_time: new Date(r.start_time).toISOString() }));
}

const advanceTo = (iso: string) => advanceClock(stack, clock, iso);

describe("cron.schedule and friends", () => {
  it("accepts the schedules pg_cron accepts and refuses the others with pg_cron's error", async () => {
    for (const schedule of VALID_SCHEDULES) {
      const { rows } = await stack.db.query<{ ok: boolean }>("select cron._valid_schedule($1) as ok", [schedule]);
      expect(rows[0].ok, schedule).toBe(true);
    }
    for (const schedule of INVALID_SCHEDULES) {
      const message = await failure(stack.db.query("select cron.schedule('bad', $1, 'select 1')", [schedule]));
      expect(message, schedule).toBe(`invalid schedule: ${schedule}`);
    }
  });

  it("schedules, renames nothing on a second schedule of the same name, alters and unschedules", async () => {
    const { rows: first } = await stack.db.query<{ id: number }>(
      "select cron.schedule('tidy', '0 3 * * *', 'select 1') as id",
    );
    const { rows: again } = await stack.db.query<{ id: number }>(
      "select cron.schedule('tidy', '0 4 * * *', 'select 2') as id",
    );
    expect(again[0].id).toBe(first[0].id);
    const { rows: unnamed } = await stack.db.query<{ id: number }>(
      "select cron.schedule('0 5 * * *', 'select 3') as id",
    );
    await stack.db.query("select cron.alter_job($1, schedule := '30 4 * * *', active := false)", [first[0].id]);
    const { rows } = await stack.db.query(
      "select jobname, schedule, command, username, active, database from cron.job where jobid = any($1) order by jobid",
      [[first[0].id, unnamed[0].id]],
    );
    expect(rows).toEqual([
      {
        jobname: "tidy",
        schedule: "30 4 * * *",
        command: "select 2",
        username: "postgres",
        active: false,
        database: expect.any(String),
      },
      {
        jobname: null,
        schedule: "0 5 * * *",
        command: "select 3",
        username: "postgres",
        active: true,
        database: expect.any(String),
      },
    ]);
    expect(await failure(stack.db.query("select cron.alter_job($1)", [first[0].id]))).toBe("no updates specified");
    expect(await failure(stack.db.query("select cron.alter_job(999999, active := true)"))).toBe(
      "Job 999999 does not exist or you don't own it",
    );
    expect(
      await failure(stack.db.query("select cron.schedule_in_database('x', '* * * * *', 'select 1', 'nowhere')")),
    ).toBe('database "nowhere" does not exist');
    expect((await stack.db.query("select cron.unschedule('tidy') as ok")).rows).toEqual([{ ok: true }]);
    expect((await stack.db.query("select cron.unschedule($1::bigint) as ok", [unnamed[0].id])).rows).toEqual([
      { ok: true },
    ]);
    expect(await failure(stack.db.query("select cron.unschedule('tidy')"))).toBe(
      "could not find valid entry for job 'tidy'",
    );
    expect(await failure(stack.db.query("select cron.unschedule(999999::bigint)"))).toBe(
      "could not find valid entry for job 999999",
    );
  });

  it("keeps cron away from anon and authenticated, as a hosted project does", async () => {
    for (const role of ["anon", "authenticated"] as const) {
      expect(await failure(asRole(role, (tx) => tx.query("select * from cron.job")))).toBe(
        "permission denied for schema cron",
      );
      expect(await failure(asRole(role, (tx) => tx.query("select cron.schedule('x', '* * * * *', 'select 1')")))).toBe(
        "permission denied for schema cron",
      );
    }
  });

  it("shows and lets change a role's own jobs only, where a role is given the schema", async () => {
    await stack.db.exec("grant usage on schema cron to authenticated");
    try {
      const { rows } = await stack.db.query<{ id: number }>(
        "select cron.schedule('owners-job', '0 1 * * *', 'select 1') as id",
      );
      const mine = await asRole("authenticated", async (tx) => {
        await tx.query("select cron.schedule('users-job', '0 2 * * *', 'select 1')");
        return (await tx.query("select jobname, username from cron.job")).rows;
      });
      expect(mine).toEqual([{ jobname: "users-job", username: "authenticated" }]);
      expect(
        await failure(asRole("authenticated", (tx) => tx.query("select cron.unschedule($1::bigint)", [rows[0].id]))),
      ).toBe("permission denied for table job");
      expect(await failure(asRole("authenticated", (tx) => tx.query("select cron.unschedule('owners-job')")))).toBe(
        "could not find valid entry for job 'owners-job'",
      );
      expect(
        await failure(
          asRole("authenticated", (tx) => tx.query("select cron.alter_job($1, active := false)", [rows[0].id])),
        ),
      ).toBe("permission denied for function alter_job");
      expect(
        await failure(
          asRole("authenticated", (tx) =>
            tx.query("select cron.schedule_in_database('x', '* * * * *', 'select 1', current_database(), 'postgres')"),
          ),
        ),
      ).toBe("permission denied for function schedule_in_database");
      expect(await failure(asRole("authenticated", (tx) => tx.query("delete from cron.job")))).toBe(
        "permission denied for table job",
      );
      // the job runs as the role that scheduled it
      await asRole("authenticated", (tx) =>
        tx.query(
          "select cron.schedule('users-job', '0 2 * * *', $$insert into public.cron_probe (job) values ('users-job')$$)",
        ),
      );
      const run = await stack.scheduler.cron.runNow("users-job");
      expect(run.status).toBe("succeeded");
      expect((await stack.db.query("select who from public.cron_probe where job = 'users-job'")).rows).toEqual([
        { who: "authenticated" },
      ]);
      const seen = await asRole(
        "authenticated",
        async (tx) => (await tx.query("select username from cron.job_run_details")).rows,
      );
      expect(seen).toEqual([{ username: "authenticated" }]);
      await stack.db.query("select cron.unschedule('owners-job')");
      await asRole("authenticated", (tx) => tx.query("select cron.unschedule('users-job')"));
    } finally {
      await stack.db.exec("revoke usage on schema cron from authenticated");
    }
  });
});

describe("the scheduler, on a clock the test moves", () => {
  it("runs each job in the minutes its schedule names, and records each run", async () => {
    await stack.db.exec(`
      select cron.schedule('at-eight', '0 8 * * *', $$insert into public.cron_probe (job) values ('at-eight')$$);
      select cron.schedule('every-20', '*/20 8-9 * * thu', $$insert into public.cron_probe (job) values ('every-20')$$);
      select cron.schedule('saturdays', '0 8 * * sat', $$insert into public.cron_probe (job) values ('saturdays')$$);
    `);
    await advanceTo("2026-11-26T07:59:59Z");
    expect(await runs("at-eight")).toEqual([]);
    await advanceTo("2026-11-26T08:00:00Z");
    await advanceTo("2026-11-26T08:45:00Z");
    expect(await runs("at-eight")).toEqual([
      { status: "succeeded", return_message: "INSERT 0 1", start_time: "2026-11-26T08:00:00.000Z" },
    ]);
    expect((await runs("every-20")).map((r) => r.start_time)).toEqual([
      "2026-11-26T08:00:00.000Z",
      "2026-11-26T08:20:00.000Z",
      "2026-11-26T08:40:00.000Z",
    ]);
    expect(await runs("saturdays")).toEqual([]);
  });

  it("skips a job while it is paused (active = false)", async () => {
    await stack.db.query("select cron.alter_job(jobid, active := false) from cron.job where jobname = 'every-20'");
    await advanceTo("2026-11-26T09:10:00Z");
    expect(await runs("every-20")).toHaveLength(3);
    await stack.db.query("select cron.alter_job(jobid, active := true) from cron.job where jobname = 'every-20'");
    await advanceTo("2026-11-26T09:20:00Z");
    expect((await runs("every-20")).map((r) => r.start_time).at(-1)).toBe("2026-11-26T09:20:00.000Z");
  });

  it("records a failing job's error and keeps its schedule", async () => {
    await stack.db.query("select cron.schedule('broken', '*/5 * * * *', 'select 1/0')");
    await advanceTo("2026-11-26T09:30:00Z");
    expect(await runs("broken")).toEqual([
      { status: "failed", return_message: "ERROR:  division by zero", start_time: "2026-11-26T09:25:00.000Z" },
      { status: "failed", return_message: "ERROR:  division by zero", start_time: "2026-11-26T09:30:00.000Z" },
    ]);
    expect((await stack.db.query("select active from cron.job where jobname = 'broken'")).rows).toEqual([
      { active: true },
    ]);
    await stack.db.query("select cron.unschedule('broken')");
  });

  it("answers `npm run stack -- cron` with each job's next and last run, and runs one on request", async () => {
    const headers = { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` };
    const res = await fetch(`${stack.url}/_stack/cron/jobs`, { headers });
    expect(res.status).toBe(200);
    const jobs = (await res.json()) as JobListing[];
    const eight = jobs.find((j) => j.jobname === "at-eight")!;
    expect(eight).toMatchObject({
      schedule: "0 8 * * *",
      active: true,
      running: false,
      next_run: "2026-11-27T08:00:00.000Z",
      last_run: { status: "succeeded", return_message: "INSERT 0 1" },
    });
    expect(formatJobs(jobs)).toMatch(
      /at-eight #\d+\s+0 8 \* \* \*\s+yes\s+2026-11-27 08:00:00\s+2026-11-26 08:00:00\s+succeeded: INSERT 0 1/,
    );

    const ran = await fetch(`${stack.url}/_stack/cron/jobs/at-eight/run`, { method: "POST", headers });
    expect(ran.status).toBe(200);
    expect(await ran.json()).toMatchObject({ name: "at-eight", status: "succeeded", return_message: "INSERT 0 1" });
    expect(await runs("at-eight")).toHaveLength(2);

    expect((await fetch(`${stack.url}/_stack/cron/jobs/nope/run`, { method: "POST", headers })).status).toBe(404);
    const anon = { apikey: stack.anonKey, authorization: `Bearer ${stack.anonKey}` };
    expect((await fetch(`${stack.url}/_stack/cron/jobs`, { headers: anon })).status).toBe(401);
  });
});

describe("the scheduler on the real clock", () => {
  let live: TestStack;
  beforeAll(async () => {
    live = await startTestStack({ scheduler: { cron: true } });
    await withoutProductJobs(live);
  });
  afterAll(() => live?.close());

  /** Lets a job run on its schedule for `ms`, then pauses it; its runs' start and end times. */
  async function runFor(name: string, schedule: string, command: string, ms: number) {
    await live.db.query("select cron.schedule($1, $2, $3)", [name, schedule, command]);
    const scheduled = Date.now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await live.db.query("select cron.alter_job(jobid, active := false) from cron.job where jobname = $1", [name]);
    await live.scheduler.cron.settled();
    const { rows } = await live.db.query<{ start_time: string; end_time: string }>(
      "select d.start_time, d.end_time from cron.job_run_details d join cron.job j using (jobid) where j.jobname = $1 order by d.runid",
      [name],
    );
    return { scheduled, runs: rows.map((r) => ({ start: Date.parse(r.start_time), end: Date.parse(r.end_time) })) };
  }

  it("runs an 'N seconds' job at once, then every N seconds (± 1 s)", async () => {
    const { scheduled, runs: every2 } = await runFor("every-2s", "2 seconds", "select 1", 6_500);
    expect(every2.length).toBeGreaterThanOrEqual(3);
    expect(every2[0].start - scheduled).toBeLessThanOrEqual(1_000);
    for (let i = 1; i < every2.length; i++) {
      expect(every2[i].start - every2[i - 1].start).toBeGreaterThanOrEqual(1_000);
      expect(every2[i].start - every2[i - 1].start).toBeLessThanOrEqual(3_000);
    }
  });

  it("starts a job's next run only once its last one has finished", async () => {
    const { runs: slow } = await runFor("slow", "1 seconds", "select pg_sleep(1.4)", 5_000);
    expect(slow.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < slow.length; i++) expect(slow[i].start).toBeGreaterThanOrEqual(slow[i - 1].end);
  });
});

describe("across a restart", () => {
  it("keeps the jobs, catches up no run missed while stopped, and marks runs cut short", async () => {
    const database = await persistentTestDatabase();
    try {
      const first = await database.start({
        scheduler: { cron: true, clock: new ManualClock(at("2026-11-26T07:58:00Z")) },
      });
      await withoutProductJobs(first);
      await first.db.query("select cron.schedule('at-eight', '0 8 * * *', 'select 1')");
      await first.db.query(
        "insert into cron.job_run_details (jobid, status, start_time) select jobid, 'running', now() from cron.job",
      );
      await first.close();

      const later = new ManualClock(at("2026-11-26T08:30:00Z"));
      const second = await database.start({ scheduler: { cron: true, clock: later } });
      try {
        await second.scheduler.cron.reload();
        await later.set(at("2026-11-26T08:35:00Z"));
        await second.scheduler.cron.settled();
        const { rows } = await second.db.query(
          "select j.jobname, d.status, d.return_message from cron.job j left join cron.job_run_details d using (jobid)",
        );
        expect(rows).toEqual([{ jobname: "at-eight", status: "failed", return_message: "server restarted" }]);
      } finally {
        await second.close();
      }
    } finally {
      await database.dispose();
    }
  });
});

describe("a job's owner is current_user where cron.schedule runs, as pg_cron records it (issue 35)", () => {
  beforeAll(async () => {
    await stack.db.exec(`
      grant usage on schema cron to authenticated, anon;
      create function public.schedule_for_me(name text) returns bigint
        language sql security definer set search_path = public as
        $$ select cron.schedule(name, '0 3 * * *', $c$insert into public.cron_probe (job) values ('definer-job')$c$) $$;
      grant execute on function public.schedule_for_me(text) to authenticated, anon;
      create function public.unschedule_for_me(name text) returns boolean
        language sql security definer set search_path = public as $$ select cron.unschedule(name) $$;
      grant execute on function public.unschedule_for_me(text) to authenticated;
      grant insert, select on public.cron_probe to anon;`);
  });
  afterAll(() =>
    stack.db.exec(`
      drop function public.schedule_for_me(text);
      drop function public.unschedule_for_me(text);
      revoke usage on schema cron from authenticated, anon;`),
  );

  it("through a security definer function the job is the function owner's, and runs as it", async () => {
    const owner = (
      await stack.db.query<{ owner: string }>(
        "select pg_get_userbyid(proowner) as owner from pg_proc where proname = 'schedule_for_me'",
      )
    ).rows[0].owner;
    await asRole("authenticated", (tx) => tx.query("select public.schedule_for_me('definer-job')"));
    const { rows } = await stack.db.query("select username from cron.job where jobname = 'definer-job'");
    expect(rows).toEqual([{ username: owner }]);
    // the API role does not see it, nor unschedule it by name: it is not theirs
    const seen = await asRole("authenticated", async (tx) => (await tx.query("select jobname from cron.job")).rows);
    expect(seen).toEqual([]);
    expect(await failure(asRole("authenticated", (tx) => tx.query("select cron.unschedule('definer-job')")))).toBe(
      "could not find valid entry for job 'definer-job'",
    );
    const run = await stack.scheduler.cron.runNow("definer-job");
    expect(run.status).toBe("succeeded");
    expect((await stack.db.query("select who from public.cron_probe where job = 'definer-job'")).rows).toEqual([
      { who: owner },
    ]);
    // the owner's function unschedules it
    await asRole("authenticated", (tx) => tx.query("select public.unschedule_for_me('definer-job')"));
    expect((await stack.db.query("select 1 from cron.job where jobname = 'definer-job'")).rows).toEqual([]);
  });

  it("two roles each own, see and change only their own job of the same name", async () => {
    for (const role of ["authenticated", "anon"] as const) {
      await asRole(role, (tx) => tx.query("select cron.schedule('same-name', '0 4 * * *', 'select 1')"));
    }
    const { rows } = await stack.db.query("select username from cron.job where jobname = 'same-name' order by 1");
    expect(rows).toEqual([{ username: "anon" }, { username: "authenticated" }]);
    for (const role of ["authenticated", "anon"] as const) {
      const mine = await asRole(role, async (tx) => (await tx.query("select jobname, username from cron.job")).rows);
      expect(mine).toEqual([{ jobname: "same-name", username: role }]);
    }
    await asRole("anon", (tx) => tx.query("select cron.unschedule('same-name')"));
    const left = await stack.db.query("select username from cron.job where jobname = 'same-name'");
    expect(left.rows).toEqual([{ username: "authenticated" }]);
    await asRole("authenticated", (tx) => tx.query("select cron.unschedule('same-name')"));
  });

  it("a role cannot write another role's name as a job's caller", async () => {
    expect(
      await failure(
        asRole("authenticated", (tx) =>
          tx.query("insert into cron._callers (token, username) values (gen_random_uuid(), 'postgres')"),
        ),
      ),
    ).toBe('new row violates row-level security policy for table "_callers"');
  });
});
