import type { Database } from "../db/types.ts";

/**
 * The secrets the stack keeps in Vault itself, so that a migration can call
 * the project's own functions exactly as Supabase's scheduling guide shows
 * (`select decrypted_secret from vault.decrypted_secrets where name =
 * 'project_url'`): its API URL and its service role key. They are written on
 * a fresh database and brought up to date on every start (the port, and so
 * the URL, may change); on hosted Supabase a person creates them once
 * (docs/deploy.md).
 */
export async function putStackSecrets(
  db: Database,
  secrets: Record<string, { value: string; description: string }>,
  log: (message: string) => void,
): Promise<void> {
  const { rows } = await db.query<{ ok: boolean }>("select to_regclass('vault.secrets') is not null as ok");
  if (!rows[0].ok) return;
  const written: string[] = [];
  for (const [name, { value, description }] of Object.entries(secrets)) {
    const existing = await db.query<{ id: string }>("select id from vault.secrets where name = $1", [name]);
    if (existing.rows.length === 0) {
      await encrypting(() => db.query("select vault.create_secret($1, $2, $3)", [value, name, description]), log);
      written.push(name);
      continue;
    }
    const id = existing.rows[0].id;
    // a secret encrypted under another key (another data folder's) cannot be read: it is replaced
    const current = await db
      .query<{ value: string }>("select decrypted_secret as value from vault.decrypted_secrets where id = $1", [id])
      .then((r) => r.rows[0]?.value)
      .catch(() => null);
    if (current !== value) {
      await encrypting(() => db.query("select vault.update_secret($1, $2)", [id, value]), log);
      written.push(name);
    }
  }
  if (written.length > 0) log(`${written.join(" and ")} written to Vault`);
}

/**
 * PGlite's pgcrypto now and then fails a fresh engine's first encryption with
 * "Unsupported digest algorithm" (see LOST_DIGESTS in stack/db/pglite.ts,
 * which replaces that engine). The stack's own start-up write is then tried
 * once more, on the new engine, rather than failing the whole start; any
 * other error, or a second failure, is thrown.
 */
async function encrypting<T>(write: () => Promise<T>, log: (message: string) => void): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!/Unsupported digest algorithm/.test(String((error as Error).message))) throw error;
    log("pgcrypto could not find its digest on the first try (a PGlite quirk); writing the secret again");
    return await write();
  }
}
