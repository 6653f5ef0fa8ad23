import type { Page, TestInfo } from "@playwright/test";
import { expect, MODES, test } from "./fixtures";
import { addComments, seedTeam } from "./product-fixtures";
import {
  LAYOUT_TASKS,
  SECOND_FACTOR_ROUTES,
  SIGNED_OUT_ROUTES,
  signedInRoutes,
  type RouteCase,
} from "./support/routes";
import { enrolAuthenticator } from "./support/two-factor";

/**
 * Phones: every page at 390 × 844 (a common phone) and 360 × 740 (the
 * narrowest we support), with and without JavaScript. The page never scrolls
 * sideways, the main controls are big enough to tap, and the header's folded
 * menu reaches search and "Log out". Screenshots of the main pages are kept
 * in test-results/ for people to look at (not compared).
 */
const PHONES = [
  { name: "390", viewport: { width: 390, height: 844 } },
  { name: "360", viewport: { width: 360, height: 740 } },
] as const;

/** How much wider than the screen the document is (0 when it fits). */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Buttons and form controls (the page's actions) smaller than 44 × 44 px, described for the failure message. */
async function smallTargets(page: Page) {
  return page.evaluate(() => {
    const controls = document.querySelectorAll<HTMLElement>(
      "main button, main .button, main input:not([type=hidden]), main select, header summary, header button, header input, header .button",
    );
    const small: string[] = [];
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not shown at this size
      if (box.height < 44 || box.width < 44) {
        const name =
          control.getAttribute("aria-label") ?? control.textContent?.trim() ?? control.getAttribute("name") ?? "";
        small.push(
          `${control.tagName.toLowerCase()} "${name.slice(0, 40)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return small;
  });
}

async function checkPage(page: Page, route: RouteCase, testInfo: TestInfo, shotPrefix: string | null) {
  await page.goto(route.path);
  await expect(page.locator("main").locator("h1:visible, h2:visible").first(), route.path).toBeVisible();
  expect(await sidewaysOverflow(page), `${route.path} scrolls sideways by`).toBe(0);
  expect(await smallTargets(page), `${route.path}: controls under 44 × 44 px`).toEqual([]);
  if (route.screenshot && shotPrefix)
    await page.screenshot({ path: testInfo.outputPath(`${shotPrefix}-${route.name}.png`), fullPage: true });
}

/** The folded header menu: its button, then search and "Log out" on screen; closed again afterwards. */
async function expectHeaderMenuReaches(page: Page, path: string) {
  const menu = page.getByRole("banner").locator("summary", { hasText: /^Menu$/ });
  await menu.click();
  await expect(page.getByRole("searchbox", { name: "Search tasks" }), path).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("button", { name: "Log out" }), path).toBeInViewport({ ratio: 1 });
  expect(await sidewaysOverflow(page), `${path} with the menu open scrolls sideways by`).toBe(0);
  await menu.click();
  await expect(page.getByRole("button", { name: "Log out" })).toBeHidden();
}

for (const phone of PHONES) {
  for (const mode of MODES) {
    test.describe(`phone ${phone.name} px ${mode.name}`, () => {
      test.use({ viewport: phone.viewport, isMobile: true, hasTouch: true, javaScriptEnabled: mode.js });

      test("every page fits the screen, with tappable controls; the header's menu reaches search and Log out", async ({
        page,
        backend,
        login,
      }, testInfo) => {
        const shots = phone.name === "390" ? `phone-${mode.js ? "js" : "nojs"}` : null;
        for (const route of SIGNED_OUT_ROUTES) await checkPage(page, route, testInfo, shots);

        const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
        await addComments(backend, team.tasks[0].id, team.users.member, 2);
        await login(team.owner);
        for (const route of signedInRoutes(team)) {
          await checkPage(page, route, testInfo, shots);
          await expectHeaderMenuReaches(page, route.path);
        }

        // the header's search, used from the menu
        await page.goto("/teams");
        await page
          .getByRole("banner")
          .locator("summary", { hasText: /^Menu$/ })
          .click();
        await page.getByRole("searchbox", { name: "Search tasks" }).fill("onboarding");
        await page.getByRole("searchbox", { name: "Search tasks" }).press("Enter");
        await expect(page).toHaveURL(/\/search\?q=onboarding$/);
        await expect(page.getByRole("link", { name: /Draft the onboarding checklist/ })).toBeVisible();
      });

      test("two-factor pages fit the screen: an enrolment under way, and the code page", async ({
        page,
        backend,
        login,
      }, testInfo) => {
        const shots = phone.name === "390" ? `phone-${mode.js ? "js" : "nojs"}` : null;
        await login(await backend.createUser());
        await page.goto("/account/security");
        await page.getByRole("button", { name: "Set up an authenticator app" }).click();
        await expect(page.getByRole("img", { name: "QR code for the authenticator app" })).toBeVisible();
        expect(await sidewaysOverflow(page), "an enrolment under way scrolls sideways by").toBe(0);
        expect(await smallTargets(page), "an enrolment under way: controls under 44 × 44 px").toEqual([]);
        const enrolled = await backend.createUser();
        await enrolAuthenticator(backend, enrolled);
        await login(enrolled);
        for (const route of SECOND_FACTOR_ROUTES) {
          await checkPage(page, route, testInfo, shots);
          await expectHeaderMenuReaches(page, route.path);
        }
      });

      test("a task page shows the task first; the team's pages are one tap away", async ({ page, backend, login }) => {
        const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
        await login(team.owner);
        await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
        await expect(page.getByRole("heading", { name: /WEB-1 Reconcile quarterly invoices/ })).toBeInViewport({
          ratio: 1,
        });
        await expect(page.getByRole("link", { name: "Members" })).toBeHidden();

        await page.locator("summary", { hasText: "Team menu" }).click();
        await page.getByRole("link", { name: "Members" }).click();
        await expect(page).toHaveURL(new RegExp(`/teams/${team.slug}/members$`));
        await expect(page.getByRole("heading", { name: "Members" })).toBeInViewport();
        await expect(page.getByRole("link", { name: "Overview" })).toBeHidden(); // folded again on the new page
      });

      test("on a phone a task can be opened from the board, moved with its form, and discussed", async ({
        page,
        backend,
        login,
      }) => {
        const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
        await login(team.users.member);
        const board = `/teams/${team.slug}/projects/WEB`;
        await page.goto(board);
        await page.getByRole("link", { name: /WEB-1 Reconcile quarterly invoices/ }).click();
        await expect(page).toHaveURL(new RegExp(`${board}/tasks/1$`));
        const title = page.getByRole("heading", { name: /WEB-1 Reconcile quarterly invoices/ });
        await expect(title).toBeInViewport({ ratio: 1 });

        const panel = page.getByRole("complementary", { name: "Task" });
        await panel.getByLabel("Status", { exact: true }).selectOption("todo");
        await panel.getByLabel("Place in column", { exact: true }).fill("1");
        await panel.getByRole("button", { name: "Move", exact: true }).click();
        await expect(page.getByText("WEB-1 is in To do.")).toBeVisible();
        await expect(panel.getByLabel("Status", { exact: true })).toHaveValue("todo");

        await panel.getByLabel("Add a comment").fill("Checked from my phone.");
        await panel.getByRole("button", { name: "Post comment" }).click();
        await expect(panel.locator("li.comment", { hasText: "Checked from my phone." })).toBeVisible();
        await expect(panel.getByRole("heading", { name: "Comments (1)" })).toBeVisible();
        expect(await sidewaysOverflow(page)).toBe(0);

        await page.goto(board);
        await expect(page.locator('section[data-status="todo"] li[data-task-id]').first()).toContainText(
          "Reconcile quarterly invoices",
        );
      });
    });
  }
}
