import { readStoredKeys } from "../keys.ts";
import type { JobListing } from "./routes.ts";

/**
 * `npm run stack -- cron` and `npm run stack -- cron run <job>`: asked of the
 * running stack (/_stack/cron, with the service role key from its data
 * folder), since only it runs the jobs and, on PGlite, holds the database.
 */
interface Target {
  apiUrl: string;
  dataDir: string;
}

async function call(target: Target, method: "GET" | "POST", path: string): Promise<Response> {
  const keys = readStoredKeys(target.dataDir);
  if (!keys)
    throw new CliError(`No local stack has been started with ${target.dataDir} yet. Start it with: npm run stack`);
  try {
    return await fetch(`${target.apiUrl}/_stack/cron${path}`, {
      method,
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}` },
    });
  } catch {
    throw new CliError(`The stack is not answering on ${target.apiUrl}; start it with: npm run stack`);
  }
}

export class CliError extends Error {}

/** "2026-11-26 12:05:00" (UTC), or "—". */
function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toISOString().slice(0, 19).replace("T", " ") : "—";
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export function formatJobs(jobs: JobListing[]): string {
  if (jobs.length === 0) return "No jobs in cron.job (schedule one with cron.schedule in a migration).";
  const rows = [["JOB", "SCHEDULE", "ACTIVE", "NEXT RUN (UTC)", "LAST RUN (UTC)", "LAST STATUS"]];
  for (const j of jobs) {
    const last = j.last_run;
    const status = j.running
      ? "running"
      : last
        ? `${last.status}${last.return_message ? `: ${last.return_message.split("\n")[0]}` : ""}`
        : "never run";
    rows.push([
      `${j.jobname ?? "(unnamed)"} #${j.jobid}`,
      j.schedule,
      j.active ? "yes" : "no",
      when(j.next_run),
      when(last?.start_time),
      status,
    ]);
  }
  return table(rows);
}

export async function listJobsCommand(target: Target): Promise<void> {
  const response = await call(target, "GET", "/jobs");
  if (!response.ok) throw new CliError(`The stack answered ${response.status}: ${await response.text()}`);
  console.log(formatJobs((await response.json()) as JobListing[]));
}

/** Runs a job now; the exit status says whether it succeeded. */
export async function runJobCommand(target: Target, job: string): Promise<number> {
  const response = await call(target, "POST", `/jobs/${encodeURIComponent(job)}/run`);
  const body = (await response.json()) as { message?: string } & Record<string, string | number>;
  if (!response.ok) throw new CliError(body.message ?? `The stack answered ${response.status}`);
  const ms = Date.parse(String(body.end_time)) - Date.parse(String(body.start_time));
  console.log(
    `${body.name} (job #${body.jobid}, run ${body.runid}): ${body.status} in ${ms} ms: ${body.return_message}`,
  );
  return body.status === "succeeded" ? 0 : 1;
}
