import { splitSql } from "../db/split-sql.ts";
import type { Database, QueryResult } from "../db/types.ts";

/** A row of cron.job, as the scheduler keeps it. */
export interface CronJob {
  jobid: number;
  jobname: string | null;
  schedule: string;
  command: string;
  username: string;
  active: boolean;
  database: string;
}

/** One finished run of a job (a row of cron.job_run_details). */
export interface CronRun {
  runid: number;
  jobid: number;
  name: string;
  status: "succeeded" | "failed";
  returnMessage: string;
  /** when the scheduler started the run, by its clock (cron.job_run_details.start_time) */
  start: number;
  /** when the job's SQL began, by the system clock (the scheduling delay is measured to it) */
  sqlStarted: number;
  /** when it finished, by the scheduler's clock */
  end: number;
}

export const jobName = (job: Pick<CronJob, "jobid" | "jobname">) => job.jobname ?? `job ${job.jobid}`;

/** What pg_cron records for a statement that succeeded: "N rows" for rows, else the command tag. */
export function returnMessage(result: QueryResult | null): string {
  if (!result) return "0 rows";
  if (result.fields.length > 0) return `${result.rows.length} ${result.rows.length === 1 ? "row" : "rows"}`;
  const command = (result.command ?? "").toUpperCase();
  if (command === "INSERT") return `INSERT 0 ${result.rowCount}`;
  if (["UPDATE", "DELETE", "MERGE", "SELECT", "COPY", "MOVE", "FETCH"].includes(command)) {
    return `${command} ${result.rowCount}`;
  }
  return command;
}

const toTimestamp = (ms: number) => new Date(ms).toISOString();

/**
 * Runs a job as pg_cron does: a cron.job_run_details row marked running,
 * then the command (each of its statements in order, in one transaction, as
 * the job's role), then the row completed with pg_cron's status and message.
 * A failing command is recorded, never thrown.
 */
export async function runJob(db: Database, job: CronJob, now: () => number): Promise<CronRun> {
  const start = now();
  const { rows } = await db.query<{ runid: number }>(
    `insert into cron.job_run_details (jobid, database, username, command, status, start_time)
     values ($1, $2, $3, $4, 'running', $5) returning runid`,
    [job.jobid, job.database, job.username, job.command, toTimestamp(start)],
  );
  const runid = rows[0].runid;
  let status: CronRun["status"] = "succeeded";
  let message: string;
  let pid: number | null = null;
  const sqlStarted = Date.now();
  try {
    message = await db.transaction(async (tx) => {
      const who = await tx.query<{ pid: number }>("select set_config('role', $1, true), pg_backend_pid() as pid", [
        job.username,
      ]);
      pid = who.rows[0].pid;
      let last: QueryResult | null = null;
      for (const statement of splitSql(job.command)) last = await tx.query(statement.sql);
      return returnMessage(last);
    });
  } catch (error) {
    status = "failed";
    message = `ERROR:  ${(error as Error).message}`;
  }
  const end = now();
  await db.query(
    `update cron.job_run_details set status = $2, return_message = $3, end_time = $4, job_pid = $5 where runid = $1`,
    [runid, status, message, toTimestamp(end), pid],
  );
  return { runid, jobid: job.jobid, name: jobName(job), status, returnMessage: message, start, sqlStarted, end };
}
