import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MESSAGES } from "~/lib/messages";
import { RequestScope, runInRequestScope } from "~/lib/request-scope.server";
import type { TestStack } from "../support/stack.ts";
import { createUser, startRouteStack, type RouteUser } from "./support.ts";

/**
 * GET /account with the backend down (issue 22 L12): the page's loaders
 * (root, the account layout, the profile) run side by side and share one
 * "who is signed in?" per request. When that fails, each loader must throw a
 * 503 page of its own: Remix reads the body of every thrown page, and one
 * Response thrown by three loaders was read three times ("TypeError: Body is
 * unusable: Body has already been read", a 500 logged instead of the 503).
 */
let stack: TestStack;
let user: RouteUser;

beforeAll(async () => {
  stack = await startRouteStack();
  user = await createUser(stack, "Dee Down");
});
afterAll(() => stack?.close());

it("every loader of the page throws a readable 503 of its own", async () => {
  const root = await import("~/root");
  const layout = await import("~/routes/account");
  const profile = await import("~/routes/account._index");
  await stack.close(); // the backend is gone: nothing answers at its address
  const request = new Request("http://app.test/account", { headers: { Cookie: user.cookie } });
  const scope = new RequestScope({ cookie: user.cookie });
  const thrown = await runInRequestScope(scope, () =>
    Promise.all(
      [root.loader, layout.loader, profile.loader].map((loader) =>
        Promise.resolve()
          .then((): Promise<unknown> => loader({ request, params: {}, context: {} as AppLoadContext }))
          .then(
            () => null,
            (error: unknown) => error,
          ),
      ),
    ),
  );
  const pages = thrown.filter((t): t is Response => t !== null && typeof (t as Response).text === "function");
  expect(pages.length).toBeGreaterThan(1);
  expect(new Set(pages).size).toBe(pages.length);
  for (const page of pages) {
    expect(page.status).toBe(503);
    // a page that only reads: nothing was changed, so it says so (not "your changes were not saved")
    expect(await page.text()).toBe(MESSAGES.backendDownRead);
  }
});
