import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Vault's root key: 32 random bytes made on first start and kept in the data
 * folder (vault.key, readable by its owner only), never in the database, so
 * a dump of the database holds Vault's secrets encrypted only (as hosted
 * Vault keeps its key outside SQL). An in-memory stack makes one per start.
 * The stack gives it to each of its database sessions as a setting
 * (stack/db/extensions/supabase_vault.sql reads it).
 */
export const VAULT_KEY_SETTING = "stack.vault_key";

export function loadOrCreateVaultKey(dataDir: string | null): string {
  const file = dataDir ? path.join(dataDir, "vault.key") : null;
  if (file && fs.existsSync(file)) {
    const key = fs.readFileSync(file, "utf8").trim();
    if (!/^[0-9a-f]{64}$/.test(key))
      throw new Error(`${file} is not a Vault key (64 hex digits); move it away to make a new one`);
    return key;
  }
  const key = crypto.randomBytes(32).toString("hex");
  if (file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  }
  return key;
}

/** The session settings that carry the key to the database. */
export function vaultSettings(key: string): Record<string, string> {
  return { [VAULT_KEY_SETTING]: key };
}
