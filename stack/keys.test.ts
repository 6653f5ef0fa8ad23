import { describe, expect, it } from "vitest";
import * as jose from "jose";
import { loadOrCreateKeys } from "./keys.ts";

describe("stack keys", () => {
  it("signs ES256 tokens with a key id that its JWKS can verify", async () => {
    const keys = await loadOrCreateKeys(null);
    const token = await keys.sign({ sub: "u1", role: "authenticated" }, { expiresIn: 60 });
    expect(jose.decodeProtectedHeader(token)).toMatchObject({ alg: "ES256", kid: keys.kid });
    const jwks = jose.createLocalJWKSet(keys.jwks);
    const { payload } = await jose.jwtVerify(token, jwks);
    expect(payload).toMatchObject({ sub: "u1", role: "authenticated" });
  });

  it("makes anon and service role keys that verify and carry their role", async () => {
    const keys = await loadOrCreateKeys(null);
    expect((await keys.verify(keys.anonKey)).role).toBe("anon");
    expect((await keys.verify(keys.serviceRoleKey)).role).toBe("service_role");
  });

  it("rejects a token signed by another key, and an expired one, every time it is presented", async () => {
    const keys = await loadOrCreateKeys(null);
    const other = await loadOrCreateKeys(null);
    const forged = await other.sign({ sub: "u1", role: "service_role" }, { expiresIn: 60 });
    await expect(keys.verify(forged)).rejects.toThrow();
    await expect(keys.verify(forged)).rejects.toThrow();
    const expired = await keys.sign({ sub: "u1", role: "authenticated", exp: Math.floor(Date.now() / 1000) - 5 });
    await expect(keys.verify(expired)).rejects.toThrow(/exp/);
  });

  it("hands out copies of cached claims, so a caller cannot alter what the next one sees", async () => {
    const keys = await loadOrCreateKeys(null);
    const token = await keys.sign({ sub: "u1", role: "authenticated" }, { expiresIn: 60 });
    const first = await keys.verify(token);
    first.role = "service_role";
    expect((await keys.verify(token)).role).toBe("authenticated");
  });
});
