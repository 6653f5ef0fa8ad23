import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { extensionFiles, preinstalledExtensionFiles, rewriteExtensionStatement } from "./extensions/index.ts";
import { splitSql } from "./split-sql.ts";
import type { Database } from "./types.ts";

const BASE_SCHEMA = fileURLToPath(new URL("./base-schema.sql", import.meta.url));
/** Each backend service's own schema (storage, realtime, …), applied after the base schema in name order. */
const SERVICE_SCHEMAS_DIR = fileURLToPath(new URL("./schemas/", import.meta.url));

/** The base schema first, then each service's schema file, then the extensions every hosted project has. All idempotent. */
function baseSchemaFiles(): string[] {
  const services = fs.existsSync(SERVICE_SCHEMAS_DIR)
    ? fs
        .readdirSync(SERVICE_SCHEMAS_DIR)
        .filter((f) => f.endsWith(".sql"))
        .sort()
        .map((f) => path.join(SERVICE_SCHEMAS_DIR, f))
    : [];
  return [BASE_SCHEMA, ...services, ...preinstalledExtensionFiles()];
}

export class MigrationError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly statement: string,
    readonly pgMessage: string,
  ) {
    super(
      `Migration ${file} failed at line ${line}:\n\n${indent(statement)}\n\nPostgres said: ${pgMessage}\n` +
        `Nothing of ${path.basename(file)} was applied; the database is as it was before it.`,
    );
    this.name = "MigrationError";
  }
}

function indent(text: string) {
  const lines = text.split("\n");
  const shown = lines.length > 12 ? [...lines.slice(0, 12), "…"] : lines;
  return shown.map((l) => `    ${l}`).join("\n");
}

function pgMessageOf(error: unknown): string {
  const e = error as { message?: string; code?: string; detail?: string; hint?: string };
  return [e.message ?? String(error), e.code && `(SQLSTATE ${e.code})`, e.detail, e.hint && `Hint: ${e.hint}`]
    .filter(Boolean)
    .join(" ");
}

/**
 * Runs a script statement by statement inside one transaction. `create
 * extension` for an extension the stack supplies runs the stack's SQL for it
 * (stack/db/extensions).
 */
async function runScript(db: Database, file: string, sql: string, after?: string[]) {
  const statements = splitSql(sql);
  await db.transaction(async (tx) => {
    for (const statement of statements) {
      try {
        await tx.exec(rewriteExtensionStatement(statement.sql) ?? statement.sql);
      } catch (error) {
        throw new MigrationError(file, statement.line, statement.sql, pgMessageOf(error));
      }
    }
    for (const extra of after ?? []) await tx.exec(extra);
  });
  return statements;
}

export async function applyBaseSchema(db: Database): Promise<void> {
  for (const file of baseSchemaFiles()) await runScript(db, file, fs.readFileSync(file, "utf8"));
}

export interface MigrationReport {
  applied: string[];
  seeded: boolean;
}

const MIGRATION_NAME = /^(\d+)_(.+)\.sql$/;

export function listMigrations(dir: string): { version: string; name: string; file: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => ({ f, m: MIGRATION_NAME.exec(f) }))
    .filter((x): x is { f: string; m: RegExpExecArray } => x.m !== null)
    .map(({ f, m }) => ({ version: m[1], name: m[2], file: path.join(dir, f) }))
    .sort((a, b) => a.version.localeCompare(b.version));
}

/**
 * Applies the base schema, then each migration not yet recorded, in order,
 * each in its own transaction; then the seed on a database never seeded.
 */
export async function migrate(
  db: Database,
  options: { migrationsDir: string; seedFile?: string | null; log?: (line: string) => void },
): Promise<MigrationReport> {
  const log = options.log ?? (() => {});
  await applyBaseSchema(db);
  const done = new Set(
    (await db.query<{ version: string }>("select version from supabase_migrations.schema_migrations")).rows.map(
      (r) => r.version,
    ),
  );
  const applied: string[] = [];
  for (const migration of listMigrations(options.migrationsDir)) {
    if (done.has(migration.version)) continue;
    const sql = fs.readFileSync(migration.file, "utf8");
    const record = `insert into supabase_migrations.schema_migrations (version, name, statements) values (${literal(
      migration.version,
    )}, ${literal(migration.name)}, array[]::text[])`;
    await runScript(db, migration.file, sql, [record]);
    applied.push(path.basename(migration.file));
    log(`applied ${path.basename(migration.file)}`);
  }

  let seeded = false;
  if (options.seedFile && fs.existsSync(options.seedFile)) {
    const { rows } = await db.query("select 1 from supabase_migrations.seed_files limit 1");
    if (rows.length === 0) {
      const sql = fs.readFileSync(options.seedFile, "utf8");
      const hash = crypto.createHash("sha256").update(sql).digest("hex");
      await runScript(db, options.seedFile, sql, [
        `insert into supabase_migrations.seed_files (path, hash) values (${literal(
          path.basename(options.seedFile),
        )}, ${literal(hash)})`,
      ]);
      seeded = true;
      log(`seeded from ${path.basename(options.seedFile)}`);
    }
  }
  // PostgREST-compatible services cache the schema; tell them it changed.
  if (applied.length > 0) await db.query("notify pgrst, 'reload schema'");
  return { applied, seeded };
}

/** A SQL string literal for values we control (file names, hashes). */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A hash of everything that shapes a freshly migrated database. */
export function schemaFingerprint(migrationsDir: string, seedFile?: string | null): string {
  const hash = crypto.createHash("sha256");
  for (const file of [...baseSchemaFiles(), ...extensionFiles()]) hash.update(fs.readFileSync(file));
  for (const m of listMigrations(migrationsDir)) {
    hash.update(path.basename(m.file));
    hash.update(fs.readFileSync(m.file));
  }
  if (seedFile && fs.existsSync(seedFile)) hash.update(fs.readFileSync(seedFile));
  return hash.digest("hex").slice(0, 16);
}
