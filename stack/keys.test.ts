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

describe("configured keys", () => {
  it("verifies tokens signed with the legacy HS256 secret, and signs with a configured key that may sign", async () => {
    const secret = "super-secret-jwt-token-with-at-least-32-characters-long";
    const { privateKey } = await jose.generateKeyPair("RS256", { extractable: true });
    const rsa = { ...(await jose.exportJWK(privateKey)), kid: "rsa-1", alg: "RS256", key_ops: ["sign", "verify"] };
    const keys = await loadOrCreateKeys(null, { jwtSecret: secret, jwtKeys: [rsa] });

    const legacy = await new jose.SignJWT({ role: "service_role" })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(secret));
    expect((await keys.verify(legacy)).role).toBe("service_role");
    const wrongSecret = await new jose.SignJWT({ role: "service_role" })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("x".repeat(40)));
    await expect(keys.verify(wrongSecret)).rejects.toThrow();

    const token = await keys.sign({ sub: "u1", role: "authenticated" }, { expiresIn: 60 });
    expect(jose.decodeProtectedHeader(token)).toMatchObject({ alg: "RS256", kid: "rsa-1" });
    // the JWKS carries the public half only, so clients verify locally
    expect(keys.jwks.keys.find((k) => k.kid === "rsa-1")).not.toHaveProperty("d");
    const { payload } = await jose.jwtVerify(token, jose.createLocalJWKSet(keys.jwks));
    expect(payload.sub).toBe("u1");
  });

  it("without configured keys refuses HS256 tokens", async () => {
    const keys = await loadOrCreateKeys(null);
    const hs = await new jose.SignJWT({ role: "service_role" })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("y".repeat(40)));
    await expect(keys.verify(hs)).rejects.toThrow();
  });
});
