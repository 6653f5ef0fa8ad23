import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { encodeCbor, TestAuthenticator } from "../../tests/support/test-authenticator.ts";
import {
  decodeCbor,
  parseCoseKey,
  verifyAssertion,
  parseAssertion,
  verifyRegistration,
  WebAuthnError,
} from "./webauthn.ts";

const RP = { id: "localhost", origins: ["http://localhost:5173"] };
const userId = Buffer.from(crypto.randomUUID()).toString("base64url");

describe("webauthn", () => {
  it("decodes the CBOR an authenticator sends", () => {
    const bytes = encodeCbor(
      new Map<number | string, never>([
        [1, 2 as never],
        ["fmt", "none" as never],
        [-7, Buffer.from([1, 2]) as never],
      ]),
    );
    const { value, end } = decodeCbor(bytes);
    expect(end).toBe(bytes.length);
    expect(value).toEqual(
      new Map<unknown, unknown>([
        [1, 2],
        ["fmt", "none"],
        [-7, Buffer.from([1, 2])],
      ]),
    );
    expect(() => decodeCbor(bytes.subarray(0, bytes.length - 1))).toThrow(WebAuthnError);
  });

  it("accepts a 'none' registration and the assertions that follow it", () => {
    const a = new TestAuthenticator("localhost", "http://localhost:5173");
    const cred = verifyRegistration(a.create({ challenge: "abc", user: { id: userId } }), "abc", RP);
    expect(cred.credentialId.equals(a.credentialId)).toBe(true);
    expect(parseCoseKey(cred.publicKey).alg).toBe(-7);
    const assertion = parseAssertion(a.get({ challenge: "xyz" }));
    expect(verifyAssertion(assertion, "xyz", RP, cred.publicKey)).toBe(1);
    expect(() => verifyAssertion(assertion, "other", RP, cred.publicKey)).toThrow("challenge mismatch");
  });

  it("refuses another relying party, another origin and a broken response", () => {
    const a = new TestAuthenticator("localhost", "http://localhost:5173");
    const opts = { challenge: "abc", user: { id: userId } };
    expect(() => verifyRegistration(a.create(opts, { rpId: "evil.test" }), "abc", RP)).toThrow("RP ID hash mismatch");
    expect(() => verifyRegistration(a.create(opts, { origin: "https://evil.test" }), "abc", RP)).toThrow(/origin/);
    try {
      verifyRegistration({ type: "public-key", response: { clientDataJSON: "!!" } }, "abc", RP);
      expect.unreachable();
    } catch (e) {
      expect((e as WebAuthnError).malformed).toBe(true);
    }
  });
});
