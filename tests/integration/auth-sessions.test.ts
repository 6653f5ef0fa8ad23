import * as jose from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";

describe("sessions, refresh tokens and sign-out", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  async function signedIn() {
    const email = uniqueEmail("session");
    await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    return passwordGrant(email);
  }

  async function passwordGrant(email: string) {
    const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    return {
      email,
      ...((await res.json()) as {
        access_token: string;
        refresh_token: string;
        expires_in: number;
        expires_at: number;
        user: { id: string };
      }),
    };
  }

  const refresh = (token: string) =>
    fetch(`${stack.url}/auth/v1/token?grant_type=refresh_token`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ refresh_token: token }),
    });

  it("issues an ES256 access token with GoTrue's claims, verifiable with the JWKS", async () => {
    const s = await signedIn();
    expect(s.expires_in).toBe(3600);
    const jwks = jose.createLocalJWKSet(
      (await (await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`)).json()) as jose.JSONWebKeySet,
    );
    const { payload, protectedHeader } = await jose.jwtVerify(s.access_token, jwks, {
      issuer: `${stack.url}/auth/v1`,
      audience: "authenticated",
    });
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload).toMatchObject({
      sub: s.user.id,
      email: s.email,
      phone: "",
      role: "authenticated",
      aal: "aal1",
      is_anonymous: false,
      app_metadata: { provider: "email", providers: ["email"] },
    });
    expect(payload.exp).toBe(s.expires_at);
    expect((payload.amr as { method: string; timestamp: number }[])[0].method).toBe("password");
    expect(typeof payload.session_id).toBe("string");
    expect(s.refresh_token).toMatch(/^[a-z2-7]{12}$/);
  });

  it("rotates refresh tokens; the previous one returns the active token; a stale one after the interval revokes the session", async () => {
    const s = await signedIn();
    const first = await refresh(s.refresh_token);
    expect(first.status).toBe(200);
    const a = (await first.json()) as { refresh_token: string; access_token: string };
    expect(a.refresh_token).not.toBe(s.refresh_token);

    // A client that lost the response presents the old token again: it gets the active one back.
    const replay = (await (await refresh(s.refresh_token)).json()) as { refresh_token: string };
    expect(replay.refresh_token).toBe(a.refresh_token);

    const second = (await (await refresh(a.refresh_token)).json()) as { refresh_token: string };
    expect(second.refresh_token).not.toBe(a.refresh_token);

    // The original token (not the parent of the active one) within the reuse interval: swapped again.
    const withinInterval = await refresh(s.refresh_token);
    expect(withinInterval.status).toBe(200);
    const branch = (await withinInterval.json()) as { refresh_token: string };

    // Past the reuse interval (10 s): reuse is treated as theft and the session's tokens are revoked.
    await stack.db.query("update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where token = $1", [
      a.refresh_token,
    ]);
    const stolen = await refresh(a.refresh_token);
    expect(stolen.status).toBe(400);
    expect(stolen.headers.get("x-sb-error-code")).toBe("refresh_token_already_used");
    expect(await stolen.json()).toEqual({
      code: "refresh_token_already_used",
      message: "Invalid Refresh Token: Already Used",
    });
    await stack.db.query(
      "update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where token = any($1)",
      [[second.refresh_token, branch.refresh_token]],
    );
    const latest = await refresh(second.refresh_token);
    expect(latest.status).toBe(400);
    const other = await refresh(branch.refresh_token);
    expect(((await other.json()) as { code: string }).code).toBe("refresh_token_already_used");

    const unknown = await refresh("nosuchtoken1");
    expect(await unknown.json()).toEqual({
      code: "refresh_token_not_found",
      message: "Invalid Refresh Token: Refresh Token Not Found",
    });
  });

  it("after a detected reuse every token of the session is dead, however recently it was issued", async () => {
    const s = await signedIn();
    const r0 = s.refresh_token;
    const r1 = ((await (await refresh(r0)).json()) as { refresh_token: string }).refresh_token;
    const r2 = ((await (await refresh(r1)).json()) as { refresh_token: string }).refresh_token;
    // r0 again within the interval (not the parent of the active token): swapped for r3
    const r3res = await refresh(r0);
    expect(r3res.status).toBe(200);
    const r3 = ((await r3res.json()) as { refresh_token: string }).refresh_token;
    // 11 s pass, then r1 is replayed: theft
    await stack.db.query(
      "update auth.refresh_tokens set updated_at = updated_at - interval '11 seconds', created_at = created_at - interval '11 seconds' where session_id = (select session_id from auth.refresh_tokens where token = $1)",
      [r0],
    );
    const stolen = await refresh(r1);
    expect(((await stolen.json()) as { code: string }).code).toBe("refresh_token_already_used");
    // right away, with no time passing, the newest tokens of that session are dead too
    for (const token of [r2, r3, r0, r1]) {
      const r = await refresh(token);
      expect(r.status, token).toBe(400);
      expect(((await r.json()) as { code: string }).code, token).toBe("refresh_token_already_used");
    }
    // another session of the same user is untouched
    const other = await passwordGrant(s.email);
    expect((await refresh(other.refresh_token)).status).toBe(200);
  });

  it("lets supabase-js refresh and verify claims locally once the JWKS is cached", async () => {
    const s = await signedIn();
    const supabase = serverClient(stack.url, stack.anonKey);
    await supabase.auth.setSession({ access_token: s.access_token, refresh_token: s.refresh_token });
    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const token = refreshed.data.session!.access_token;

    const first = await supabase.auth.getClaims(token);
    expect(first.error).toBeNull();
    expect(first.data?.claims.sub).toBe(s.user.id);

    const since = Date.now();
    const second = await supabase.auth.getClaims(token);
    expect(second.data?.claims.email).toBe(s.email);
    expect(stack.requests.list(since).filter((r) => r.path.startsWith("/auth/v1"))).toEqual([]);

    const tampered = `${token.slice(0, -4)}AAAA`;
    const bad = await supabase.auth.getClaims(tampered);
    expect(bad.error).not.toBeNull();
  });

  it("signs out this session, the others, or all of them", async () => {
    const one = await signedIn();
    const two = await passwordGrant(one.email);
    const three = await passwordGrant(one.email);
    const getUser = (token: string) =>
      fetch(`${stack.url}/auth/v1/user`, {
        headers: { apikey: stack.anonKey, authorization: `Bearer ${token}`, "x-supabase-api-version": "2024-01-01" },
      });
    const logout = (token: string, scope: string) =>
      fetch(`${stack.url}/auth/v1/logout?scope=${scope}`, {
        method: "POST",
        headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` },
      });

    expect((await logout(one.access_token, "local")).status).toBe(204);
    const gone = await getUser(one.access_token);
    expect(gone.status).toBe(403);
    expect(((await gone.json()) as { code: string }).code).toBe("session_not_found");
    expect((await getUser(two.access_token)).status).toBe(200);
    expect((await refresh(one.refresh_token)).status).toBe(400);

    expect((await logout(two.access_token, "others")).status).toBe(204);
    expect((await getUser(two.access_token)).status).toBe(200);
    expect((await getUser(three.access_token)).status).toBe(403);

    const four = await passwordGrant(one.email);
    expect((await logout(two.access_token, "global")).status).toBe(204);
    expect((await getUser(two.access_token)).status).toBe(403);
    expect((await getUser(four.access_token)).status).toBe(403);

    const bad = await fetch(`${stack.url}/auth/v1/logout?scope=everything`, {
      method: "POST",
      headers: { authorization: `Bearer ${(await passwordGrant(one.email)).access_token}` },
    });
    expect(bad.status).toBe(400);
  });

  it("signs out through supabase-js with each scope", async () => {
    const s = await signedIn();
    const supabase = serverClient(stack.url, stack.anonKey);
    await supabase.auth.setSession({ access_token: s.access_token, refresh_token: s.refresh_token });
    const { error } = await supabase.auth.signOut({ scope: "local" });
    expect(error).toBeNull();
    expect((await supabase.auth.getSession()).data.session).toBeNull();
    const check = await serverClient(stack.url, stack.anonKey).auth.getUser(s.access_token);
    expect(check.error).not.toBeNull();
  });

  it("merges user_metadata, refuses the same password, and keeps only the current session after a password change", async () => {
    const s = await signedIn();
    const other = await passwordGrant(s.email);
    const supabase = serverClient(stack.url, stack.anonKey);
    await supabase.auth.setSession({ access_token: s.access_token, refresh_token: s.refresh_token });
    await supabase.auth.updateUser({ data: { display_name: "Ada", theme: "dark" } });
    const { data } = await supabase.auth.updateUser({ data: { theme: null, avatar: "a.png" } });
    expect(data.user?.user_metadata).toMatchObject({ display_name: "Ada", avatar: "a.png" });
    expect(data.user?.user_metadata).not.toHaveProperty("theme");

    const same = await supabase.auth.updateUser({ password: PASSWORD });
    expect(same.error?.code).toBe("same_password");
    const weak = await supabase.auth.updateUser({ password: "abc" });
    expect(weak.error?.code).toBe("weak_password");
    const changed = await supabase.auth.updateUser({ password: "another-pass-3" });
    expect(changed.error).toBeNull();
    expect((await serverClient(stack.url, stack.anonKey).auth.getUser(s.access_token)).error).toBeNull();
    expect((await serverClient(stack.url, stack.anonKey).auth.getUser(other.access_token)).error).not.toBeNull();
  });
});
