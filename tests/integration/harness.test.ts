import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

it("hands out supabase-js clients that work on Node 20", async () => {
  const admin = stack.adminClient();
  const { data, error } = await admin.auth.admin.createUser({
    email: "harness@example.com",
    password: "harness-pass-1",
    email_confirm: true,
  });
  expect(error).toBeNull();
  expect(data.user?.email).toBe("harness@example.com");
  const anon = stack.anonClient();
  const signIn = await anon.auth.signInWithPassword({ email: "harness@example.com", password: "harness-pass-1" });
  expect(signIn.error).toBeNull();
  expect(signIn.data.session?.access_token).toMatch(/^ey/);
});
