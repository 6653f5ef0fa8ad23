import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";
import { TestAuthenticator } from "../support/test-authenticator.ts";

const PASSWORD = "correct-horse-1";
const RP_ID = "localhost";
const ORIGIN = "http://localhost:5173";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string; message?: string };
}

describe("passkeys, when the project enables them (GoTrue's /passkeys)", () => {
  let stack: TestStack;
  const call = async (method: string, path: string, body?: unknown, token?: string): Promise<Answer> => {
    const res = await fetch(`${stack.url}/auth/v1${path}`, {
      method,
      headers: {
        apikey: stack.anonKey,
        "content-type": "application/json",
        "x-supabase-api-version": "2024-01-01",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  };
  const adminCall = async (method: string, path: string) => {
    const res = await fetch(`${stack.url}/auth/v1${path}`, {
      method,
      headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  };
  const signUp = async () => {
    const { data } = await serverClient(stack.url, stack.anonKey).auth.signUp({
      email: uniqueEmail(),
      password: PASSWORD,
    });
    return { token: data.session!.access_token, userId: data.user!.id };
  };
  const register = async (token: string, authenticator: TestAuthenticator) => {
    const options = await call("POST", "/passkeys/registration/options", {}, token);
    const opts = options.body.options as { challenge: string; user: { id: string } };
    return call(
      "POST",
      "/passkeys/registration/verify",
      { challenge_id: options.body.challenge_id, credential: authenticator.create(opts) },
      token,
    );
  };
  const signIn = async (authenticator: TestAuthenticator) => {
    const options = await call("POST", "/passkeys/authentication/options", {});
    const opts = options.body.options as { challenge: string };
    const credential = authenticator.get(opts);
    const first = await call("POST", "/passkeys/authentication/verify", {
      challenge_id: options.body.challenge_id,
      credential,
    });
    return { options, first, credential };
  };

  beforeAll(async () => {
    stack = await startTestStack({
      auth: {
        autoconfirm: true,
        passkey: { enabled: true, maxPerUser: 2 },
        webauthn: { rpId: RP_ID, rpDisplayName: "Teamboard tests", rpOrigins: [ORIGIN], challengeExpiry: 300 },
      },
    });
  });
  afterAll(() => stack.close());

  it("offers creation options for a discoverable ES256 credential", async () => {
    const { token, userId } = await signUp();
    const { status, body } = await call("POST", "/passkeys/registration/options", {}, token);
    expect(status).toBe(200);
    expect(body.challenge_id).toMatch(UUID);
    expect(body.expires_at).toBeGreaterThan(Date.now() / 1000);
    const options = body.options as {
      rp: unknown;
      user: { id: string };
      pubKeyCredParams: unknown[];
      authenticatorSelection: { residentKey: string };
      attestation: string;
    };
    expect(options.rp).toEqual({ name: "Teamboard tests", id: RP_ID });
    expect(Buffer.from(options.user.id, "base64url").toString()).toBe(userId);
    expect(options.pubKeyCredParams).toContainEqual({ type: "public-key", alg: -7 });
    expect(options.authenticatorSelection.residentKey).toBe("required");
    expect(options.attestation).toBe("none");
  });

  it("registers a passkey, signs in with it once per challenge, and refuses it once deleted", async () => {
    const { token, userId } = await signUp();
    const authenticator = new TestAuthenticator(RP_ID, ORIGIN);
    const created = await register(token, authenticator);
    expect(created.status).toBe(200);
    expect(created.body.id).toMatch(UUID);
    expect(created.body.friendly_name).toBe("Passkey");

    const { options, first, credential } = await signIn(authenticator);
    expect(options.body.options).not.toHaveProperty("allowCredentials");
    expect(first.status).toBe(200);
    expect((first.body.user as { id: string }).id).toBe(userId);
    const claims = JSON.parse(Buffer.from(String(first.body.access_token).split(".")[1], "base64url").toString());
    expect(claims.amr).toEqual([expect.objectContaining({ method: "passkey" })]);

    const replay = await call("POST", "/passkeys/authentication/verify", {
      challenge_id: options.body.challenge_id,
      credential,
    });
    expect(replay).toMatchObject({ status: 400, body: { code: "webauthn_challenge_not_found" } });

    const listed = await call("GET", "/passkeys", undefined, token);
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, last_used_at: expect.any(String) })]);

    const renamed = await call("PATCH", `/passkeys/${created.body.id}`, { friendly_name: "Laptop" }, token);
    expect(renamed.body).toMatchObject({ id: created.body.id, friendly_name: "Laptop" });
    const unknown = await call(
      "PATCH",
      "/passkeys/00000000-0000-0000-0000-000000000000",
      { friendly_name: "x" },
      token,
    );
    expect(unknown).toMatchObject({ status: 404, body: { message: "Passkey not found" } });

    expect((await call("DELETE", `/passkeys/${created.body.id}`, undefined, token)).status).toBe(204);
    const after = await signIn(authenticator);
    expect(after.first).toMatchObject({ status: 400, body: { code: "webauthn_verification_failed" } });
  });

  it("rejects an unknown challenge, a foreign origin and an unregistered authenticator", async () => {
    const { token } = await signUp();
    const authenticator = new TestAuthenticator(RP_ID, ORIGIN);
    const options = await call("POST", "/passkeys/registration/options", {}, token);
    const opts = options.body.options as { challenge: string; user: { id: string } };
    const unknown = await call(
      "POST",
      "/passkeys/registration/verify",
      { challenge_id: "00000000-0000-0000-0000-000000000000", credential: authenticator.create(opts) },
      token,
    );
    expect(unknown).toMatchObject({ status: 400, body: { code: "webauthn_challenge_not_found" } });

    const foreign = await call(
      "POST",
      "/passkeys/registration/verify",
      {
        challenge_id: options.body.challenge_id,
        credential: authenticator.create(opts, { origin: "https://evil.test" }),
      },
      token,
    );
    expect(foreign).toMatchObject({
      status: 400,
      body: { code: "webauthn_verification_failed", message: "Credential verification failed" },
    });

    // bound to the user's handle but never registered
    const { first } = await signIn(authenticator);
    expect(first).toMatchObject({ status: 400, body: { code: "webauthn_verification_failed" } });
  });

  it("limits passkeys per user and needs a signed-in, non-anonymous caller", async () => {
    const { token } = await signUp();
    expect((await register(token, new TestAuthenticator(RP_ID, ORIGIN))).status).toBe(200);
    expect((await register(token, new TestAuthenticator(RP_ID, ORIGIN))).status).toBe(200);
    const third = await call("POST", "/passkeys/registration/options", {}, token);
    expect(third).toMatchObject({ status: 422, body: { code: "too_many_passkeys" } });
    const anonymous = await call("POST", "/passkeys/registration/options", {});
    expect(anonymous).toMatchObject({ status: 401, body: { code: "no_authorization" } });
  });

  it("lets the admin API list and delete a user's passkeys", async () => {
    const { token, userId } = await signUp();
    const created = await register(token, new TestAuthenticator(RP_ID, ORIGIN));
    const listed = await adminCall("GET", `/admin/users/${userId}/passkeys`);
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id })]);
    expect((await adminCall("DELETE", `/admin/users/${userId}/passkeys/${created.body.id}`)).status).toBe(204);
    expect((await adminCall("GET", `/admin/users/${userId}/passkeys`)).body).toEqual([]);
  });
});

describe("passkeys when the project leaves them off (hosted's default)", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  it("answers every /passkeys endpoint with GoTrue's 'Passkeys are disabled'", async () => {
    for (const [method, path] of [
      ["POST", "/passkeys/authentication/options"],
      ["POST", "/passkeys/registration/options"],
      ["GET", "/passkeys"],
      ["DELETE", "/passkeys/00000000-0000-0000-0000-000000000000"],
      ["GET", "/passkeys/anything/else"],
    ]) {
      const res = await fetch(`${stack.url}/auth/v1${path}`, { method, headers: { apikey: stack.anonKey } });
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ error_code: "passkey_disabled", msg: "Passkeys are disabled" });
    }
    const settings = await (
      await fetch(`${stack.url}/auth/v1/settings`, { headers: { apikey: stack.anonKey } })
    ).json();
    expect(settings.passkeys_enabled).toBe(false);
  });
});
