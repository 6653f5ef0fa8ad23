import { expect, MODES, test, uniqueEmail } from "./fixtures";

for (const mode of MODES) {
  test.describe(`local provider ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("Continue with the local provider signs in through /auth/callback", async ({ page }) => {
      const email = uniqueEmail("oauth");
      await page.goto("/login?next=/account");
      await page.getByRole("button", { name: "Continue with the local provider" }).click();
      await expect(page.getByRole("heading", { name: "Local sign-in" })).toBeVisible();
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();
    });
  });
}

test("a sign-in link opened in another browser (no PKCE verifier) lands on /auth/error with its message", async ({
  page,
  browser,
  backend,
}) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with the local provider" }).click();
  await expect(page.getByRole("heading", { name: "Local sign-in" })).toBeVisible();
  await page.getByLabel("Email").fill(uniqueEmail("elsewhere"));
  // The provider sends this browser back to /auth/callback?code=…; take that link to another browser.
  const [callback] = await Promise.all([
    page.waitForRequest((request) => new URL(request.url()).pathname === "/auth/callback"),
    page.getByRole("button", { name: "Continue" }).click(),
  ]);
  const callbackUrl = callback.url();
  expect(callbackUrl).toContain("code=");

  const otherBrowser = await browser.newContext({ baseURL: backend.env.appUrl });
  const other = await otherBrowser.newPage();
  const response = await other.goto(callbackUrl);
  await expect(other).toHaveURL(/\/auth\/error\?reason=other_browser$/);
  expect(response?.status()).toBe(400);
  await expect(other.getByRole("alert")).toHaveText(
    "Open the link in the browser where you asked for it, or request a new one here.",
  );
  await expect(other.getByRole("button", { name: "Email me a new link" })).toBeVisible();
  await otherBrowser.close();
});
