import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../config-load.ts";
import { rewriteExtensionStatement } from "../db/extensions/index.ts";
import { applyBaseSchema } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import type { Database } from "../db/types.ts";
import { ManualClock } from "./clock.ts";
import { CronScheduler } from "./scheduler.ts";

/** The dev log: a job that succeeds says nothing unless asked (STACK_CRON_LOG=1); one that fails always says so. */
let db: Database;

beforeAll(async () => {
  db = await openPglite({ dataDir: null });
  await applyBaseSchema(db);
  await db.exec(rewriteExtensionStatement("create extension if not exists pg_cron")!);
  await db.query("select cron.schedule('fine', '0 3 * * *', 'select 1')");
  await db.query("select cron.schedule('broken', '0 3 * * *', 'select 1/0')");
}, 60_000);
afterAll(() => db?.close());

async function linesOf(logRuns: boolean | undefined) {
  const lines: string[] = [];
  const cron = new CronScheduler({
    db,
    clock: new ManualClock(Date.parse("2026-12-07T12:00:00Z")),
    log: (line) => lines.push(line),
    logRuns,
    maxRunning: 2,
  });
  await cron.start();
  try {
    await cron.runNow("fine");
    await cron.runNow("broken");
  } finally {
    await cron.close();
  }
  return lines;
}

describe("the scheduler's log", () => {
  it("is quiet about a run that succeeded, by default", async () => {
    const lines = await linesOf(undefined);
    expect(lines.filter((l) => l.startsWith("fine"))).toEqual([]);
    expect(lines.filter((l) => l.startsWith("broken"))).toEqual([
      expect.stringMatching(/^broken failed in \d+ ms: .*division by zero/),
    ]);
  });

  it("prints every run when asked", async () => {
    const lines = await linesOf(true);
    expect(lines).toContainEqual(expect.stringMatching(/^fine succeeded in \d+ ms/));
    expect(lines).toContainEqual(expect.stringMatching(/^broken failed/));
  });

  it("is asked with STACK_CRON_LOG=1", () => {
    expect(configFromEnv({ STACK_CRON_LOG: "1" }).cron).toEqual({ logRuns: true });
    expect(configFromEnv({}).cron).toEqual({ logRuns: undefined });
  });
});
