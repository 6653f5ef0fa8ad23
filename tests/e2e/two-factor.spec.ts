import { expect, MODES, test } from "./fixtures";
import { nextTotp, totp, wrongTotp } from "../support/totp";
import { enrolAuthenticator } from "./support/two-factor";

/**
 * Two-factor sign-in (issue 12 §4), with and without JavaScript: enrolling an
 * authenticator app on /account/security with a code computed here (RFC 6238,
 * tests/support/totp.ts), signing in again and being asked for a code, and
 * removing the app.
 */
const WRONG_CODE = "That code isn't right. Enter the 6-digit code your authenticator app shows now.";

for (const mode of MODES) {
  test.describe(`two-factor sign-in ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("enrol an app with a code (a wrong one keeps the QR code), then remove it", async ({
      page,
      signUp,
      login,
    }) => {
      const user = await signUp();
      await login(user);
      await page.goto("/account");
      await page.getByRole("link", { name: "Two-factor sign-in" }).click();
      await expect(page).toHaveURL(/\/account\/security$/);
      await expect(page.getByText("Two-factor sign-in is off.")).toBeVisible();
      await page.getByLabel("Name (optional)").fill("My phone");
      await page.getByRole("button", { name: "Set up an authenticator app" }).click();
      await expect(page.getByRole("img", { name: "QR code for the authenticator app" })).toBeVisible();
      // shown in groups of four that never break inside (authenticator apps ignore the spaces)
      const shown = (await page.locator(".totp-secret").textContent())?.trim() ?? "";
      expect(shown).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/);
      await expect(page.locator(".totp-secret > span").first()).toHaveCSS("white-space", "nowrap");
      const secret = shown.replace(/ /g, "");
      await page.getByLabel("Code from the app").fill(wrongTotp(secret));
      await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
      await expect(page.getByText(WRONG_CODE)).toBeVisible();
      await expect(page.locator(".totp-secret")).toHaveText(shown);
      await expect(page.getByRole("img", { name: "QR code for the authenticator app" })).toBeVisible();
      await page.getByLabel("Code from the app").fill(totp(secret));
      await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
      await expect(page.getByText("Two-factor sign-in is on")).toBeVisible();

      // this session is at aal2, so it may remove the app
      await page.getByRole("button", { name: "Remove My phone" }).click();
      await expect(page.getByText("The authenticator app is removed.")).toBeVisible();
      await expect(page.getByText("Two-factor sign-in is off.")).toBeVisible();
    });

    test("the recovery codes shown once when the app is turned on sign in without the phone", async ({
      page,
      browser,
      backend,
      signUp,
      login,
    }) => {
      const user = await signUp();
      await login(user);
      await page.goto("/account/security");
      await page.getByRole("button", { name: "Set up an authenticator app" }).click();
      const secret = (await page.locator(".totp-secret").textContent())?.trim() ?? "";
      await page.getByLabel("Code from the app").fill(totp(secret));
      await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
      await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
      const codes = await page.locator(".code-list code").allTextContents();
      expect(codes).toHaveLength(10);
      // shown once: the page opened again counts them but doesn't show them
      await page.goto("/account/security");
      await expect(page.getByText("10 of 10 recovery codes left.")).toBeVisible();
      await expect(page.locator(".code-list")).toHaveCount(0);

      // another browser, password only, phone lost
      const other = await browser.newContext({ javaScriptEnabled: mode.js, baseURL: backend.env.appUrl });
      await login(user, other);
      const lost = await other.newPage();
      await lost.goto("/teams");
      await expect(lost).toHaveURL(/\/login\/mfa\?next=%2Fteams$/);
      await lost.getByText("Lost your phone? Use a recovery code").click();
      await lost.getByLabel("Recovery code").fill("zzzzz-zzzzz");
      await lost.getByRole("button", { name: "Use recovery code" }).click();
      await expect(lost.getByText("That isn't one of your unused recovery codes.")).toBeVisible();
      await lost.getByLabel("Recovery code").fill(codes[0].toUpperCase());
      await lost.getByRole("button", { name: "Use recovery code" }).click();
      await expect(lost).toHaveURL(/\/account\/security$/);
      await expect(lost.getByText("You signed in with a recovery code")).toBeVisible();
      await expect(lost.getByText("Two-factor sign-in is off.", { exact: true })).toBeVisible();
      await lost.goto("/teams");
      await expect(lost).toHaveURL(/\/teams$/);
      await other.close();
    });

    test("signing in asks for the code: a wrong one says so and stays, the right one lands on next", async ({
      page,
      browser,
      backend,
      signUp,
      login,
    }) => {
      const user = await signUp();
      const { secret } = await enrolAuthenticator(backend, user);
      await page.goto("/account/email");
      await expect(page).toHaveURL(/\/login\?next=%2Faccount%2Femail$/);
      await page.getByLabel("Email").first().fill(user.email);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/\/login\/mfa\?next=%2Faccount%2Femail$/);
      await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
      // not signed in yet: the header offers only the way out, not the signed-in pages
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: "Teams" })).toHaveCount(0);
      await expect(header.getByRole("link", { name: user.displayName })).toHaveCount(0);
      await expect(header.getByRole("button", { name: "Log out" })).toBeVisible();

      await page.getByLabel("Code", { exact: true }).fill(wrongTotp(secret));
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByText(WRONG_CODE)).toBeVisible();
      await expect(page).toHaveURL(/\/login\/mfa/);

      // enrolling used the code the app shows now: a code works once, so the next one
      await page.getByLabel("Code", { exact: true }).fill(nextTotp(secret));
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/account\/email$/);
      await expect(page.getByRole("heading", { name: "Email", exact: true })).toBeVisible();

      // another browser, signed in with the password only (aal1): account and team pages send it to the code
      const other = await browser.newContext({ javaScriptEnabled: mode.js, baseURL: backend.env.appUrl });
      await login(user, other);
      const otherPage = await other.newPage();
      for (const path of ["/teams", "/account/security"]) {
        await otherPage.goto(path);
        await expect(otherPage, path).toHaveURL(`/login/mfa?${new URLSearchParams({ next: path })}`);
      }
      await other.close();
    });

    test("an emailed code or link signs in at aal1 too, and the code page continues to `next`", async ({
      page,
      backend,
      signUp,
      mailbox,
    }) => {
      const user = await signUp();
      const { secret } = await enrolAuthenticator(backend, user);
      await page.goto("/login?next=%2Faccount%2Fsessions");
      await page.getByLabel("Email").nth(1).fill(user.email);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      const mail = await mailbox(user.email).next(/magic|sign/i);
      await page.goto(mail.link);
      await expect(page).toHaveURL(/\/login\/mfa\?next=%2Faccount%2Fsessions$/);
      await page.getByLabel("Code", { exact: true }).fill(nextTotp(secret));
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/account\/sessions$/);
    });
  });
}
