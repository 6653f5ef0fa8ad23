import { expect, MODES, test } from "./fixtures";

for (const mode of MODES) {
  test.describe(`password recovery ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("forgot password → recovery email → new password → signed in with it", async ({
      page,
      signUp,
      mailbox,
      browser,
      backend,
    }) => {
      const user = await signUp();
      await page.goto("/login");
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
      await page.getByLabel("Email").fill(user.email);
      await page.getByRole("button", { name: "Send the link" }).click();
      await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

      const mail = await mailbox(user.email).next(/reset/i);
      expect(mail.link).toContain("type=recovery");
      await page.goto(mail.link);
      await expect(page).toHaveURL(/\/reset-password$/);
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();

      // mismatched confirmation first
      await page.getByLabel("New password", { exact: true }).fill("brand-new-pass-7");
      await page.getByLabel("New password, again").fill("brand-new-pass-8");
      await page.getByRole("button", { name: "Save the new password" }).click();
      await expect(page.getByText("The two passwords don't match.")).toBeVisible();

      await page.getByLabel("New password", { exact: true }).fill("brand-new-pass-7");
      await page.getByLabel("New password, again").fill("brand-new-pass-7");
      await page.getByRole("button", { name: "Save the new password" }).click();
      await expect(page).toHaveURL(/\/teams$/);
      await expect(page.getByText("Your new password is saved.")).toBeVisible();

      // the new password works in a fresh browser; the old one doesn't
      const fresh = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      const other = await fresh.newPage();
      await other.goto("/login");
      await other.getByLabel("Email").first().fill(user.email);
      await other.getByLabel("Password").fill(user.password);
      await other.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(other.getByRole("alert")).toHaveText("Email or password is incorrect.");
      await other.getByLabel("Password").fill("brand-new-pass-7");
      await other.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(other).toHaveURL(/\/teams$/);
      await fresh.close();
    });
  });
}

test("a used recovery link lands on /auth/error with the expired-link message and a fresh-link form", async ({
  page,
  signUp,
  mailbox,
}) => {
  const user = await signUp();
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  const mail = await mailbox(user.email).next(/reset/i);
  await page.goto(mail.link);
  await expect(page).toHaveURL(/\/reset-password$/);
  const response = await page.goto(mail.link);
  await expect(page).toHaveURL(/\/auth\/error\?reason=expired$/);
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("alert")).toHaveText("This link has expired or was already used. Send a new one.");
  await expect(page.getByRole("button", { name: "Email me a new link" })).toBeVisible();
});
