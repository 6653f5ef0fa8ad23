import fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { signIn, startRouteStack } from "../routes/support.ts";

let stack: TestStack;
let app: {
  scope: typeof import("../../app/lib/request-scope.server");
  projects: typeof import("../../app/lib/projects.server");
};
beforeAll(async () => {
  stack = await startRouteStack();
  // the app's modules read their environment (the stack's address) when loaded
  app = {
    scope: await import("../../app/lib/request-scope.server"),
    projects: await import("../../app/lib/projects.server"),
  };
  await stack.db.exec(fs.readFileSync("supabase/seed.sql", "utf8"));
  await stack
    .adminClient()
    .auth.admin.createUser({ email: "outsider@example.com", password: "outsider-pass-1", email_confirm: true });
});
afterAll(() => stack.close());

/** The browser's cookies after signing in with a password. */
const cookieOf = async (email: string, password: string) => (await signIn({ id: "", email, password })).cookie;

/** The lookup in a request of its own (a request remembers its lookups), as its status: 200 or the thrown page's. */
const statusOf = (cookie: string, teamSlug: string, key: string) =>
  app.scope
    .runInRequestScope(new app.scope.RequestScope({ cookie }), () => app.projects.requireProjectInTeam(teamSlug, key))
    .then(
      () => 200,
      (thrown: Response) => thrown.status,
    );

it("finds a project by its team's slug for a member, and is a 404 for anyone else or another team's slug (RLS decides)", async () => {
  const member = await cookieOf("member@teamboard.local", "teamboard-demo-1");
  const project = await app.scope.runInRequestScope(new app.scope.RequestScope({ cookie: member }), () =>
    app.projects.requireProjectInTeam("acme", "WEB"),
  );
  expect(project).toMatchObject({ key: "WEB", name: "Website", archived_at: null });
  expect(project).not.toHaveProperty("team");
  expect(await statusOf(member, "other-team", "WEB")).toBe(404);
  expect(await statusOf(member, "acme", "NOPE")).toBe(404);

  const outsider = await cookieOf("outsider@example.com", "outsider-pass-1");
  expect(await statusOf(outsider, "acme", "WEB")).toBe(404);
});
