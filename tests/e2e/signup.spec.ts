import { expect, MODES, PASSWORD, test, uniqueEmail } from "./fixtures";

for (const mode of MODES) {
  test.describe(`sign up ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("sign up → confirmation email → confirmed and signed in", async ({ page, mailbox }) => {
      const email = uniqueEmail("signup");
      await page.goto("/signup");
      await page.getByLabel("Your name").fill("Ada Lovelace");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up" }).click();
      await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
      await expect(page.getByText(email)).toBeVisible();

      const mail = await mailbox(email).next(/confirm/i);
      expect(mail.link).toContain("/auth/confirm?token_hash=");
      await page.goto(mail.link);
      await expect(page).toHaveURL(/\/teams$/);
      await expect(page.getByRole("heading", { name: "Your teams" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
    });

    test("the code from the confirmation email, entered on the page, confirms and signs in; a wrong one says so", async ({
      page,
      mailbox,
    }) => {
      const email = uniqueEmail("signupcode");
      await page.goto("/signup?next=/account");
      await page.getByLabel("Your name").fill("Katherine Johnson");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up" }).click();
      await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
      const mail = await mailbox(email).next(/confirm/i);
      expect(mail.code).toMatch(/^\d{6}$/);

      const code = page.getByLabel("Or enter the code from the email");
      await code.fill(mail.code === "000000" ? "111111" : "000000");
      await page.getByRole("button", { name: "Confirm and sign in" }).click();
      await expect(page.getByText("That code is wrong or has expired.")).toBeVisible();
      await expect(code).toHaveAttribute("aria-invalid", "true");
      // still the same address's page: the right code works next
      await expect(page.getByText(email)).toBeVisible();

      await code.fill(mail.code!);
      await page.getByRole("button", { name: "Confirm and sign in" }).click();
      // where the link would have landed (next), signed in
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByText("You're signed in.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Katherine Johnson" })).toBeVisible();
    });

    test("wrong values come back with a message beside each field and the values kept", async ({ page }) => {
      await page.goto("/signup");
      await page.getByLabel("Your name").fill("Grace");
      await page.getByLabel("Email").fill("grace@example");
      await page.getByLabel("Password").fill("abcdefgh");
      await page.getByRole("button", { name: "Sign up" }).click();
      const email = page.getByLabel("Email");
      await expect(email).toHaveAttribute("aria-invalid", "true");
      const beside = page.locator(".field-error");
      await expect(beside).toHaveText([
        "Enter a valid email address, like name@example.com.",
        "Include at least one letter and one digit.",
      ]);
      await expect(email).toHaveValue("grace@example");
      await expect(page.getByLabel("Your name")).toHaveValue("Grace");
      // the message is tied to its field for screen readers
      const describedBy = await email.getAttribute("aria-describedby");
      await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(/Enter a valid email address/);
    });

    test("two wrong fields: the page lands at a summary on top of the form, announced, with a link to each", async ({
      page,
    }) => {
      await page.setViewportSize({ width: 390, height: 500 });
      await page.goto("/signup");
      await page.getByLabel("Your name").fill("Grace");
      await page.getByLabel("Email").fill("grace@example");
      await page.getByLabel("Password").fill("abcdefgh");
      await page.getByRole("button", { name: "Sign up" }).click();

      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await expect(summary).toBeFocused();
      await expect(summary).toBeInViewport();
      await expect(page.getByRole("alert")).toHaveCount(1);
      const links = summary.getByRole("link");
      await expect(links).toHaveText([
        "Enter a valid email address, like name@example.com.",
        "Include at least one letter and one digit.",
      ]);
      // each link leads to its field
      await links.nth(1).click();
      if (mode.js) await expect(page.getByLabel("Password")).toBeFocused();
      else await expect(page).toHaveURL(new RegExp(`#${await page.getByLabel("Password").getAttribute("id")}$`));
      await expect(page.getByLabel("Password")).toBeInViewport();
    });

    test("one wrong field is the one focused; with more, the summary lists them in the form's order", async ({
      page,
    }) => {
      await page.goto("/signup");
      await page.getByLabel("Your name").fill("Grace");
      await page.getByLabel("Email").fill("grace@example");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up" }).click();
      await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Email")).toBeFocused();
      // one message, said once: beside its field, no summary
      await expect(page.getByText("Enter a valid email address, like name@example.com.")).toHaveCount(1);
      await expect(page.getByRole("alert")).toHaveCount(0);

      await page.getByLabel("Your name").fill("");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up" }).click();
      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await expect(summary).toBeFocused();
      await expect(summary.getByRole("link")).toHaveText([/name/i, /valid email/]);
    });

    test("a duplicate email says so and keeps the values", async ({ page, signUp }) => {
      const existing = await signUp();
      await page.goto("/signup");
      await page.getByLabel("Your name").fill("Someone Else");
      await page.getByLabel("Email").fill(existing.email);
      await page.getByLabel("Password").fill("another-pass-2");
      await page.getByRole("button", { name: "Sign up" }).click();
      await expect(page.getByText("An account with this email already exists.")).toBeVisible();
      await expect(page.getByLabel("Email")).toHaveValue(existing.email);
      await expect(page.getByLabel("Your name")).toHaveValue("Someone Else");
      await page.getByRole("link", { name: "Log in instead?" }).click();
      await expect(page.getByRole("heading", { name: "Log in", exact: true })).toBeVisible();
    });
  });
}

test("the server answers a rejected signup with 400 and never echoes the password", async ({ request }) => {
  const response = await request.post("/signup", {
    form: { displayName: "Weak", email: uniqueEmail("weak"), password: "short" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(400);
  const html = await response.text();
  expect(html).toContain("Use at least 8 characters.");
  expect(html).not.toContain('value="short"');
});
