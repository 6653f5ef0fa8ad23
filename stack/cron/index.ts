import type { ServiceContext, StackService } from "../context.ts";
import { allowList } from "../net/allow-list.ts";
import { NetWorker } from "../net/worker.ts";
import { putStackSecrets } from "../vault/secrets.ts";
import { systemClock, type Clock } from "./clock.ts";
import { cronRoutes } from "./routes.ts";
import { CronScheduler, type SchedulerOptions as CronSchedulerOptions } from "./scheduler.ts";

/**
 * The database's background work, as a hosted project's extensions do it:
 * Supabase Cron's scheduler (stack/cron), pg_net's sender (stack/net), and
 * the stack's own Vault secrets (stack/vault). One service: its routes at
 * /_stack/cron (this machine's own, like the rest of /_stack); `start` once
 * the API answers (the project URL is known), `close` before the database closes.
 */
export interface SchedulerServiceOptions {
  /** the scheduler's clock (tests move a ManualClock) */
  clock?: Clock;
  /** run jobs on their schedules (default on; `runNow` works either way) */
  cron?: boolean;
  /** send pg_net's queued requests (default on) */
  net?: boolean;
  /** told about every finished run (benchmarks) */
  onRun?: CronSchedulerOptions["onRun"];
}

export interface SchedulerService extends StackService {
  cron: CronScheduler;
  net: NetWorker;
}

export function createSchedulerService(ctx: ServiceContext, options: SchedulerServiceOptions = {}): SchedulerService {
  const { db, config } = ctx;
  const cron = new CronScheduler({
    db,
    clock: options.clock ?? systemClock,
    log: (m) => ctx.log("cron", m),
    logRuns: config.cron.logRuns,
    maxRunning: config.cron.maxRunningJobs,
    onRun: options.onRun,
  });
  const net = new NetWorker({
    db,
    allow: allowList(ctx.apiUrl, config.net.allowedHosts),
    log: (m) => ctx.log("net", m),
    concurrency: config.net.concurrency,
    batchSize: config.net.batchSize,
    ttlSeconds: config.net.ttlSeconds,
  });
  return {
    name: "scheduler",
    http: {
      mount: "/_stack/cron",
      app: cronRoutes(db, ctx.keys, cron),
      access: "local",
      maxBodyBytes: config.maxBodyBytes,
      measured: false,
    },
    cron,
    net,
    async start() {
      await putStackSecrets(
        db,
        {
          project_url: { value: ctx.apiUrl, description: "The local stack's API URL (kept current by the stack)" },
          service_role_key: {
            value: ctx.keys.serviceRoleKey,
            description: "The local stack's service role key (kept current by the stack)",
          },
          // the app's address, for links in webhooks (supabase/migrations/20261207000710_webhooks.sql)
          site_url: { value: config.auth.siteUrl, description: "The app's address (the stack's site URL)" },
        },
        (m) => ctx.log("vault", m),
      );
      if (options.net ?? true) await net.start();
      if (options.cron ?? true) await cron.start();
    },
    async close() {
      await cron.close();
      await net.close();
    },
  };
}
