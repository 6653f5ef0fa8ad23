import { expect, sessionFromCookies, test } from "./fixtures";

/**
 * Against the `short` environment: access tokens live a few seconds, so
 * every page view after that has to refresh the session on the server.
 */
test.use({ environment: "short", javaScriptEnabled: false });
// One test at a time: they count requests on the stack this file alone uses.
test.describe.configure({ mode: "default" });

const isRefresh = (r: { method: string; path: string; search: string }) =>
  r.method === "POST" && r.path === "/auth/v1/token" && r.search.includes("grant_type=refresh_token");

async function waitUntilExpired(expiresAt: number) {
  await expect
    .poll(() => Date.now() / 1000 > expiresAt + 0.5, { timeout: 15_000, message: "the access token to expire" })
    .toBe(true);
}

test("a nested page (three loaders in parallel) stays signed in after expiry, with exactly one refresh", async ({
  page,
  context,
  signUp,
  login,
  backend,
}) => {
  const user = await signUp();
  await login(user);
  const before = await sessionFromCookies(context, backend.env.appUrl);
  expect(before).not.toBeNull();
  await waitUntilExpired(before!.expires_at);

  const since = Date.now();
  // a document request: root, account layout and sessions page loaders each call requireUser
  await page.goto("/account/sessions");
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();
  const logged = await backend.requests(since);
  const refreshes = logged.filter(isRefresh);
  expect(refreshes, JSON.stringify(logged, null, 1)).toHaveLength(1);
  expect(refreshes[0].status).toBe(200);

  // the refreshed session reached the browser: a new refresh token, a later expiry
  const after = await sessionFromCookies(context, backend.env.appUrl);
  expect(after!.refresh_token).not.toBe(before!.refresh_token);
  expect(after!.expires_at).toBeGreaterThan(before!.expires_at);
});

test("a single-fetch data request (client navigation) refreshes once too and hands the cookie back", async ({
  context,
  signUp,
  login,
  backend,
}) => {
  const user = await signUp();
  await login(user);
  const before = await sessionFromCookies(context, backend.env.appUrl);
  await waitUntilExpired(before!.expires_at);

  const since = Date.now();
  const response = await context.request.get("/account/sessions.data");
  expect(response.status()).toBe(200);
  const refreshes = (await backend.requests(since)).filter(isRefresh);
  expect(refreshes).toHaveLength(1);
  const setCookies = response.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie");
  expect(setCookies.some((h) => /^sb-.+-auth-token/.test(h.value))).toBe(true);
  const after = await sessionFromCookies(context, backend.env.appUrl);
  expect(after!.refresh_token).not.toBe(before!.refresh_token);
});

test("sign out everywhere signs out a second browser", async ({ page, browser, signUp, login, backend }) => {
  const user = await signUp();
  await login(user);
  const secondContext = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: false });
  await login(user, secondContext);
  const second = await secondContext.newPage();
  await second.goto("/account/sessions");
  await expect(second.getByRole("heading", { name: "Sessions" })).toBeVisible();

  await page.goto("/account/sessions");
  await page.getByLabel("Every session, this one too").check();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("You're logged out on every device.")).toBeVisible();

  // Its refresh token is revoked: as soon as its short-lived access token needs refreshing, it is sent to log in.
  await expect(async () => {
    await second.goto("/account/sessions");
    await expect(second).toHaveURL(/\/login\?next=%2Faccount%2Fsessions$/, { timeout: 100 });
  }).toPass({ timeout: 15_000 });
  expect(await secondContext.cookies()).not.toContainEqual(
    expect.objectContaining({ name: expect.stringMatching(/^sb-.+-auth-token/) }),
  );
  await secondContext.close();
});

test("sign out other sessions keeps this one", async ({ page, browser, signUp, login, backend }) => {
  const user = await signUp();
  await login(user);
  const secondContext = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: false });
  await login(user, secondContext);
  const second = await secondContext.newPage();

  await page.goto("/account/sessions");
  await expect(page.getByLabel("Every other session (this one stays signed in)")).toBeChecked();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByText("Your other sessions are signed out.")).toBeVisible();

  await expect(async () => {
    await second.goto("/account/sessions");
    await expect(second).toHaveURL(/\/login\?next=/, { timeout: 100 });
  }).toPass({ timeout: 15_000 });
  await page.goto("/account/sessions");
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();
  await secondContext.close();
});
