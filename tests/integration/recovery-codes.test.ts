/**
 * Two-factor recovery codes in the database (migration …_recovery_codes.sql,
 * docs/decisions/0020): made at aal2 only, kept as hashes, redeemable at
 * aal1 by their account only, spent when used, and gone with the last
 * authenticator app (removed with the service role, as the app server does
 * after a code is redeemed). Everything is called through the REST API with
 * the person's own tokens.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";
import { totp } from "../support/totp.ts";

const CODE = /^[a-km-np-z2-9]{5}-[a-km-np-z2-9]{5}$/;

let stack: TestStack;

async function signedIn(email: string, password: string): Promise<{ client: SupabaseClient; id: string }> {
  const client = serverClient(stack.url, stack.anonKey);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { client, id: data.user!.id };
}

/** An account with a verified authenticator app: its aal2 and aal1 clients. */
async function enrolledPerson() {
  const email = uniqueEmail("codes");
  const password = "codes-password-1";
  await stack.adminClient().auth.admin.createUser({ email, password, email_confirm: true });
  const { client: aal2, id } = await signedIn(email, password);
  const { data: factor } = await aal2.auth.mfa.enroll({ factorType: "totp" });
  const { error } = await aal2.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret) });
  if (error) throw error;
  const { client: aal1 } = await signedIn(email, password);
  return { id, aal2, aal1, factorId: factor!.id };
}

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

describe("recovery codes", () => {
  it("are ten, made at aal2 only, and stored as hashes only", async () => {
    const erin = await enrolledPerson();
    const refused = await erin.aal1.rpc("new_recovery_codes");
    expect(refused.status).toBe(403);

    const { data: codes, error } = await erin.aal2.rpc("new_recovery_codes");
    expect(error).toBeNull();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes as string[]) expect(code).toMatch(CODE);
    const { rows } = await stack.db.query<{ code_hash: string }>(
      "select code_hash from mfa_recovery_codes where user_id = $1",
      [erin.id],
    );
    expect(rows).toHaveLength(10);
    for (const code of codes as string[]) expect(rows.map((r) => r.code_hash).join()).not.toContain(code);
    expect((await erin.aal2.rpc("recovery_codes_left")).data).toBe(10);
    expect((await erin.aal1.rpc("recovery_codes_left")).status).toBe(403);
    // not even their owner reads the rows
    const read = await erin.aal2.from("mfa_recovery_codes").select("*");
    expect(read.error?.code).toBe("42501");

    // making new ones replaces the old
    const { data: again } = await erin.aal2.rpc("new_recovery_codes");
    expect((await erin.aal1.rpc("redeem_recovery_code", { code: (codes as string[])[0] })).data).toBe(false);
    expect((await erin.aal1.rpc("redeem_recovery_code", { code: (again as string[])[0] })).data).toBe(true);
  });

  it("need an authenticator app", async () => {
    const email = uniqueEmail("nocodes");
    await stack.adminClient().auth.admin.createUser({ email, password: "codes-password-1", email_confirm: true });
    const { client } = await signedIn(email, "codes-password-1");
    const { status, error } = await client.rpc("new_recovery_codes");
    // aal1 and no app: require_aal() lets it through, the missing app does not
    expect([status, error?.message]).toEqual([403, expect.stringContaining("authenticator app")]);
  });

  it("redeem at aal1 as typed, once, for their own account only; gone with the last app", async () => {
    const erin = await enrolledPerson();
    const other = await enrolledPerson();
    const { data } = await erin.aal2.rpc("new_recovery_codes");
    const codes = data as string[];
    await other.aal2.rpc("new_recovery_codes");

    expect((await erin.aal1.rpc("redeem_recovery_code", { code: "aaaaa-aaaaa" })).data).toBe(false);
    expect((await other.aal1.rpc("redeem_recovery_code", { code: codes[0] })).data).toBe(false);
    // upper case, spaces and no dash are the same code
    const typed = ` ${codes[0].replace("-", "").toUpperCase()} `;
    expect((await erin.aal1.rpc("redeem_recovery_code", { code: typed })).data).toBe(true);
    expect((await erin.aal2.rpc("recovery_codes_left")).data).toBe(9);
    // a retry soon after (the factor's removal failed halfway) still works; later it doesn't
    expect((await erin.aal1.rpc("redeem_recovery_code", { code: codes[0] })).data).toBe(true);
    await stack.db.query(
      "update mfa_recovery_codes set used_at = now() - interval '16 minutes' where used_at is not null",
    );
    expect((await erin.aal1.rpc("redeem_recovery_code", { code: codes[0] })).data).toBe(false);

    // what the app server does next: remove the account's factors with the service role
    const { error } = await stack.adminClient().auth.admin.mfa.deleteFactor({ id: erin.factorId, userId: erin.id });
    expect(error).toBeNull();
    const { rows } = await stack.db.query("select 1 from mfa_recovery_codes where user_id = $1", [erin.id]);
    expect(rows).toHaveLength(0);
    expect((await erin.aal1.rpc("redeem_recovery_code", { code: codes[1] })).data).toBe(false);
    // the fresh token says "not enrolled": the account works at aal1 again
    const { data: refreshed } = await erin.aal1.auth.refreshSession();
    expect(refreshed.session?.user.app_metadata.mfa_enrolled).toBe(false);
    expect((await erin.aal1.from("profiles").select("id").eq("id", erin.id)).data).toHaveLength(1);
    // the other account's codes are untouched
    expect((await other.aal2.rpc("recovery_codes_left")).data).toBe(10);
  });
});
