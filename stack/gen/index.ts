import fs from "node:fs";
import { migrate } from "../db/migrate.ts";
import { openPglite } from "../db/pglite.ts";
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
    const source = renderTypes(await readCatalog(db, schemas));
    const prettier = await import("prettier");
    return await prettier.format(source, { parser: "typescript", semi: false });
  } finally {
    await db.close();
  }
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
  const generated = await generateTypes({ migrationsDir, schemas });
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
    console.log(`wrote ${out} (${schemas.join(", ")})`);
  }
  return 0;
}
