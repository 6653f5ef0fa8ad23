import crypto from "node:crypto";
import pg from "pg";
import { openPglite } from "../../stack/db/pglite.ts";
import { openPostgres } from "../../stack/db/postgres.ts";
import type { Database } from "../../stack/db/types.ts";
import { withDatabase } from "./template.ts";

/**
 * An empty database of the run's kind, for tests that apply migrations themselves (a
 * migration tested on data the old migrations made): an in-memory PGlite, or a new
 * database `<prefix>_<random>` on the native PostgreSQL of TEST_DATABASE_URL, dropped by `cleanup`.
 */
export async function freshDatabase(prefix: string): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const pglite = await openPglite({ dataDir: null });
    return { db: pglite, cleanup: () => pglite.close() };
  }
  const name = `${prefix}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const native = await openPostgres(withDatabase(adminUrl, name), 2);
  return {
    db: native,
    cleanup: async () => {
      await native.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
