import fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

// The app's modules read their environment when loaded.
process.env.SUPABASE_URL ??= "http://127.0.0.1:54321";
process.env.SUPABASE_ANON_KEY ??= "anon-key-for-integration-tests-0123456789";
process.env.SESSION_SECRET ??= "integration-test-secret-0123456789";
const { createRequestClient } = await import("../../app/lib/supabase.server");
const { requireProjectInTeam } = await import("../../app/lib/projects.server");

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  await stack.db.exec(fs.readFileSync("supabase/seed.sql", "utf8"));
  await stack
    .adminClient()
    .auth.admin.createUser({ email: "outsider@example.com", password: "outsider-pass-1", email_confirm: true });
});
afterAll(() => stack.close());

async function clientOf(email: string, password: string) {
  const signIn = createRequestClient(new Request("http://app.test/login", { method: "POST" }), {
    url: stack.url,
    anonKey: stack.anonKey,
  });
  const { error } = await signIn.supabase.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return createRequestClient(new Request("http://app.test/teams/acme/projects/WEB", { headers: { cookie } }), {
    url: stack.url,
    anonKey: stack.anonKey,
  });
}

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (thrown: Response) => thrown.status,
  );

it("finds a project by its team's slug for a member, and is a 404 for anyone else or another team's slug (RLS decides)", async () => {
  const member = await clientOf("member@teamboard.local", "teamboard-demo-1");
  const project = await requireProjectInTeam(member, "acme", "WEB");
  expect(project).toMatchObject({ key: "WEB", name: "Website", archived_at: null });
  expect(project).not.toHaveProperty("team");
  expect(await statusOf(requireProjectInTeam(member, "other-team", "WEB"))).toBe(404);
  expect(await statusOf(requireProjectInTeam(member, "acme", "NOPE"))).toBe(404);

  const outsider = await clientOf("outsider@example.com", "outsider-pass-1");
  expect(await statusOf(requireProjectInTeam(outsider, "acme", "WEB"))).toBe(404);
});
