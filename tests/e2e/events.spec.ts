import { expect, test } from "./fixtures";

test("a name changed in one tab shows in the other open tab without a reload (USER_UPDATED)", async ({
  context,
  signUp,
  login,
}) => {
  const user = await signUp();
  await login(user);
  const first = await context.newPage();
  const second = await context.newPage();
  await first.goto("/account");
  await second.goto("/teams");
  await expect(second.getByRole("link", { name: user.displayName })).toBeVisible();
  // both tabs' browser clients are running (they load after hydration)
  for (const tab of [first, second]) {
    await expect
      .poll(() =>
        tab.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.includes("supabase.client"))),
      )
      .toBe(true);
  }
  // a mark that a reload of the second tab would wipe out
  await second.evaluate(() => Object.assign(window, { notReloaded: true }));

  await first.getByLabel("Display name").fill("Renamed Person");
  await first.getByRole("button", { name: "Save profile" }).click();
  await expect(first.getByText("Your profile is saved.")).toBeVisible();
  await expect(first.getByRole("link", { name: "Renamed Person" })).toBeVisible();

  await expect(second.getByRole("link", { name: "Renamed Person" })).toBeVisible();
  await expect(second).toHaveURL(/\/teams$/);
  expect(await second.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});
