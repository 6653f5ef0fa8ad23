import { expect, MODES, test } from "./fixtures";

for (const mode of MODES) {
  test.describe(`log in ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("password log in, then log out", async ({ page, signUp }) => {
      const user = await signUp();
      await page.goto("/login");
      await page.getByLabel("Email").first().fill(user.email);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/\/teams$/);
      await expect(page.getByRole("heading", { name: "Your teams" })).toBeVisible();

      await page.getByRole("button", { name: "Log out" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.goto("/teams");
      await expect(page).toHaveURL(/\/login\?next=%2Fteams$/);
    });

    test("a wrong password says so and keeps the email", async ({ page, signUp }) => {
      const user = await signUp();
      await page.goto("/login");
      await page.getByLabel("Email").first().fill(user.email);
      await page.getByLabel("Password").fill("not-the-password-9");
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByRole("alert")).toHaveText("Email or password is incorrect.");
      await expect(page.getByLabel("Email").first()).toHaveValue(user.email);
      await expect(page).toHaveURL(/\/login$/);
    });

    test("an unconfirmed email says so and offers the link again", async ({ page, signUp, mailbox }) => {
      const user = await signUp({ confirmed: false });
      await page.goto("/login");
      await page.getByLabel("Email").first().fill(user.email);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByText("Confirm your email first. We can send the link again.")).toBeVisible();
      await expect(page.getByLabel("Email").first()).toHaveValue(user.email);
      await page.getByRole("button", { name: "Send the confirmation link again" }).click();
      await expect(page.getByText(`We sent a new confirmation link to ${user.email}.`)).toBeVisible();
      const mail = await mailbox(user.email).next(/confirm/i);
      await page.goto(mail.link);
      await expect(page.getByRole("heading", { name: "Your teams" })).toBeVisible();
    });

    test("magic link signs in", async ({ page, signUp, mailbox }) => {
      const user = await signUp();
      await page.goto("/login");
      await page.getByLabel("Email").nth(1).fill(user.email);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await expect(page.getByText(`Check your email: we sent a sign-in link to ${user.email}.`)).toBeVisible();
      const mail = await mailbox(user.email).next(/magic|sign/i);
      await page.goto(mail.link);
      await expect(page).toHaveURL(/\/teams$/);
      await expect(page.getByRole("heading", { name: "Your teams" })).toBeVisible();
    });

    test("email code signs in", async ({ page, signUp, mailbox }) => {
      const user = await signUp();
      await page.goto("/login?next=/account");
      await page.getByLabel("Email").nth(1).fill(user.email);
      await page.getByRole("button", { name: "Email me a code" }).click();
      await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
      const mail = await mailbox(user.email).next(/magic|sign/i);
      expect(mail.code).toMatch(/^\d{6}$/);
      // a wrong code first: message beside the field
      await page.getByLabel("Code").fill(mail.code === "000000" ? "111111" : "000000");
      await page.getByRole("button", { name: "Log in" }).click();
      await expect(page.getByText("That code is wrong or has expired.", { exact: false })).toBeVisible();
      await page.getByLabel("Code").fill(mail.code!);
      await page.getByRole("button", { name: "Log in" }).click();
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
    });

    test("a page behind login sends to /login?next=… and back after logging in", async ({ page, signUp }) => {
      const user = await signUp();
      await page.goto("/account/password?tab=1");
      await expect(page).toHaveURL(/\/login\?next=%2Faccount%2Fpassword%3Ftab%3D1$/);
      await page.getByLabel("Email").first().fill(user.email);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/\/account\/password\?tab=1$/);
      await expect(page.getByRole("heading", { name: "Password" })).toBeVisible();
    });

    test("?next=https://evil.example is ignored", async ({ page, signUp }) => {
      const user = await signUp();
      await page.goto(`/login?next=${encodeURIComponent("https://evil.example/steal")}`);
      await page.getByLabel("Email").first().fill(user.email);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/teams$/);
    });
  });
}

test("a signed-in person is sent from /login and /signup to /teams", async ({ page, signUp, login }) => {
  await login(await signUp());
  await page.goto("/login");
  await expect(page).toHaveURL(/\/teams$/);
  await page.goto("/signup");
  await expect(page).toHaveURL(/\/teams$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/teams$/);
});

test("protocol-relative and backslash next values are ignored too", async ({ request, signUp }) => {
  const user = await signUp();
  for (const next of ["//evil.example", "/\\evil.example", "/%2F%2Fevil.example"]) {
    const response = await request.post("/login", {
      form: { email: user.email, password: user.password, next },
      maxRedirects: 0,
    });
    expect(response.status(), next).toBe(302);
    expect(response.headers()["location"], next).toBe("/teams");
  }
});

test("next values that the URL parser collapses to //host are ignored: login form, its hidden field, email links", async ({
  request,
  signUp,
  mailbox,
}) => {
  const user = await signUp();
  for (const next of ["/.//evil.example/phish", "/a/..//evil.example", "/%2e//evil.example"]) {
    const response = await request.post("/login", {
      form: { email: user.email, password: user.password, next },
      maxRedirects: 0,
    });
    expect(response.status(), next).toBe(302);
    expect(response.headers()["location"], next).toBe("/teams");
    const page = await (await request.get(`/login?next=${encodeURIComponent(next)}`)).text();
    expect(page, next).not.toContain("//evil.example");
  }
  // a real confirmation link whose next was tampered with
  await request.post("/login", { form: { intent: "magiclink", email: user.email } });
  const link = new URL((await mailbox(user.email).next(/magic link/i)).link);
  link.searchParams.set("next", "/.//evil.example/x");
  const confirm = await request.get(link.pathname + link.search, { maxRedirects: 0 });
  expect(confirm.status()).toBe(302);
  expect(confirm.headers()["location"]).toBe("/teams");
});

test("GET /logout signs nobody out; only a POST does", async ({ page, signUp, login }) => {
  await login(await signUp());
  await page.goto("/logout");
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
});

for (const mode of MODES) {
  test.describe(`log out ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("the header's Log out lands on the login page saying so", async ({ page, signUp, login }) => {
      await login(await signUp());
      await page.goto("/teams");
      await page.getByRole("banner").getByRole("button", { name: "Log out" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("You're logged out.")).toBeVisible();
    });
  });
}
