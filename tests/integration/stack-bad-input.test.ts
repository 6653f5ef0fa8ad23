/**
 * Input the database can't take answered with the client's error, not a 500
 * (issue 8, item 11): NULs and unpaired surrogates in auth bodies, deeply
 * nested sign-up data, an email change confirmed after someone else took the
 * address, and a NUL in a REST alias, column or JSON key (which used to reach
 * the SQL text inside a quoted identifier: 08P01, answered 503).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmParams, latestMessage, serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";
let stack: TestStack;

beforeAll(async () => {
  // one confirmation for an email change here (secure email change has its own tests)
  stack = await startTestStack({ auth: { siteUrl: "http://localhost:5173", secureEmailChange: false } });
});
afterAll(() => stack?.close());

const call = (path: string, init: { method?: string; body: string; token?: string; v2?: boolean }) =>
  fetch(`${stack.url}${path}`, {
    method: init.method ?? "POST",
    headers: {
      apikey: stack.anonKey,
      "content-type": "application/json",
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.v2 === false ? {} : { "x-supabase-api-version": "2024-01-01" }),
    },
    body: init.body,
  });

async function signedIn(prefix: string) {
  const email = uniqueEmail(prefix);
  const admin = serverClient(stack.url, stack.serviceRoleKey);
  const { data } = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  const client = serverClient(stack.url, stack.anonKey);
  const { data: s } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  return { email, id: data.user!.id, token: s.session!.access_token, client };
}

describe("auth bodies with characters Postgres can't store", () => {
  it("a NUL token hash is an invalid link (403 otp_expired), by POST and by GET", async () => {
    for (const type of ["email", "signup", "recovery", "magiclink", "email_change", "invite"]) {
      const r = await call("/auth/v1/verify", { body: JSON.stringify({ type, token_hash: "\u0000" }) });
      expect(r.status, type).toBeLessThan(500);
      expect(r.status, type).toBeGreaterThanOrEqual(400);
    }
    const get = await fetch(
      `${stack.url}/auth/v1/verify?type=signup&token=%00&redirect_to=${encodeURIComponent("http://localhost:5173/x")}`,
      { redirect: "manual" },
    );
    expect(get.status).toBe(303);
    expect(get.headers.get("location")).toContain("error_code=otp_expired");
  });

  it("PUT /user refuses a NUL in data (value or key) with 400 and keeps the metadata", async () => {
    const { token } = await signedIn("nul");
    for (const body of ['{"data":{"x":"a\\u0000b"}}', '{"data":{"a\\u0000":"b"}}', '{"data":{"x":["\\u0000"]}}']) {
      const r = await call("/auth/v1/user", { method: "PUT", body, token });
      expect(r.status, body).toBe(400);
      // a NUL in a key is stopped with the JSON checks (bad_json), one in a value after them
      expect(["validation_failed", "bad_json"]).toContain((await r.json()).code);
    }
    const me = await (await call("/auth/v1/user", { method: "GET", body: undefined as never, token })).json();
    expect(me.user_metadata).not.toHaveProperty("x");
  });

  it("PUT /user stores an unpaired surrogate as U+FFFD, as Go's JSON decoder does", async () => {
    const { token } = await signedIn("surrogate");
    const r = await call("/auth/v1/user", {
      method: "PUT",
      body: '{"data":{"x":"a\\ud800b","\\udc00":"low","pair":"\\ud83d\\ude00"}}',
      token,
    });
    expect(r.status).toBe(200);
    const { user_metadata } = await r.json();
    expect(user_metadata).toMatchObject({ x: "a\uFFFDb", "\uFFFD": "low", pair: "😀" });
  });

  it("sign-up with data nested 5,000 levels is a 400, in the old and the new error shape", async () => {
    for (const data of ["[".repeat(5000) + "]".repeat(5000), '{"a":'.repeat(5000) + "1" + "}".repeat(5000)]) {
      for (const v2 of [true, false]) {
        const r = await call("/auth/v1/signup", {
          body: `{"email":"${uniqueEmail("deep")}","password":"${PASSWORD}","data":{"x":${data}}}`,
          v2,
        });
        expect(r.status).toBe(400);
        expect(r.headers.get("x-sb-error-code")).toBe("bad_json");
      }
    }
  });

  it("other auth endpoints answer a NUL anywhere with a 4xx", async () => {
    const { token } = await signedIn("nulall");
    const cases: [string, string, string?][] = [
      ["/auth/v1/signup", `{"email":"a\\u0000@example.test","password":"${PASSWORD}"}`],
      ["/auth/v1/signup", `{"email":"${uniqueEmail()}","password":"pass\\u0000word-1"}`],
      ["/auth/v1/token?grant_type=password", '{"email":"x@example.test","password":"\\u0000"}'],
      ["/auth/v1/token?grant_type=refresh_token", '{"refresh_token":"\\u0000"}'],
      ["/auth/v1/otp", '{"email":"x@example.test","data":{"\\u0000":1}}'],
      ["/auth/v1/recover", '{"email":"\\u0000"}'],
      ["/auth/v1/verify", '{"type":"email","email":"x@example.test","token":"\\u0000"}'],
      ["/auth/v1/factors", '{"factor_type":"totp","friendly_name":"\\u0000"}', token],
    ];
    for (const [path, body, t] of cases) {
      const r = await call(path, { body, token: t });
      expect(r.status, `${path} ${body}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${path} ${body}`).toBeLessThan(500);
    }
  });
});

describe("confirming an email change to an address someone has since registered", () => {
  it("is GoTrue's 422 email_exists, and leaves both accounts as they were", async () => {
    const { email, client } = await signedIn("changer");
    const target = uniqueEmail("wanted");
    expect((await client.auth.updateUser({ email: target })).error).toBeNull();
    const { tokenHash } = confirmParams(await latestMessage(stack.url, target));
    // meanwhile someone signs up with that address
    const admin = serverClient(stack.url, stack.serviceRoleKey);
    expect((await admin.auth.admin.createUser({ email: target, password: PASSWORD })).error).toBeNull();

    const verified = await client.auth.verifyOtp({ token_hash: tokenHash, type: "email_change" });
    expect(verified.error?.status).toBe(422);
    expect(verified.error?.code).toBe("email_exists");
    expect(verified.error?.message).toBe("A user with this email address has already been registered");
    const still = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({ email, password: PASSWORD });
    expect(still.error).toBeNull();

    // the link in a browser: back to the app with the error
    const get = await fetch(
      `${stack.url}/auth/v1/verify?type=email_change&token=${tokenHash}&redirect_to=${encodeURIComponent("http://localhost:5173/x")}`,
      { redirect: "manual" },
    );
    expect(get.status).toBe(303);
    expect(get.headers.get("location")).toContain("error_code=email_exists");
  });
});

describe("REST: a NUL in an identifier", () => {
  let headers: Record<string, string>;
  beforeAll(async () => {
    const { token } = await signedIn("rest");
    headers = { apikey: stack.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" };
  });
  const rest = (path: string, init: RequestInit = {}) =>
    fetch(`${stack.url}/rest/v1${path}`, { ...init, headers: { ...headers, ...(init.headers as object) } });

  it("in a select alias, a column, an order or a filter value: 400 PGRST100", async () => {
    const nul = encodeURIComponent("\u0000");
    for (const q of [
      `select=a${nul}b:id`,
      `select=id,${nul}`,
      `select=id&ti${nul}tle=eq.x`,
      `select=id&order=ti${nul}tle`,
      `select=id&title=eq.a${nul}`,
      `select=id&or=(title.eq.${nul})`,
      `select=id,projects(na${nul}me)`,
    ]) {
      const r = await rest(`/tasks?${q}`);
      expect(r.status, q).toBe(400);
      expect((await r.json()).code, q).toBe("PGRST100");
    }
  });

  it("in a JSON key of an insert, an update or an RPC: 400 PGRST102", async () => {
    for (const [path, method, body] of [
      ["/tasks", "POST", '{"ti\\u0000tle":"x"}'],
      ["/tasks?id=eq.00000000-0000-0000-0000-000000000000", "PATCH", '{"\\u0000":"x"}'],
      ["/tasks", "POST", '[{"title":"x","meta":{"\\u0000":1}}]'],
      ["/rpc/search_tasks", "POST", '{"qu\\u0000ery":"x"}'],
    ] as const) {
      const r = await rest(path, { method, body });
      expect(r.status, body).toBe(400);
      expect((await r.json()).code, body).toBe("PGRST102");
    }
  });
});
