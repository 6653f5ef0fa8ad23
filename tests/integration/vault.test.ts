/**
 * Supabase Vault in the local stack, on PGlite and on a native PostgreSQL:
 * vault.create_secret / update_secret and vault.decrypted_secrets, secrets
 * encrypted at rest under a key kept in the data folder (not in the
 * database), Vault's privileges, and the project_url / service_role_key
 * secrets the stack keeps for migrations that call the project's functions.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../../stack/db/types.ts";
import { persistentTestDatabase, startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

function asRole<T>(role: "anon" | "authenticated" | "service_role", fn: (tx: Queryable) => Promise<T>) {
  return stack.db.asRequest({ role, claims: { role } }, fn);
}

const decrypted = async (name: string) =>
  (
    await stack.db.query<{ value: string }>(
      "select decrypted_secret as value from vault.decrypted_secrets where name = $1",
      [name],
    )
  ).rows[0]?.value;

describe("Vault", () => {
  it("stores a secret encrypted and gives it back through vault.decrypted_secrets", async () => {
    const { rows } = await stack.db.query<{ id: string }>(
      "select vault.create_secret('s3kre3t-value', 'api_key', 'a test key') as id",
    );
    const { rows: stored } = await stack.db.query<{ secret: string; description: string }>(
      "select secret, description from vault.secrets where id = $1",
      [rows[0].id],
    );
    expect(stored[0].description).toBe("a test key");
    expect(stored[0].secret).not.toContain("s3kre3t");
    expect(Buffer.from(stored[0].secret, "base64").toString("latin1")).not.toContain("s3kre3t");
    expect(await decrypted("api_key")).toBe("s3kre3t-value");

    await stack.db.query("select vault.update_secret($1, 'n3w-value', 'api_key_2', 'rotated')", [rows[0].id]);
    expect(await decrypted("api_key_2")).toBe("n3w-value");
    await expect(stack.db.query("select vault.create_secret('x', 'api_key_2')")).rejects.toThrow(/duplicate key/);
  });

  it("cannot decrypt in a session that does not hold the stack's key", async () => {
    const error = await stack.db
      .transaction(async (tx) => {
        await tx.query("select set_config('stack.vault_key', '', true)");
        await tx.query("select decrypted_secret from vault.decrypted_secrets where name = 'api_key_2'");
      })
      .catch((e: Error) => e.message);
    expect(error).toBe("the Vault key is not loaded in this session");
  });

  it("is closed to anon and authenticated, open to service_role as on hosted", async () => {
    for (const role of ["anon", "authenticated"] as const) {
      for (const sql of [
        "select * from vault.secrets",
        "select decrypted_secret from vault.decrypted_secrets",
        "select vault.create_secret('x')",
      ]) {
        await expect(
          asRole(role, (tx) => tx.query(sql)),
          `${role}: ${sql}`,
        ).rejects.toThrow("permission denied for schema vault");
      }
    }
    const read = await asRole("service_role", async (tx) => {
      await tx.query("select vault.create_secret('by-service', 'service_made')");
      return (await tx.query("select decrypted_secret from vault.decrypted_secrets where name = 'service_made'")).rows;
    });
    expect(read).toEqual([{ decrypted_secret: "by-service" }]);
  });

  it("holds the project's URL and service role key, as the scheduling guide's migrations read them", async () => {
    expect(await decrypted("project_url")).toBe(stack.url);
    expect(await decrypted("service_role_key")).toBe(stack.serviceRoleKey);
  });

  it("keeps its key in the data folder, readable by its owner only, and the secrets across a restart", async () => {
    const database = await persistentTestDatabase();
    try {
      const first = await database.start();
      await first.db.query("select vault.create_secret('kept', 'kept_secret')");
      await first.close();
      const keyFile = path.join(first.config.dataDir!, "vault.key");
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(keyFile, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);

      const second = await database.start();
      try {
        const { rows } = await second.db.query(
          "select name, decrypted_secret from vault.decrypted_secrets where name in ('kept_secret', 'project_url') order by name",
        );
        // the port is new on each start: the stack brings project_url up to date
        expect(rows).toEqual([
          { name: "kept_secret", decrypted_secret: "kept" },
          { name: "project_url", decrypted_secret: second.url },
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await database.dispose();
    }
  });
});
