import fs from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The hosted extensions the stack supplies itself: PGlite cannot load
 * pg_cron, pg_net or supabase_vault, and a native PostgreSQL rarely has them
 * (Debian packages pg_cron 1.4 only). A migration's `create extension` (or
 * `drop extension`) for one of them is answered by running the stack's own
 * SQL for it (the files beside this one), which gives the same schemas,
 * tables, functions and privileges; the stack's process does the extension's
 * background work (stack/cron, stack/net). Other extensions go to Postgres.
 */
export interface SuppliedExtension {
  name: "pg_cron" | "pg_net" | "supabase_vault";
  /** the schema the extension's objects live in, whatever `with schema` says (as the real ones) */
  schema: string;
  /** the file that installs it, idempotent */
  file: string;
  /** installed on every start, as hosted projects have it from the beginning */
  preinstalled: boolean;
}

const file = (name: string) => fileURLToPath(new URL(`./${name}.sql`, import.meta.url));

export const SUPPLIED_EXTENSIONS: readonly SuppliedExtension[] = [
  { name: "pg_cron", schema: "cron", file: file("pg_cron"), preinstalled: false },
  { name: "pg_net", schema: "net", file: file("pg_net"), preinstalled: false },
  { name: "supabase_vault", schema: "vault", file: file("supabase_vault"), preinstalled: true },
];

const NAMES = SUPPLIED_EXTENSIONS.map((e) => e.name).join("|");
const IDENT = `[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+"`;
const CREATE = new RegExp(
  `^create\\s+extension\\s+(if\\s+not\\s+exists\\s+)?"?(${NAMES})"?` +
    `(?:\\s+with)?(?:\\s+schema\\s+(?:${IDENT}))?(?:\\s+version\\s+(?:${IDENT}|'[^']*'))?(?:\\s+cascade)?\\s*;?$`,
  "is",
);
const DROP = new RegExp(
  `^drop\\s+extension\\s+(if\\s+exists\\s+)?"?(${NAMES})"?(?:\\s+(?:cascade|restrict))?\\s*;?$`,
  "is",
);

/** A statement without its leading comments and blank lines. */
function stripLeadingComments(sql: string): string {
  let s = sql.trimStart();
  for (;;) {
    if (s.startsWith("--")) s = s.slice(s.indexOf("\n") === -1 ? s.length : s.indexOf("\n") + 1).trimStart();
    else if (s.startsWith("/*") && s.includes("*/")) s = s.slice(s.indexOf("*/") + 2).trimStart();
    else return s;
  }
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

function installed(ext: SuppliedExtension, must: boolean, message: string, code: string): string {
  // the schema's presence is what "installed" means here (pg_extension has no row for it)
  const test = `to_regnamespace(${quote(ext.schema)}) is ${must ? "not " : ""}null`;
  return `do $$ begin if ${test} then raise exception using errcode = '${code}', message = ${quote(message)}; end if; end $$;\n`;
}

/**
 * The SQL to run instead of `statement` when it creates or drops one of the
 * supplied extensions, or null for any other statement. Without IF NOT
 * EXISTS / IF EXISTS it fails as Postgres would (42710 / 42704).
 */
export function rewriteExtensionStatement(statement: string): string | null {
  const sql = stripLeadingComments(statement);
  const create = CREATE.exec(sql);
  if (create) {
    const ext = SUPPLIED_EXTENSIONS.find((e) => e.name === create[2].toLowerCase())!;
    const guard = create[1] ? "" : installed(ext, true, `extension "${ext.name}" already exists`, "42710");
    return guard + fs.readFileSync(ext.file, "utf8");
  }
  const drop = DROP.exec(sql);
  if (drop) {
    const ext = SUPPLIED_EXTENSIONS.find((e) => e.name === drop[2].toLowerCase())!;
    const guard = drop[1] ? "" : installed(ext, false, `extension "${ext.name}" does not exist`, "42704");
    return `${guard}drop schema if exists ${ext.schema} cascade;`;
  }
  return null;
}

/** The files installed on every start (after the base schema), in order. */
export function preinstalledExtensionFiles(): string[] {
  return SUPPLIED_EXTENSIONS.filter((e) => e.preinstalled).map((e) => e.file);
}

/** Every file that can shape the database (for the schema fingerprint). */
export function extensionFiles(): string[] {
  return SUPPLIED_EXTENSIONS.map((e) => e.file);
}
