import { afterAll, beforeAll, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { startRouteStack } from "../routes/support.ts";

let stack: TestStack;
let app: {
  scope: typeof import("../../app/lib/request-scope.server");
  supabase: typeof import("../../app/lib/supabase.server");
  auth: typeof import("../../app/lib/auth.server");
};
beforeAll(async () => {
  // shorter than auth-js's 90-s refresh margin: every session counts as expiring
  stack = await startRouteStack({ auth: { jwtExpiry: 30 } });
  // the app's modules read their environment (the stack's address) when loaded
  app = {
    scope: await import("../../app/lib/request-scope.server"),
    supabase: await import("../../app/lib/supabase.server"),
    auth: await import("../../app/lib/auth.server"),
  };
});
afterAll(() => stack.close());

it("refreshes a short-lived session once per request, however many loaders ask who is signed in and query after", async () => {
  const { RequestScope, runInRequestScope } = app.scope;
  const admin = stack.adminClient();
  await admin.auth.admin.createUser({ email: "loaders@example.com", password: "loaders-pass-1", email_confirm: true });
  const signIn = new RequestScope();
  const { error } = await app.supabase
    .createRequestClient(signIn)
    .auth.signInWithPassword({ email: "loaders@example.com", password: "loaders-pass-1" });
  expect(error).toBeNull();
  const cookie = signIn
    .setCookies()
    .map((c) => c.split(";")[0])
    .join("; ");

  const since = Date.now();
  const page = new RequestScope({ cookie });
  await runInRequestScope(page, async () => {
    // root, layout and page loaders, one after another as their own awaits finish
    const first = await app.auth.getUser();
    const second = await app.auth.getUser();
    const third = await app.auth.getUser();
    expect(first?.email).toBe("loaders@example.com");
    expect(second?.id).toBe(first?.id);
    expect(third?.id).toBe(first?.id);
    // then each loader's queries, in turn (supabase-js asks auth-js for the session before each)
    for (let i = 0; i < 3; i++) {
      const { error: readError } = await app.supabase.requestClient().from("teams").select("id");
      expect(readError).toBeNull();
    }
  });
  const refreshes = stack.requests
    .list(since)
    .filter((r) => r.path === "/auth/v1/token" && r.search.includes("refresh_token"));
  expect(refreshes).toHaveLength(1);
  // and the refreshed session travels back to the browser
  const sessionCookies = page.setCookies().filter((c) => c.startsWith("sb-"));
  expect(sessionCookies).toHaveLength(1);
});
