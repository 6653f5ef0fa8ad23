import { Hono } from "hono";
import type { Database } from "../db/types.ts";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import type { Keys } from "../keys.ts";
import { JobNotFoundError, type CronScheduler } from "./scheduler.ts";

/**
 * /_stack/cron: the jobs for `npm run stack -- cron` (and tests), answered by
 * the running stack, for the service role only (and, as all of /_stack, for
 * this machine's own tools only: stack/http/same-origin.ts).
 *   GET  /_stack/cron/jobs             every job: schedule, active, next run, last run
 *   POST /_stack/cron/jobs/:job/run    run a job (id or name) now; answers when it has finished
 */
export interface JobListing {
  jobid: number;
  jobname: string | null;
  schedule: string;
  command: string;
  username: string;
  active: boolean;
  running: boolean;
  next_run: string | null;
  last_run: {
    runid: number;
    status: string;
    return_message: string | null;
    start_time: string;
    end_time: string | null;
  } | null;
}

export function cronRoutes(db: Database, keys: Keys, scheduler: CronScheduler): Hono {
  const app = new Hono();
  app.use("*", async (c, next) => {
    const who = await resolveIdentity(c, keys);
    if (isIdentityError(who) || who.role !== "service_role") return c.json({ message: "service role required" }, 401);
    await next();
  });

  app.get("/jobs", async (c) => {
    await scheduler.reload();
    const jobs = scheduler.status();
    // no jobs (or no pg_cron yet): nothing to look up
    if (jobs.length === 0) return c.json([]);
    const { rows } = await db.query<{ jobid: number; last_run: JobListing["last_run"] }>(
      `select distinct on (jobid) jobid,
         jsonb_build_object('runid', runid, 'status', status, 'return_message', return_message,
           'start_time', start_time, 'end_time', end_time) as last_run
       from cron.job_run_details where jobid = any($1::bigint[]) order by jobid, runid desc`,
      [jobs.map((j) => j.jobid)],
    );
    const last = new Map(rows.map((r) => [r.jobid, r.last_run]));
    const listing: JobListing[] = jobs.map((j) => ({
      jobid: j.jobid,
      jobname: j.jobname,
      schedule: j.schedule,
      command: j.command,
      username: j.username,
      active: j.active,
      running: j.running,
      next_run: j.nextRun === null ? null : new Date(j.nextRun).toISOString(),
      last_run: last.get(j.jobid) ?? null,
    }));
    return c.json(listing);
  });

  app.post("/jobs/:job/run", async (c) => {
    try {
      const run = await scheduler.runNow(c.req.param("job"));
      return c.json({
        runid: run.runid,
        jobid: run.jobid,
        name: run.name,
        status: run.status,
        return_message: run.returnMessage,
        start_time: new Date(run.start).toISOString(),
        end_time: new Date(run.end).toISOString(),
      });
    } catch (error) {
      if (error instanceof JobNotFoundError) return c.json({ message: error.message }, 404);
      throw error;
    }
  });
  return app;
}
