import * as jose from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { totpCode } from "../../stack/auth/totp.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";

describe("MFA (TOTP) through supabase-js", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { autoconfirm: true } });
  });
  afterAll(() => stack.close());

  async function signedIn() {
    const client = serverClient(stack.url, stack.anonKey);
    const email = uniqueEmail("mfa");
    const { error } = await client.auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    return { client, email };
  }

  it("enrolls a factor, steps the session up to aal2 with a code, and asks for it on the next sign-in", async () => {
    const { client, email } = await signedIn();
    const { data: enrolled, error } = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "phone app" });
    expect(error).toBeNull();
    // supabase-js turns the SVG GoTrue sends into a data URI
    expect(enrolled!.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    expect(enrolled!.totp.uri).toContain(`secret=${enrolled!.totp.secret}`);

    const wrong = await client.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: "000000" });
    expect(wrong.error?.message).toBe("Invalid TOTP code entered");

    const { data: verified, error: verifyError } = await client.auth.mfa.challengeAndVerify({
      factorId: enrolled!.id,
      code: totpCode(enrolled!.totp.secret),
    });
    expect(verifyError).toBeNull();
    const claims = jose.decodeJwt(verified!.access_token);
    expect(claims.aal).toBe("aal2");
    expect((claims.amr as { method: string }[]).map((m) => m.method)).toEqual(["totp", "password"]);

    const { data: factors } = await client.auth.mfa.listFactors();
    expect(factors!.totp.map((f) => [f.friendly_name, f.status])).toEqual([["phone app", "verified"]]);

    // a new sign-in starts at aal1 and is told that aal2 is available
    const again = serverClient(stack.url, stack.anonKey);
    await again.auth.signInWithPassword({ email, password: PASSWORD });
    const { data: aal } = await again.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    // and cannot remove the verified factor from there
    const removeAtAal1 = await again.auth.mfa.unenroll({ factorId: enrolled!.id });
    expect(removeAtAal1.error?.message).toBe("AAL2 required to unenroll verified factor");

    const removed = await client.auth.mfa.unenroll({ factorId: enrolled!.id });
    expect(removed.error).toBeNull();
    const { data: after } = await client.auth.mfa.listFactors();
    expect(after!.all).toHaveLength(0);
  });

  it("rejects an expired challenge and another user's factor", async () => {
    const { client } = await signedIn();
    const { data: enrolled } = await client.auth.mfa.enroll({ factorType: "totp" });
    const { data: challenge } = await client.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(challenge!.expires_at).toBeGreaterThan(Date.now() / 1000 + 240);
    await stack.db.query("update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1", [
      challenge!.id,
    ]);
    const expired = await client.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge!.id,
      code: totpCode(enrolled!.totp.secret),
    });
    expect(expired.error?.message).toMatch(/has expired/);

    const { client: other } = await signedIn();
    const stolen = await other.auth.mfa.challenge({ factorId: enrolled!.id });
    expect(stolen.error?.message).toBe("Factor not found");
  });

  it("answers phone and WebAuthn enrolment as disabled, and lists factors for the admin API", async () => {
    const { client } = await signedIn();
    const phone = await client.auth.mfa.enroll({ factorType: "phone", phone: "+15555550100" });
    expect(phone.error?.message).toBe("MFA enroll is disabled for Phone");
    const { data: enrolled } = await client.auth.mfa.enroll({ factorType: "totp" });
    const { data: user } = await client.auth.getUser();
    const admin = stack.adminClient();
    const { data: listed, error } = await admin.auth.admin.mfa.listFactors({ userId: user.user!.id });
    expect(error).toBeNull();
    expect(listed!.factors.map((f) => f.id)).toEqual([enrolled!.id]);
    const { error: deleteError } = await admin.auth.admin.mfa.deleteFactor({ userId: user.user!.id, id: enrolled!.id });
    expect(deleteError).toBeNull();
    expect((await client.auth.mfa.listFactors()).data!.all).toHaveLength(0);
  });
});
