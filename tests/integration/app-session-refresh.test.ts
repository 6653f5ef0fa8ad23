import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

// The app's modules read their environment when loaded.
process.env.SUPABASE_URL ??= "http://127.0.0.1:54321";
process.env.SUPABASE_ANON_KEY ??= "anon-key-for-integration-tests-0123456789";
process.env.SESSION_SECRET ??= "integration-test-secret-0123456789";
const { createRequestClient } = await import("../../app/lib/supabase.server");
const { getUser } = await import("../../app/lib/auth.server");

let stack: TestStack;
beforeAll(async () => {
  // shorter than auth-js's 90-s refresh margin: every session counts as expiring
  stack = await startTestStack({ auth: { jwtExpiry: 30 } });
});
afterAll(() => stack.close());

it("refreshes a short-lived session once per request, however many loaders ask who is signed in and query after", async () => {
  const admin = stack.adminClient();
  await admin.auth.admin.createUser({ email: "loaders@example.com", password: "loaders-pass-1", email_confirm: true });
  const signIn = createRequestClient(new Request("http://app.test/login", { method: "POST" }), {
    url: stack.url,
    anonKey: stack.anonKey,
  });
  const { error } = await signIn.supabase.auth.signInWithPassword({
    email: "loaders@example.com",
    password: "loaders-pass-1",
  });
  expect(error).toBeNull();
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

  const since = Date.now();
  const page = createRequestClient(new Request("http://app.test/teams/acme", { headers: { cookie } }), {
    url: stack.url,
    anonKey: stack.anonKey,
  });
  // root, layout and page loaders, one after another as their own awaits finish
  const first = await getUser(page);
  const second = await getUser(page);
  const third = await getUser(page);
  expect(first?.email).toBe("loaders@example.com");
  expect(second?.id).toBe(first?.id);
  expect(third?.id).toBe(first?.id);
  // then each loader's queries, in turn (supabase-js asks auth-js for the session before each)
  for (let i = 0; i < 3; i++) {
    const { error: readError } = await page.supabase.from("teams").select("id");
    expect(readError).toBeNull();
  }
  const refreshes = stack.requests
    .list(since)
    .filter((r) => r.path === "/auth/v1/token" && r.search.includes("refresh_token"));
  expect(refreshes).toHaveLength(1);
  // and the refreshed session travels back to the browser
  const sessionCookies = page.headers.getSetCookie().filter((c) => c.startsWith("sb-"));
  expect(sessionCookies).toHaveLength(1);
});
