import { expect, test } from "./fixtures";

test("logging out in one tab sends the other open tab to /login (SIGNED_OUT)", async ({ context, signUp, login }) => {
  await login(await signUp());
  const first = await context.newPage();
  const second = await context.newPage();
  await first.goto("/account");
  await second.goto("/account/email");
  await expect(first.getByRole("heading", { name: "Profile" })).toBeVisible();
  await expect(second.getByRole("heading", { name: "Email" })).toBeVisible();
  // both tabs' browser clients are running (they load after hydration)
  for (const tab of [first, second]) {
    await expect
      .poll(() =>
        tab.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.includes("supabase.client"))),
      )
      .toBe(true);
  }

  await first.getByRole("button", { name: "Log out" }).click();
  await expect(first).toHaveURL(/\/login$/);
  await expect(second).toHaveURL(/\/login$/);
  await expect(second.getByRole("heading", { name: "Log in", exact: true })).toBeVisible();
  await second.goto("/account");
  await expect(second).toHaveURL(/\/login\?next=%2Faccount$/);
});

test("signing in in one tab updates another tab that showed the signed-out page (SIGNED_IN)", async ({
  context,
  signUp,
}) => {
  const user = await signUp();
  const first = await context.newPage();
  const second = await context.newPage();
  await second.goto("/auth/error?reason=expired");
  await expect(second.getByRole("link", { name: "Log in" }).first()).toBeVisible();
  await expect
    .poll(() =>
      second.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.includes("supabase.client"))),
    )
    .toBe(true);

  await first.goto("/login");
  await first.getByLabel("Email").first().fill(user.email);
  await first.getByLabel("Password").fill(user.password);
  await first.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(first).toHaveURL(/\/teams$/);
  await expect(second.getByRole("link", { name: user.displayName })).toBeVisible();
});
