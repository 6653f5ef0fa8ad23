import type { Database } from "../db/types.ts";
import type { Clock } from "./clock.ts";
import { jobName, runJob, type CronJob, type CronRun } from "./run-job.ts";
import { nextCronRun, parseSchedule, runsAt, type Schedule } from "./schedule.ts";

/**
 * pg_cron's scheduler, in the stack's process: it reads cron.job (again
 * whenever the table changes: cron.job_cache_invalidate notifies at commit),
 * wakes every second, and starts the runs that are due, as pg_cron's
 * launcher does:
 * - 'N seconds' jobs run when N seconds have passed since their last start
 *   (a new job runs at once); a run still going when the next is due makes
 *   that next one wait for it, and no more pile up.
 * - cron jobs run in each minute their schedule names (UTC); if the
 *   scheduler fell 1-5 minutes behind it runs the minutes it missed, beyond
 *   that only the current one; nothing missed while the stack was stopped is
 *   caught up. @reboot jobs run once when the scheduler starts.
 * - one run of a job at a time; at most `maxRunning` runs at once.
 * - a job with active = false is not run.
 */
export interface SchedulerOptions {
  db: Database;
  clock: Clock;
  log: (message: string) => void;
  /** log succeeded runs too (a run that failed or could not run is always logged) */
  logRuns?: boolean;
  maxRunning: number;
  /** told about every finished run (benchmarks measure with it) */
  onRun?: (run: CronRun & { due: number | null }) => void;
}

interface Pending {
  /** when it became due (by the scheduler's clock); null for a run asked for by hand */
  due: number | null;
  done?: (run: CronRun) => void;
  failed?: (error: unknown) => void;
}

interface Task {
  job: CronJob;
  schedule: Schedule | null;
  pending: Pending[];
  running: Promise<void> | null;
  /** start of the last scheduled run by the scheduler's clock (0: never) */
  lastStart: number;
  removed: boolean;
}

export interface JobStatus extends CronJob {
  running: boolean;
  /** ms, by the scheduler's clock; null when it will not run on its own */
  nextRun: number | null;
}

const SECOND = 1000;
const MINUTE = 60_000;
const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;

export class JobNotFoundError extends Error {}

export class CronScheduler {
  private tasks = new Map<number, Task>();
  private inFlight = new Set<Promise<void>>();
  private runningCount = 0;
  private lastMinute = 0;
  private rebootsQueued = false;
  private cancelTimer: (() => void) | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private reloading: Promise<void> = Promise.resolve();
  private closed = false;
  /** the scheduler runs jobs on their schedules (start() was called) */
  private ticking = false;

  constructor(private readonly options: SchedulerOptions) {}

  async start(): Promise<void> {
    const { db, clock } = this.options;
    if (await this.installed()) {
      // as pg_cron on start: runs that were going when the stack stopped did not finish
      await db.query(
        "update cron.job_run_details set status = 'failed', return_message = 'server restarted' where status in ('starting', 'running')",
      );
    }
    await this.reload();
    this.unlisten = await db.listen("stack_cron", () => void this.reload());
    this.lastMinute = floorTo(clock.now(), MINUTE);
    this.ticking = true;
    this.tick(floorTo(clock.now(), SECOND));
  }

  /** Reads cron.job again (the scheduler also does on every change and every minute). */
  reload(): Promise<void> {
    this.reloading = this.reloading
      .then(() => this.load())
      .catch((error) => this.options.log(`reload failed: ${error}`));
    return this.reloading;
  }

  /** Resolves once no run is going or waiting. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Runs a job now (by id or name), after its current run if one is going; resolves with the run. */
  async runNow(ref: string | number): Promise<CronRun> {
    await this.reload();
    const task = this.find(ref);
    return new Promise<CronRun>((done, failed) => {
      task.pending.push({ due: null, done, failed });
      this.startPending();
    });
  }

  /** The jobs with whether they are running and when they run next. */
  status(): JobStatus[] {
    const now = this.options.clock.now();
    return [...this.tasks.values()]
      .filter((t) => !t.removed)
      .sort((a, b) => a.job.jobid - b.job.jobid)
      .map((t) => ({ ...t.job, running: t.running !== null, nextRun: this.nextRun(t, now) }));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelTimer?.();
    await this.unlisten?.();
    for (const task of this.tasks.values()) {
      for (const p of task.pending) p.failed?.(new Error("the scheduler stopped"));
      task.pending = [];
    }
    await this.reloading;
    await this.settled();
  }

  private find(ref: string | number): Task {
    const all = [...this.tasks.values()].filter((t) => !t.removed);
    const byId = /^\d+$/.test(String(ref)) ? all.find((t) => t.job.jobid === Number(ref)) : undefined;
    if (byId) return byId;
    const named = all.filter((t) => t.job.jobname === String(ref));
    if (named.length === 1) return named[0];
    if (named.length > 1) {
      throw new JobNotFoundError(`${named.length} jobs are named "${ref}" (of different roles): give the job's id`);
    }
    throw new JobNotFoundError(`No job "${ref}" in cron.job`);
  }

  private nextRun(task: Task, now: number): number | null {
    const { schedule, job } = task;
    if (!job.active || !schedule) return null;
    if (schedule.kind === "seconds") return Math.max(task.lastStart + schedule.seconds * SECOND, floorTo(now, SECOND));
    if (schedule.kind === "cron") return nextCronRun(schedule, now);
    return null;
  }

  private async installed(): Promise<boolean> {
    const { rows } = await this.options.db.query<{ ok: boolean }>("select to_regclass('cron.job') is not null as ok");
    return rows[0].ok;
  }

  private async load(): Promise<void> {
    if (this.closed) return;
    const jobs = (await this.installed())
      ? (
          await this.options.db.query<CronJob>(
            "select jobid, jobname, schedule, command, username, active, database from cron.job order by jobid",
          )
        ).rows
      : [];
    const seen = new Set<number>();
    for (const job of jobs) {
      seen.add(job.jobid);
      const task = this.tasks.get(job.jobid);
      if (!task) {
        this.tasks.set(job.jobid, {
          job,
          schedule: parseSchedule(job.schedule),
          pending: [],
          running: null,
          lastStart: 0,
          removed: false,
        });
        continue;
      }
      if (task.job.schedule !== job.schedule) task.schedule = parseSchedule(job.schedule);
      task.job = job;
      // a paused job drops the runs it was waiting to make (not those asked for by hand)
      if (!job.active) task.pending = task.pending.filter((p) => p.due === null);
    }
    for (const [jobid, task] of this.tasks) {
      if (seen.has(jobid)) continue;
      task.removed = true;
      task.pending = task.pending.filter((p) => {
        p.failed?.(new JobNotFoundError(`Job ${jobid} was unscheduled`));
        return false;
      });
      if (!task.running) this.tasks.delete(jobid);
    }
    // as pg_cron's launcher after a reload: a new 'N seconds' job starts now, not at the next tick
    if (this.ticking) {
      this.queueSecondsRuns(floorTo(this.options.clock.now(), SECOND));
      this.startPending();
    }
  }

  private tick(time: number): void {
    if (this.closed) return;
    this.queueDueRuns(time);
    this.startPending();
    const next = floorTo(this.options.clock.now(), SECOND) + SECOND;
    this.cancelTimer = this.options.clock.at(next, () => this.tick(floorTo(this.options.clock.now(), SECOND)));
  }

  private activeTasks(): Task[] {
    return [...this.tasks.values()].filter((t) => t.job.active && !t.removed && t.schedule);
  }

  private queueSecondsRuns(now: number): void {
    for (const t of this.activeTasks()) {
      const s = t.schedule!;
      if (s.kind !== "seconds" || t.pending.some((p) => p.due !== null)) continue;
      const due = t.lastStart + s.seconds * SECOND;
      if (now >= due) t.pending.push({ due: t.lastStart === 0 ? now : due });
    }
  }

  private queueDueRuns(now: number): void {
    const active = this.activeTasks();
    if (!this.rebootsQueued) {
      this.rebootsQueued = true;
      for (const t of active) if (t.schedule!.kind === "reboot") t.pending.push({ due: now });
    }
    this.queueSecondsRuns(now);
    const minute = floorTo(now, MINUTE);
    const passed = (minute - this.lastMinute) / MINUTE;
    // the clock went back: wait for it to catch up rather than run those minutes again
    if (passed < 1) return;
    const minutes =
      passed <= 5 ? Array.from({ length: passed }, (_, i) => this.lastMinute + (i + 1) * MINUTE) : [minute];
    for (const m of minutes) {
      for (const t of active) {
        const s = t.schedule!;
        if (s.kind === "cron" && runsAt(s, m)) t.pending.push({ due: m });
      }
    }
    this.lastMinute = minute;
    void this.reload();
  }

  private startPending(): void {
    if (this.closed) return;
    for (const task of [...this.tasks.values()].sort((a, b) => a.job.jobid - b.job.jobid)) {
      if (this.runningCount >= this.options.maxRunning) return;
      if (task.running || task.pending.length === 0) continue;
      this.launch(task, task.pending.shift()!);
    }
  }

  private launch(task: Task, pending: Pending): void {
    const { db, clock, log, onRun } = this.options;
    const job = task.job;
    if (pending.due !== null) task.lastStart = floorTo(clock.now(), SECOND);
    this.runningCount++;
    const running: Promise<void> = (async () => {
      try {
        const run = await runJob(db, job, () => clock.now());
        // every minute's success would bury the app's own lines in the dev log: only on request
        if (run.status !== "succeeded" || this.options.logRuns)
          log(`${jobName(job)} ${run.status} in ${run.end - run.start} ms: ${run.returnMessage}`);
        onRun?.({ ...run, due: pending.due });
        pending.done?.(run);
      } catch (error) {
        log(`${jobName(job)} could not be run: ${(error as Error).message}`);
        pending.failed?.(error);
      }
    })().finally(() => {
      task.running = null;
      this.runningCount--;
      this.inFlight.delete(running);
      if (task.removed) this.tasks.delete(job.jobid);
      this.startPending();
    });
    task.running = running;
    this.inFlight.add(running);
  }
}
