import fs from "node:fs";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
import type { Database } from "../db/types.ts";
import { readCatalog } from "./catalog.ts";
import { renderTypes } from "./types.ts";

/** Where the app imports its database types from. */
export const DEFAULT_TYPES_FILE = "app/lib/database.types.ts";

/**
 * The generated types for the migrations in `migrationsDir`: applied to a
 * fresh in-memory database (no data folder, no seed), read back from the
 * catalog, formatted as the Supabase CLI formats them (Prettier, no semicolons).
 */
export async function generateTypes({
  migrationsDir,
  schemas,
}: {
  migrationsDir: string;
  schemas: string[];
}): Promise<string> {
  const db = await openPglite({ dataDir: null });
  try {
    await migrate(db, { migrationsDir, seedFile: null });
    return await typesOf(db, schemas);
  } finally {
    await db.close();
  }
}

/** The types of a migrated database's `schemas`, formatted as the Supabase CLI formats them. */
export async function typesOf(db: Database, schemas: string[]): Promise<string> {
  const source = renderTypes(await readCatalog(db, schemas));
  const prettier = await import("prettier");
  return await prettier.format(source, { parser: "typescript", semi: false });
}

/** `gen types`: write the file, or with `check` only compare it (exit code 1 when it is out of date). */
export async function genTypesCommand({
  migrationsDir,
  schemas,
  out,
  check,
}: {
  migrationsDir: string;
  schemas: string[];
  out: string;
  check: boolean;
}) {
  return writeTypesFile({ migrationsDir, out, check }, await generateTypes({ migrationsDir, schemas }));
}

/** Writes the generated types to `out`, or with `check` only compares them (1 when the file is out of date). */
export function writeTypesFile(
  { migrationsDir, out, check }: { migrationsDir: string; out: string; check: boolean },
  generated: string,
): number {
  const current = fs.existsSync(out) ? fs.readFileSync(out, "utf8") : null;
  if (check) {
    if (current === generated) {
      console.log(`${out} is up to date with ${migrationsDir}.`);
      return 0;
    }
    console.error(
      `${out} is out of date with ${migrationsDir}: run \`npm run stack -- gen types\` and commit the file.`,
    );
    return 1;
  }
  if (current === generated) console.log(`${out} is already up to date.`);
  else {
    fs.writeFileSync(out, generated);
    console.log(`wrote ${out}`);
  }
  return 0;
}
