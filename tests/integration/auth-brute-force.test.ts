/**
 * Guessing codes and passwords (issue: 6,000 code guesses with a random
 * X-Forwarded-For each never met a 429). The per-IP limit now believes
 * forwarding headers only from configured proxies, and each account has its
 * own limit on wrong codes (the code is then void, as GoTrue voids it) and on
 * wrong passwords, wherever they come from.
 */
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeIn, latestMessage, serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";
const randomIp = () =>
  `${crypto.randomInt(1, 223)}.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

function verify(stack: TestStack, body: object, headers: Record<string, string> = {}) {
  return fetch(`${stack.url}/auth/v1/verify`, {
    method: "POST",
    headers: { apikey: stack.anonKey, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

function passwordLogin(stack: TestStack, email: string, password: string, headers: Record<string, string> = {}) {
  return fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: stack.anonKey, "content-type": "application/json", ...headers },
    body: JSON.stringify({ email, password }),
  });
}

describe("the per-IP limit and X-Forwarded-For", () => {
  let direct: TestStack;
  let proxied: TestStack;
  beforeAll(async () => {
    direct = await startTestStack({ auth: { tokenRequestsPerMinute: 5, maxOtpAttempts: 0 } });
    proxied = await startTestStack({
      auth: { tokenRequestsPerMinute: 5, maxOtpAttempts: 0 },
      trustedProxies: ["127.0.0.1", "::1"],
    });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  it("ignores a client-sent X-Forwarded-For: fresh addresses in the header still meet the 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await verify(
        direct,
        { type: "email", email: "victim@example.com", token: "123456" },
        { "x-forwarded-for": randomIp() },
      );
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
  });

  it("believes a configured proxy, taking the rightmost address it did not add", async () => {
    const client = randomIp();
    for (let i = 0; i < 5; i++) {
      // whatever the client prepends, the proxy appended the real address last
      const r = await verify(
        proxied,
        { type: "email", email: "victim@example.com", token: "123456" },
        { "x-forwarded-for": `${randomIp()}, ${client}` },
      );
      expect(r.status).toBe(403);
    }
    const limited = await verify(
      proxied,
      { type: "email", email: "victim@example.com", token: "123456" },
      { "x-forwarded-for": `${randomIp()}, ${client}` },
    );
    expect(limited.status).toBe(429);
    const other = await verify(
      proxied,
      { type: "email", email: "victim@example.com", token: "123456" },
      { "x-forwarded-for": randomIp() },
    );
    expect(other.status).toBe(403);
  });
});

describe("per-account limits", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { emailSendInterval: 0, maxOtpAttempts: 5, maxPasswordFailures: 10 } });
  });
  afterAll(() => stack?.close());

  async function confirmedUser(prefix: string) {
    const email = uniqueEmail(prefix);
    const { error } = await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(error).toBeNull();
    return email;
  }

  it("voids a code after 5 wrong guesses from any address; a new code works", async () => {
    const email = await confirmedUser("otpguess");
    const supabase = serverClient(stack.url, stack.anonKey);
    expect((await supabase.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const code = codeIn(await latestMessage(stack.url, email));
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const r = await verify(stack, { type: "email", email, token: wrong }, { "x-forwarded-for": randomIp() });
      expect(r.status).toBe(403);
      expect((await r.json()).error_code).toBe("otp_expired");
    }
    // the right code, guessed sixth, no longer signs in
    const late = await supabase.auth.verifyOtp({ email, token: code, type: "email" });
    expect(late.error?.code).toBe("otp_expired");
    expect(late.data.session).toBeNull();

    expect((await supabase.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const fresh = codeIn(await latestMessage(stack.url, email));
    const ok = await supabase.auth.verifyOtp({ email, token: fresh, type: "email" });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.access_token).toBeTruthy();
  });

  it("a right code within the limit resets the count", async () => {
    const email = await confirmedUser("otpreset");
    const supabase = serverClient(stack.url, stack.anonKey);
    await supabase.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const code = codeIn(await latestMessage(stack.url, email));
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 4; i++) expect((await verify(stack, { type: "email", email, token: wrong })).status).toBe(403);
    expect((await supabase.auth.verifyOtp({ email, token: code, type: "email" })).error).toBeNull();
  });

  it("refuses an address after 10 failed passwords, even the right one, while other addresses sign in", async () => {
    const email = await confirmedUser("pwguess");
    const other = await confirmedUser("pwother");
    for (let i = 0; i < 10; i++) {
      const r = await passwordLogin(stack, email, `wrong-${i}-password`, { "x-forwarded-for": randomIp() });
      expect(r.status).toBe(400);
      expect((await r.json()).error_code).toBe("invalid_credentials");
    }
    const locked = await passwordLogin(stack, email.toUpperCase(), PASSWORD);
    expect(locked.status).toBe(429);
    expect((await locked.json()).error_code).toBe("over_request_rate_limit");
    expect((await passwordLogin(stack, other, PASSWORD)).status).toBe(200);
  });

  it("says 'banned' only to someone who knows the password", async () => {
    const email = await confirmedUser("banned");
    const admin = serverClient(stack.url, stack.serviceRoleKey);
    const { data } = await admin.auth.admin.listUsers({ perPage: 1000 });
    const id = data.users.find((u) => u.email === email)!.id;
    expect((await admin.auth.admin.updateUserById(id, { ban_duration: "24h" })).error).toBeNull();
    const wrong = await passwordLogin(stack, email, "not-the-password-1");
    expect((await wrong.json()).error_code).toBe("invalid_credentials");
    const right = await passwordLogin(stack, email, PASSWORD);
    expect((await right.json()).error_code).toBe("user_banned");
  });
});

describe("login timing does not tell which addresses exist", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // the production cost, so a skipped comparison would show
    stack = await startTestStack({ auth: { bcryptCost: 10, maxPasswordFailures: 0 } });
  });
  afterAll(() => stack?.close());

  it("takes about as long for an unknown address as for a wrong password", async () => {
    const email = uniqueEmail("timing");
    await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    const median = async (address: string) => {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        const r = await passwordLogin(stack, address, "wrong-password-1");
        expect(r.status).toBe(400);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[3];
    };
    await median(email); // warm up
    const known = await median(email);
    const unknown = await median(uniqueEmail("nobody"));
    // one bcrypt comparison either way (was 94 ms against 1.3 ms); a wide margin for a busy machine
    expect(unknown).toBeGreaterThan(known * 0.4);
  });
});
