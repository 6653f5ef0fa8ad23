import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import ws from "ws";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { startStack, type RunningStack, type StartOptions } from "../../stack/server.ts";
import { ensurePgliteTemplateFolder, ensurePostgresTemplate, MIGRATIONS_DIR, withDatabase } from "./template.ts";

export type TestStack = RunningStack & {
  /** a supabase-js client with the anon key and no persisted session */
  anonClient(): SupabaseClient;
  /** a supabase-js client with the service role key */
  adminClient(): SupabaseClient;
};

/**
 * A fresh local stack for one test file: PGlite in a scratch folder copied
 * from the migrated template folder, or, with TEST_DATABASE_URL, a new database
 * copied from a migrated template database on that native PostgreSQL.
 * Listens on a random port. Rate limits are lifted unless a test sets them.
 * Scheduled jobs do not run on their own (the migrations schedule one every
 * minute, which would call a function in the middle of unrelated tests):
 * tests that want them pass `scheduler: { cron: true }`, or run a job with
 * `stack.scheduler.cron.runNow()`. pg_net's requests are sent as usual.
 */
export async function startTestStack(options: StartOptions = {}): Promise<TestStack> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  let dropDatabase: (() => Promise<void>) | null = null;
  const base: StartOptions = {
    port: 0,
    // the inbox's SMTP listener on a free port (functions are told which)
    smtpPort: 0,
    dataDir: null,
    seedFile: null,
    migrationsDir: MIGRATIONS_DIR,
    quiet: true,
    skipMigrations: true,
    ...options,
    scheduler: { cron: false, ...options.scheduler },
    auth: {
      tokenRequestsPerMinute: 100_000,
      mfaRequestsPerMinute: 0,
      bcryptCost: 4,
      ...options.auth,
    },
  };
  if (adminUrl && !options.databaseUrl) {
    const template = await ensurePostgresTemplate(adminUrl);
    const name = `teamboard_test_${crypto.randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(template)}`);
    await admin.end();
    base.databaseUrl = withDatabase(adminUrl, name);
    dropDatabase = async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await a.end();
    };
  } else if (!adminUrl) {
    base.template = await ensurePgliteTemplateFolder();
  }
  const stack = await startStack(base);
  const closeStack = stack.close;
  const client = (key: string) =>
    createClient(stack.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      // Node 20 has no global WebSocket; supabase-js 2.109 builds its realtime client eagerly.
      realtime: { transport: ws as unknown as typeof WebSocket },
    });
  return Object.assign(stack, {
    anonClient: () => client(stack.anonKey),
    adminClient: () => client(stack.serviceRoleKey),
    async close() {
      await closeStack();
      await dropDatabase?.();
    },
  });
}

/**
 * A database (and data folder) that outlives one stack, for restarts: each
 * `start()` is a stack on the same database, PGlite in a temporary folder or
 * a database of its own on TEST_DATABASE_URL's server.
 */
export async function persistentTestDatabase(): Promise<{
  start(options?: StartOptions): Promise<TestStack>;
  dispose(): Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-restart-"));
  const adminUrl = process.env.TEST_DATABASE_URL;
  let databaseUrl: string | undefined;
  let name = "";
  if (adminUrl) {
    const template = await ensurePostgresTemplate(adminUrl);
    name = `teamboard_test_${crypto.randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(template)}`);
    await admin.end();
    databaseUrl = withDatabase(adminUrl, name);
  }
  return {
    start: (options = {}) => startTestStack({ ...options, dataDir, databaseUrl }),
    async dispose() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!adminUrl) return;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await admin.end();
    },
  };
}
