import { expect, MODES, test, uniqueEmail } from "./fixtures";

for (const mode of MODES) {
  test.describe(`account ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("email change is confirmed from the new address", async ({ page, signUp, login, mailbox }) => {
      const user = await signUp();
      await login(user);
      const newEmail = uniqueEmail("moved");
      await page.goto("/account/email");
      await expect(page.getByText(`Your email address is ${user.email}.`)).toBeVisible();
      await page.getByLabel("New email address").fill(newEmail);
      await page.getByRole("button", { name: "Change email" }).click();
      await expect(page.getByText(`We sent a confirmation link to ${newEmail}.`)).toBeVisible();

      const mail = await mailbox(newEmail).next(/email change/i);
      await page.goto(mail.link);
      await expect(page).toHaveURL(/\/account\/email$/);
      await expect(page.getByText(`Your email address is ${newEmail}.`)).toBeVisible();
    });

    test("password change, with its rules checked", async ({ page, signUp, login }) => {
      const user = await signUp();
      await login(user);
      await page.goto("/account/password");
      await page.getByLabel("New password", { exact: true }).fill("onlyletters");
      await page.getByLabel("New password, again").fill("onlyletters");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByText("Include at least one letter and one digit.")).toBeVisible();
      await page.getByLabel("New password", { exact: true }).fill("letters-and-9");
      await page.getByLabel("New password, again").fill("letters-and-9");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByText("Your new password is saved.")).toBeVisible();
    });

    test("sign out everywhere ends the other browser's session", async ({ page, signUp, login, browser, backend }) => {
      const user = await signUp();
      await login(user);
      const otherContext = await browser.newContext({ baseURL: backend.env.appUrl });
      await login(user, otherContext);
      const other = await otherContext.newPage();
      await other.goto("/account/sessions");
      await expect(other.getByRole("heading", { name: "Sessions" })).toBeVisible();

      await page.goto("/account/sessions");
      await page.getByRole("button", { name: "Sign out everywhere" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("You're logged out on every device.")).toBeVisible();

      // The other browser's refresh token is revoked: its next refresh fails and it is sent to log in.
      // (Its access token is a signed JWT that stays valid until it expires; see docs/decisions/0002.)
      await otherContext.addCookies([]);
      await expireAccessToken(otherContext, backend.env.appUrl);
      await other.goto("/account/sessions");
      await expect(other).toHaveURL(/\/login\?next=%2Faccount%2Fsessions$/);
      await otherContext.close();
    });
  });
}

/**
 * Makes the context's stored session look expired (its `expires_at` in the
 * past), so the next request must refresh — what happens by itself an hour
 * later.
 */
async function expireAccessToken(context: import("@playwright/test").BrowserContext, url: string) {
  const cookies = (await context.cookies(url)).filter((c) => /^sb-.+-auth-token(\.\d+)?$/.test(c.name));
  cookies.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
  const raw = cookies.map((c) => c.value).join("");
  const session = JSON.parse(Buffer.from(raw.slice("base64-".length), "base64url").toString("utf8"));
  session.expires_at = Math.floor(Date.now() / 1000) - 10;
  const value = `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`;
  const name = cookies[0].name.replace(/\.\d+$/, "");
  await context.clearCookies({ name: new RegExp(`^${name}`) });
  await context.addCookies([{ name, value, url, sameSite: "Lax" }]);
}

test("profile: display name and username are saved, a taken username says so", async ({ page, signUp, login }) => {
  const first = await signUp();
  const second = await signUp();
  const taken = `taken_${Date.now().toString(36)}`;
  await login(first);
  await page.goto("/account");
  await page.getByLabel("Username").fill(taken);
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile is saved.")).toBeVisible();

  await page.context().clearCookies();
  await login(second);
  await page.goto("/account");
  await page.getByLabel("Display name").fill("Second Person");
  await page.getByLabel("Username").fill(taken.toUpperCase());
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("That username is taken.")).toBeVisible();
  await expect(page.getByLabel("Display name")).toHaveValue("Second Person");
  await page.getByLabel("Username").fill(`${taken}_2`);
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile is saved.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Second Person" })).toBeVisible();
});
