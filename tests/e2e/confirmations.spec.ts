import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { seedTeam } from "./product-fixtures";

/**
 * With JavaScript a form saves in place, and its "… is saved." shows where
 * the person is looking — beside the button they pressed — not only at the
 * top of a page they have scrolled away from (issue 29 §7). Without
 * JavaScript the page reloads at its top, where the message is.
 */
test.use({ viewport: { width: 1280, height: 600 } });

/** `status` sits on the same line as `button`, just after it. */
async function expectBeside(status: Locator, button: Locator) {
  const [s, b] = [await status.boundingBox(), await button.boundingBox()];
  expect(s && b).toBeTruthy();
  expect(Math.abs(s!.y + s!.height / 2 - (b!.y + b!.height / 2))).toBeLessThan(b!.height / 2);
  expect(s!.x - (b!.x + b!.width)).toBeGreaterThanOrEqual(0);
  expect(s!.x - (b!.x + b!.width)).toBeLessThan(48);
}

test("saving a task scrolled down shows its confirmation in view, beside the button", async ({
  page,
  backend,
  login,
}) => {
  const long = Array.from({ length: 30 }, (_, i) => `Step ${i + 1} of the plan.`).join("\n\n");
  const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite", description: long }] });
  await login(team.users.member);
  await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
  const panel = page.getByRole("complementary", { name: "Task" });
  // read down the long description first, then edit
  await panel.getByText("Step 30 of the plan.").scrollIntoViewIfNeeded();
  await panel.getByRole("link", { name: "Edit", exact: true }).click();
  await panel.getByLabel("Title", { exact: true }).fill("Plan the team offsite");
  const save = panel.getByRole("button", { name: "Save changes" });
  await save.scrollIntoViewIfNeeded();
  await save.click();

  const status = panel.getByRole("status").filter({ hasText: "WEB-1 is saved." });
  await expect(status).toBeInViewport();
  await expectBeside(status, panel.getByRole("link", { name: "Edit", exact: true }));
  // said once (not again at the top of the page)
  await expect(page.getByText("WEB-1 is saved.")).toHaveCount(1);
  await expect(panel.getByRole("heading", { name: "WEB-1 Plan the team offsite" })).toBeVisible();
});

test("saving the profile shows its confirmation beside Save profile", async ({ page, signUp, login }) => {
  await login(await signUp());
  await page.setViewportSize({ width: 1280, height: 400 });
  await page.goto("/account");
  await page.getByLabel("Display name").fill("Ada Byron");
  const save = page.getByRole("button", { name: "Save profile" });
  await save.scrollIntoViewIfNeeded();
  await save.click();
  const status = page.getByRole("status").filter({ hasText: "Your profile is saved." });
  await expect(status).toBeInViewport();
  await expectBeside(status, save);
  await expect(page.getByText("Your profile is saved.")).toHaveCount(1);
  await expect(page.getByLabel("Display name")).toHaveValue("Ada Byron");
});
