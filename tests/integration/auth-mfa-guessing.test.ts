/**
 * Guessing an authenticator code (issue 22 M1, L1): 600 wrong codes on one
 * challenge in 2.6 s, then the right code still worked; and a code that
 * signed in once worked twice more within its window. Now each IP meets
 * hosted GoTrue's limit on /factors/:id/challenge and /verify (a burst of 30,
 * then 15 a minute), one challenge takes at most 5 codes before it is void,
 * and a factor takes each code once.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import * as jose from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";
import { nextTotp, totp, wrongTotp } from "../support/totp.ts";

const PASSWORD = "correct-horse-1";

/** A signed-in user with a verified authenticator app, and a second, password-only (aal1) sign-in of theirs. */
async function enrolledUser(stack: TestStack) {
  const email = uniqueEmail("mfa-guess");
  const first = serverClient(stack.url, stack.anonKey);
  expect((await first.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
  const { data: enrolled, error } = await first.auth.mfa.enroll({ factorType: "totp" });
  expect(error).toBeNull();
  const secret = enrolled!.totp.secret;
  const used = totp(secret);
  const verified = await first.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: used });
  expect(verified.error).toBeNull();
  const second = serverClient(stack.url, stack.anonKey);
  const { data: signIn } = await second.auth.signInWithPassword({ email, password: PASSWORD });
  return { factorId: enrolled!.id, secret, used, client: second, token: signIn.session!.access_token };
}

async function challengeRequest(stack: TestStack, token: string, factorId: string): Promise<string> {
  const r = await fetch(`${stack.url}/auth/v1/factors/${factorId}/challenge`, {
    method: "POST",
    headers: { apikey: stack.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { id: string }).id;
}

function verifyRequest(stack: TestStack, token: string, factorId: string, challengeId: string, code: string) {
  return fetch(`${stack.url}/auth/v1/factors/${factorId}/verify`, {
    method: "POST",
    headers: {
      apikey: stack.anonKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "x-supabase-api-version": "2024-01-01",
    },
    body: JSON.stringify({ challenge_id: challengeId, code }),
  });
}

async function aalOf(client: SupabaseClient) {
  const { data } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
  return data?.currentLevel;
}

describe("wrong codes on one challenge", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { autoconfirm: true } });
  });
  afterAll(() => stack?.close());

  it("checks five codes against a challenge; then it is void, and the right code on it is refused", async () => {
    const { factorId, secret, client } = await enrolledUser(stack);
    const { data: challenge } = await client.auth.mfa.challenge({ factorId });
    for (let i = 0; i < 5; i++) {
      const { error } = await client.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: wrongTotp(secret) });
      expect(error?.code).toBe("mfa_verification_failed");
    }
    const right = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge!.id,
      code: nextTotp(secret),
    });
    expect(right.error?.code).toBe("mfa_challenge_expired");
    expect(await aalOf(client)).toBe("aal1");

    // a new challenge takes the right code
    const fresh = await client.auth.mfa.challengeAndVerify({ factorId, code: nextTotp(secret) });
    expect(fresh.error).toBeNull();
    expect(jose.decodeJwt(fresh.data!.access_token).aal).toBe("aal2");
  });

  it("lets no more than five of 200 codes sent at once be checked, and the right one after them fails", async () => {
    const { factorId, secret, token } = await enrolledUser(stack);
    const challengeId = await challengeRequest(stack, token, factorId);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        verifyRequest(stack, token, factorId, challengeId, wrongTotp(secret)).then(
          async (r) => ((await r.json()) as { code: string }).code,
        ),
      ),
    );
    expect(answers.filter((code) => code === "mfa_verification_failed").length).toBeLessThanOrEqual(5);
    const right = await verifyRequest(stack, token, factorId, challengeId, nextTotp(secret));
    expect(right.status).toBe(422);
    // void: expired for the first request that finds it so, then gone
    expect(["mfa_challenge_expired", "mfa_factor_not_found"]).toContain(
      ((await right.json()) as { code: string }).code,
    );
  });
});

describe("a code is taken once per factor", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { autoconfirm: true } });
  });
  afterAll(() => stack?.close());

  it("refuses the code that was just used, and an older one, and takes the next", async () => {
    const { factorId, secret, used, client } = await enrolledUser(stack);
    const again = await client.auth.mfa.challengeAndVerify({ factorId, code: used });
    expect(again.error?.code).toBe("mfa_verification_failed");
    const older = await client.auth.mfa.challengeAndVerify({ factorId, code: totp(secret, Date.now() - 30_000) });
    expect(older.error?.code).toBe("mfa_verification_failed");
    expect(await aalOf(client)).toBe("aal1");

    const next = await client.auth.mfa.challengeAndVerify({ factorId, code: nextTotp(secret) });
    expect(next.error).toBeNull();
    expect(await aalOf(client)).toBe("aal2");
  });

  it("lets one of two verifications that send the same new code at once through", async () => {
    const { factorId, secret, token } = await enrolledUser(stack);
    const challenges = [await challengeRequest(stack, token, factorId), await challengeRequest(stack, token, factorId)];
    const code = nextTotp(secret);
    const statuses = await Promise.all(
      challenges.map(async (id) => (await verifyRequest(stack, token, factorId, id, code)).status),
    );
    expect(statuses.sort()).toEqual([200, 422]);
  });
});

describe("the per-IP limit on challenge and verify", () => {
  let stack: TestStack;
  // hosted's burst of 30 (test stacks lift the limit otherwise); a refill of one a minute
  // instead of 15 keeps the burst's edge exact on a slow machine (rate-limit.test.ts checks the refill)
  beforeEach(async () => {
    stack = await startTestStack({ auth: { autoconfirm: true, mfaRequestsPerMinute: 1 } });
  });
  afterEach(() => stack?.close());

  it("answers 429 once an address has sent 30 codes, the right one included", async () => {
    // enrolling sent the first code
    const { factorId, secret, token, client } = await enrolledUser(stack);
    const { data: challenge } = await client.auth.mfa.challenge({ factorId });
    const statuses: number[] = [];
    for (let i = 0; i < 29; i++) {
      statuses.push((await verifyRequest(stack, token, factorId, challenge!.id, wrongTotp(secret))).status);
    }
    expect(statuses.every((s) => s === 422)).toBe(true);
    const { data: fresh } = await client.auth.mfa.challenge({ factorId });
    const limited = await verifyRequest(stack, token, factorId, fresh!.id, nextTotp(secret));
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { code: string }).code).toBe("over_request_rate_limit");
  });

  it("answers 429 once an address has asked for 30 challenges", async () => {
    // enrolling asked for the first
    const { factorId, client } = await enrolledUser(stack);
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 31; i++) codes.push((await client.auth.mfa.challenge({ factorId })).error?.code);
    expect(codes.slice(0, 29).every((c) => c === undefined)).toBe(true);
    expect(codes.slice(29)).toEqual(["over_request_rate_limit", "over_request_rate_limit"]);
  });
});
