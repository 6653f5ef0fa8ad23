import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { migrate, schemaFingerprint } from "../../stack/db/migrate.ts";
import { openPglite } from "../../stack/db/pglite.ts";
import { openPostgres } from "../../stack/db/postgres.ts";

export const MIGRATIONS_DIR = path.resolve("supabase/migrations");
const TEMPLATE_DIR = path.resolve(".data/templates");

/** A migrated, unseeded PGlite data folder dump, cached by schema fingerprint. */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = path.join(TEMPLATE_DIR, `pglite-${schemaFingerprint(MIGRATIONS_DIR, null)}.tar.gz`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
  const db = await openPglite({ dataDir: null });
  try {
    await migrate(db, { migrationsDir: MIGRATIONS_DIR, seedFile: null });
    const dump = await db.dump();
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
  } finally {
    await db.close();
  }
  return file;
}

export function templateDatabaseName(): string {
  return `teamboard_template_${schemaFingerprint(MIGRATIONS_DIR, null)}`;
}

/** On a native PostgreSQL: a migrated template database to copy per test file. */
export async function ensurePostgresTemplate(adminUrl: string): Promise<string> {
  const name = templateDatabaseName();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (rows.length > 0) return name;
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const db = await openPostgres(withDatabase(adminUrl, name), 2);
  try {
    await migrate(db, { migrationsDir: MIGRATIONS_DIR, seedFile: null });
  } finally {
    await db.close();
  }
  return name;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
