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

/**
 * The same template as a cleanly closed PGlite data folder, which a test's
 * stack copies instead of unpacking the dump: a stack's start-up took about
 * 1.0 s of CPU instead of 1.6–1.8 s here. Made once per schema, beside the
 * dump; folders left by older schemas are removed then.
 */
export async function ensurePgliteTemplateFolder(): Promise<string> {
  const dump = await ensurePgliteTemplate();
  const folder = dump.replace(/\.tar\.gz$/, "");
  if (fs.existsSync(path.join(folder, "PG_VERSION"))) return folder;
  const work = `${folder}.${process.pid}.tmp`;
  fs.rmSync(work, { recursive: true, force: true });
  const db = await openPglite({ dataDir: work, loadDataDir: new Blob([fs.readFileSync(dump)]) });
  await db.close();
  try {
    fs.renameSync(path.join(work, "pgdata"), folder);
  } catch (error) {
    // another process made it first
    if (!fs.existsSync(path.join(folder, "PG_VERSION"))) throw error;
  }
  fs.rmSync(work, { recursive: true, force: true });
  for (const name of fs.readdirSync(TEMPLATE_DIR)) {
    const other = path.join(TEMPLATE_DIR, name);
    if (/^pglite-[0-9a-f]+$/.test(name) && other !== folder) fs.rmSync(other, { recursive: true, force: true });
  }
  return folder;
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
