import * as jose from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messagesTo, serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";
const V2024 = { "x-supabase-api-version": "2024-01-01" };

describe("error shapes and bad input", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ maxBodyBytes: 4096 });
  });
  afterAll(() => stack.close());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}/auth/v1${path}`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json", ...headers },
      body,
    });

  async function counts() {
    const { rows } = await stack.db.query<{ users: number; sessions: number; mails: number }>(
      `select (select count(*)::int from auth.users) as users, (select count(*)::int from auth.sessions) as sessions,
              (select count(*)::int from _stack.mail_messages) as mails`,
    );
    return rows[0];
  }

  it("uses {code, message} with the 2024-01-01 API version and echoes the header", async () => {
    const res = await post(
      "/token?grant_type=password",
      JSON.stringify({ email: uniqueEmail(), password: "x" }),
      V2024,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(res.headers.get("x-sb-error-code")).toBe("invalid_credentials");
    expect(await res.json()).toEqual({ code: "invalid_credentials", message: "Invalid login credentials" });
  });

  it("uses {code: <status>, error_code, msg} without it", async () => {
    const res = await post("/token?grant_type=password", JSON.stringify({ email: uniqueEmail(), password: "x" }));
    expect(res.headers.get("x-supabase-api-version")).toBeNull();
    expect(res.headers.get("x-sb-error-code")).toBe("invalid_credentials");
    expect(await res.json()).toEqual({
      code: 400,
      error_code: "invalid_credentials",
      msg: "Invalid login credentials",
    });

    const weak = await post("/signup", JSON.stringify({ email: uniqueEmail(), password: "abc" }));
    expect(weak.status).toBe(422);
    expect(await weak.json()).toEqual({
      code: 422,
      error_code: "weak_password",
      msg: "Password should be at least 8 characters. Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.",
      weak_password: { reasons: ["length", "characters"] },
    });
    const weakNew = await post("/signup", JSON.stringify({ email: uniqueEmail(), password: "abcdefgh" }), V2024);
    expect(await weakNew.json()).toMatchObject({ code: "weak_password", weak_password: { reasons: ["characters"] } });
  });

  it("answers a database's refusal of a user update as GoTrue does (issue 35, L3)", async () => {
    // a project's own rule on auth.users, raising with PostgREST's PT<status> convention, and a plain RAISE
    await stack.db.exec(`
      create function public.refuse_odd_metadata() returns trigger language plpgsql as $$
      begin
        if new.raw_user_meta_data ->> 'colour' = 'plaid' then
          raise exception 'Choose a colour from the list.' using errcode = 'PT400', hint = 'red, green or blue';
        end if;
        if new.raw_user_meta_data ->> 'colour' = 'void' then
          raise exception 'No colour at all?';
        end if;
        return new;
      end $$;
      create trigger refuse_odd_metadata before update of raw_user_meta_data on auth.users
        for each row execute function public.refuse_odd_metadata();`);
    const email = uniqueEmail();
    const { data, error } = await stack
      .adminClient()
      .auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { colour: "red" } });
    expect(error).toBeNull();
    const signedIn = await stack.anonClient().auth.signInWithPassword({ email, password: PASSWORD });
    const token = signedIn.data.session!.access_token;
    const put = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${stack.url}/auth/v1/user`, {
        method: "PUT",
        headers: {
          apikey: stack.anonKey,
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          ...headers,
        },
        body: JSON.stringify(body),
      });

    // the original API version: PT400 is passed on as 400 with the database's words, a plain RAISE as 500 with them
    const plaid = await put({ data: { colour: "plaid" } });
    expect(plaid.status).toBe(400);
    expect(await plaid.json()).toEqual({
      code: "PT400",
      message: "Choose a colour from the list.",
      hint: "red, green or blue",
    });
    const none = await put({ data: { colour: "void" } });
    expect(none.status).toBe(500);
    expect(await none.json()).toEqual({ code: "P0001", message: "No colour at all?" });
    // the app's own time-zone rule raises 22023, which GoTrue keeps to itself
    const mars = await put({ data: { time_zone: "Mars/Olympus" } });
    expect(mars.status).toBe(500);
    expect(await mars.json()).toEqual({ code: 500, error_code: "unexpected_failure", msg: "Error updating user" });
    // supabase-js's API version: GoTrue's own answer, whatever the database said
    const v2024 = await put({ data: { colour: "plaid" } }, V2024);
    expect(v2024.status).toBe(500);
    expect(await v2024.json()).toEqual({ code: "unexpected_failure", message: "Error updating user" });
    // nothing was written
    const { rows } = await stack.db.query(
      "select raw_user_meta_data ->> 'colour' as colour, raw_user_meta_data ->> 'time_zone' as zone from auth.users where id = $1",
      [data.user!.id],
    );
    expect(rows).toEqual([{ colour: "red", zone: null }]);
    // the admin's update is the same endpoint in GoTrue's words
    const admin = await fetch(`${stack.url}/auth/v1/admin/users/${data.user!.id}`, {
      method: "PUT",
      headers: {
        apikey: stack.serviceRoleKey,
        authorization: `Bearer ${stack.serviceRoleKey}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ user_metadata: { colour: "plaid" } }),
    });
    expect([admin.status, await admin.json()]).toEqual([400, expect.objectContaining({ code: "PT400" })]);
    await stack.db.exec("drop trigger refuse_odd_metadata on auth.users; drop function public.refuse_odd_metadata();");
  });

  it("answers malformed and mistyped input with 4xx and changes nothing", async () => {
    const before = await counts();
    const cases: [string, string, number, string][] = [
      ["/signup", "{not json", 400, "bad_json"],
      ["/signup", "", 400, "bad_json"],
      ["/signup", "[1,2]", 400, "bad_json"],
      ["/signup", JSON.stringify({ email: 42, password: PASSWORD }), 400, "bad_json"],
      ["/signup", JSON.stringify({ email: uniqueEmail(), password: PASSWORD, data: "nope" }), 400, "bad_json"],
      ["/signup", JSON.stringify({ email: "not-an-email", password: PASSWORD }), 400, "validation_failed"],
      [
        "/signup",
        JSON.stringify({ email: "x'; drop table auth.users; --@example.test", password: PASSWORD }),
        400,
        "validation_failed",
      ],
      ["/signup", JSON.stringify({ email: uniqueEmail(), password: "" }), 400, "validation_failed"],
      ["/signup", JSON.stringify({ email: uniqueEmail(), password: `${"a1".repeat(40)}` }), 400, "validation_failed"],
      [
        "/signup",
        JSON.stringify({
          email: uniqueEmail(),
          password: PASSWORD,
          code_challenge: "short",
          code_challenge_method: "s256",
        }),
        400,
        "validation_failed",
      ],
      [
        "/token?grant_type=password",
        JSON.stringify({ email: "' or 1=1 --", password: "' or '1'='1" }),
        400,
        "invalid_credentials",
      ],
      ["/token?grant_type=magic", "{}", 400, "invalid_credentials"],
      ["/token", "{}", 400, "invalid_credentials"],
      ["/token?grant_type=pkce", JSON.stringify({ auth_code: "", code_verifier: "" }), 400, "validation_failed"],
      [
        "/token?grant_type=pkce",
        JSON.stringify({ auth_code: "' or 1=1 --", code_verifier: "v".repeat(43) }),
        404,
        "flow_state_not_found",
      ],
      ["/token?grant_type=refresh_token", JSON.stringify({ refresh_token: 12 }), 400, "bad_json"],
      ["/verify", JSON.stringify({ type: "signup" }), 400, "validation_failed"],
      ["/verify", JSON.stringify({ type: "bogus", token_hash: "abc" }), 400, "validation_failed"],
      ["/verify", JSON.stringify({ type: "email", token_hash: "' or ''='" }), 403, "otp_expired"],
      ["/otp", JSON.stringify({ email: uniqueEmail(), create_user: "yes" }), 400, "bad_json"],
      ["/recover", JSON.stringify({}), 422, "validation_failed"],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await post(path, body, V2024);
      const json = (await res.json()) as { code: string; message: string };
      expect({ path, body, status: res.status, code: json.code }).toEqual({ path, body, status, code });
      expect(json.message).not.toMatch(/\n\s+at /);
    }
    const unsupported = await post("/token?grant_type=magic", "{}", V2024);
    expect(await unsupported.json()).toEqual({ code: "invalid_credentials", message: "unsupported_grant_type" });
    const refreshMissing = await post("/token?grant_type=refresh_token", "{}");
    expect(await refreshMissing.json()).toEqual({
      error: "invalid_request",
      error_description: "refresh_token required",
    });

    expect(await counts()).toEqual(before);
  });

  it("refuses bodies over the limit with 413", async () => {
    const res = await post(
      "/signup",
      JSON.stringify({ email: uniqueEmail(), password: PASSWORD, data: { blob: "x".repeat(5000) } }),
      V2024,
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe("request_entity_too_large");
  });

  it("refuses tampered, expired, foreign and missing tokens", async () => {
    const email = uniqueEmail("jwt");
    await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    const { data } = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    const token = data.session!.access_token;
    const [h, p] = token.split(".");
    const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: "service_role" })).toString("base64url")}.${token.split(".")[2]}`;
    const expired = await stack.keys.sign({
      ...claims,
      exp: Math.floor(Date.now() / 1000) - 10,
      iat: Math.floor(Date.now() / 1000) - 100,
    });
    const { privateKey } = await jose.generateKeyPair("ES256");
    const foreign = await new jose.SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: stack.keys.kid })
      .sign(privateKey);
    const hs = await new jose.SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("super-secret-jwt-token-with-at-least-32-characters"));
    for (const bad of [forged, expired, foreign, hs, "garbage", `${token}x`]) {
      const res = await fetch(`${stack.url}/auth/v1/user`, {
        headers: { apikey: stack.anonKey, authorization: `Bearer ${bad}`, ...V2024 },
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("bad_jwt");
      const admin = await fetch(`${stack.url}/auth/v1/admin/users`, {
        headers: { authorization: `Bearer ${bad}`, ...V2024 },
      });
      expect(admin.status).toBe(403);
    }
    const none = await fetch(`${stack.url}/auth/v1/user`, { headers: { apikey: stack.anonKey, ...V2024 } });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      code: "no_authorization",
      message: "This endpoint requires a valid Bearer token",
    });
    const anonAsUser = await fetch(`${stack.url}/auth/v1/user`, {
      headers: { authorization: `Bearer ${stack.anonKey}`, ...V2024 },
    });
    expect(anonAsUser.status).toBe(403);
    const appMeta = await fetch(`${stack.url}/auth/v1/user`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...V2024 },
      body: JSON.stringify({ app_metadata: { role: "admin" } }),
    });
    expect(appMeta.status).toBe(403);
    expect(((await appMeta.json()) as { code: string }).code).toBe("not_admin");
  });

  it("serves settings, health and the JWKS", async () => {
    const settings = (await (await fetch(`${stack.url}/auth/v1/settings`)).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      external: { email: true, local: true, google: false },
    });
    const health = await fetch(`${stack.url}/auth/v1/health`);
    expect(health.status).toBe(200);
    const jwks = (await (await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: jose.JWK[] };
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", kid: stack.keys.kid });
    // no key's private half, the API tokens' standby key's included
    for (const key of jwks.keys) expect(key).not.toHaveProperty("d");
  });
});

describe("rate limits", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // the test client plays a reverse proxy on loopback, so its X-Forwarded-For names the client
    stack = await startTestStack({
      auth: { emailSendInterval: 60, tokenRequestsPerMinute: 5 },
      trustedProxies: ["127.0.0.1", "::1"],
    });
  });
  afterAll(() => stack.close());

  it("allows one email of each kind per address per interval, with GoTrue's message", async () => {
    const email = uniqueEmail("limit");
    const supabase = serverClient(stack.url, stack.anonKey);
    expect((await supabase.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const again = await supabase.auth.resend({ type: "signup", email });
    expect(again.error?.status).toBe(429);
    expect(again.error?.code).toBe("over_email_send_rate_limit");
    expect(again.error?.message).toMatch(/^For security purposes, you can only request this after (59|60) seconds\.$/);
    expect(await messagesTo(stack.url, email)).toHaveLength(1);

    // A different kind of email to the same address is counted separately.
    const recovery = await supabase.auth.resetPasswordForEmail(email);
    expect(recovery.error).toBeNull();
    const recoveryAgain = await supabase.auth.resetPasswordForEmail(email);
    expect(recoveryAgain.error?.code).toBe("over_email_send_rate_limit");

    await stack.db.query(
      "update auth.users set confirmation_sent_at = now() - interval '61 seconds' where email = $1",
      [email],
    );
    expect((await supabase.auth.resend({ type: "signup", email })).error).toBeNull();
  });

  it("bounds token requests per IP per minute", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7", ...V2024 },
        body: JSON.stringify({ email: "a@example.test", password: "x" }),
      });
      statuses.push(res.status);
      if (res.status === 429)
        expect(await res.json()).toEqual({ code: "over_request_rate_limit", message: "Request rate limit reached" });
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    const otherIp = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.8" },
      body: JSON.stringify({ email: "a@example.test", password: "x" }),
    });
    expect(otherIp.status).toBe(400);
  });
});

describe("the project-wide email limit", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { emailsPerHour: 2 } });
  });
  afterAll(() => stack.close());

  it("refuses the email past the hourly cap with 429, and the refused sign-up creates nobody", async () => {
    const supabase = serverClient(stack.url, stack.anonKey);
    const first = uniqueEmail("hourly");
    const second = uniqueEmail("hourly");
    const third = uniqueEmail("hourly");
    expect((await supabase.auth.signUp({ email: first, password: PASSWORD })).error).toBeNull();
    expect((await supabase.auth.signInWithOtp({ email: second })).error).toBeNull();
    const refused = await supabase.auth.signUp({ email: third, password: PASSWORD });
    expect(refused.error?.status).toBe(429);
    expect(refused.error?.code).toBe("over_email_send_rate_limit");
    expect(refused.error?.message).toBe("Email rate limit exceeded");
    expect(await messagesTo(stack.url, third)).toHaveLength(0);
    const { data } = await stack.adminClient().auth.admin.listUsers();
    expect(data.users.map((u) => u.email)).not.toContain(third);

    // An hour later the cap has room again.
    await stack.db.query("update _stack.mail_messages set created_at = created_at - interval '61 minutes'");
    expect((await supabase.auth.signUp({ email: third, password: PASSWORD })).error).toBeNull();
  });
});
