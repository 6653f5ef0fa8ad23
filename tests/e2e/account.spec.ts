import { expect, MODES, test, uniqueEmail } from "./fixtures";

for (const mode of MODES) {
  test.describe(`account ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("email change is confirmed from both addresses (secure email change)", async ({
      page,
      signUp,
      login,
      mailbox,
    }) => {
      const user = await signUp();
      await login(user);
      const newEmail = uniqueEmail("moved");
      await page.goto("/account/email");
      await expect(page.getByText(`Your email address is ${user.email}.`)).toBeVisible();
      await page.getByLabel("New email address").fill(newEmail);
      await page.getByRole("button", { name: "Change email" }).click();
      await expect(
        page.getByText(
          `We sent a confirmation link to ${newEmail} and one to ${user.email}. Your address changes when you have followed both.`,
        ),
      ).toBeVisible();

      // either link may come first: the current address's with JavaScript, the new one's without
      const [first, second] = mode.js ? [user.email, newEmail] : [newEmail, user.email];
      const firstMail = await mailbox(first).next(/email change/i);
      const secondMail = await mailbox(second).next(/email change/i);
      await page.goto(firstMail.link);
      await expect(page).toHaveURL(/\/account\/email$/);
      await expect(
        page.getByText(
          "This address is confirmed. Now follow the link we sent to your other address to finish the change.",
        ),
      ).toBeVisible();
      await expect(page.getByText(`Your email address is ${user.email}.`)).toBeVisible();

      await page.goto(secondMail.link);
      await expect(page).toHaveURL(/\/account\/email$/);
      await expect(page.getByText("Your email address is changed.")).toBeVisible();
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
  });
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
