import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestMessage, serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";

describe("features answered as a GoTrue with them switched off (hosted defaults)", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { autoconfirm: true } });
  });
  afterAll(() => stack.close());

  it("refuses anonymous sign-ins, SSO, identity linking, Web3 and ID tokens with GoTrue's messages", async () => {
    const client = serverClient(stack.url, stack.anonKey);
    expect((await client.auth.signInAnonymously()).error?.message).toBe("Anonymous sign-ins are disabled");
    expect((await client.auth.signInWithSSO({ domain: "example.test" })).error?.message).toBe("SAML 2.0 is disabled");
    expect((await client.auth.signInWithIdToken({ provider: "google", token: "x.y.z" })).error?.message).toBe(
      'Provider (issuer "https://accounts.google.com") is not enabled',
    );
    const res = await fetch(`${stack.url}/auth/v1/token?grant_type=web3`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe("Web3 provider is disabled");

    await client.auth.signUp({ email: uniqueEmail(), password: PASSWORD });
    const link = await client.auth.linkIdentity({ provider: "github", options: { skipBrowserRedirect: true } });
    expect(link.error?.message).toBe("Manual linking is disabled");
  });

  it("sends a reauthentication code to the signed-in user", async () => {
    const client = serverClient(stack.url, stack.anonKey);
    const email = uniqueEmail();
    await client.auth.signUp({ email, password: PASSWORD });
    const { error } = await client.auth.reauthenticate();
    expect(error).toBeNull();
    const mail = await latestMessage(stack.url, email);
    expect(mail.Subject).toBe("Confirm reauthentication");
    expect(mail.Text).toMatch(/\d{6}/);
  });

  it("answers a phone code as GoTrue does: the number's format first, then no such code", async () => {
    const client = serverClient(stack.url, stack.anonKey);
    const unknown = await client.auth.verifyOtp({ phone: "+15555550123", token: "123456", type: "sms" });
    expect(unknown.error?.message).toBe("Token has expired or is invalid");
    expect(unknown.error?.status).toBe(403);
    const change = await client.auth.verifyOtp({ phone: "15555550123", token: "123456", type: "phone_change" });
    expect(change.error?.code).toBe("otp_expired");
    const malformed = await client.auth.verifyOtp({ phone: "+1555-invalid", token: "123456", type: "sms" });
    expect(malformed.error?.message).toBe("Invalid phone number format (E.164 required)");
    expect(malformed.error?.status).toBe(400);
  });

  it("rejects a bad page number in the admin user list", async () => {
    const { error } = await stack.adminClient().auth.admin.listUsers({ page: -1 });
    expect(error?.message).toMatch(/^Bad Pagination Parameters/);
    expect(error?.status).toBe(400);
  });
});

describe("anonymous sign-ins when the project enables them", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { anonymousSignIns: true } });
  });
  afterAll(() => stack.close());

  it("gives an anonymous user a session that cannot enroll MFA", async () => {
    const client = serverClient(stack.url, stack.anonKey);
    const { data, error } = await client.auth.signInAnonymously();
    expect(error).toBeNull();
    expect(data.user!.is_anonymous).toBe(true);
    expect(data.session!.user.email).toBe("");
    const enroll = await client.auth.mfa.enroll({ factorType: "totp" });
    expect(enroll.error?.message).toBe("Anonymous user not allowed to perform these actions");
  });
});
