import type { Locator, Page, TestInfo } from "@playwright/test";
import { expect, MODES, test, uniqueEmail } from "./fixtures";
import { addComments, inviteByEmail, seedTeam, STATUS_NAME, type SeedStatus } from "./product-fixtures";
import {
  invitationRoute,
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
 * menu reaches search and "Log out". Screenshots of the main pages, in the
 * light and the dark theme, are kept in test-results/ for people to look at
 * (not compared; a11y.spec checks both themes' contrast).
 */
const PHONES = [
  { name: "390", viewport: { width: 390, height: 844 } },
  { name: "360", viewport: { width: 360, height: 740 } },
] as const;

/** One of the board's columns. */
const column = (page: Page, status: SeedStatus) => page.locator(`section[data-status-name="${STATUS_NAME[status]}"]`);
/** A column's status id: what its heading's anchor (#column-<id>) names. */
const statusIdOf = async (page: Page, status: SeedStatus) => (await column(page, status).getAttribute("data-status"))!;

/** Whether the element lies across the screen's width (inside the board's scroller: the column shown). */
async function acrossTheScreen(page: Page, target: Locator) {
  const box = await target.boundingBox();
  const width = page.viewportSize()!.width;
  return !!box && box.x >= -1 && box.x + box.width <= width + 1;
}

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
  if (route.screenshot && shotPrefix) {
    await page.screenshot({ path: testInfo.outputPath(`${shotPrefix}-${route.name}.png`), fullPage: true });
    // and in the dark theme (the page is drawn "as the system": no theme cookie)
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: testInfo.outputPath(`${shotPrefix}-${route.name}-dark.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
  }
}

/** The folded header menu: its button, then search and "Log out" on screen; closed again afterwards. */
async function expectHeaderMenuReaches(page: Page, path: string) {
  const menu = page.getByRole("banner").locator("summary", { hasText: /^Menu$/ });
  await menu.click();
  await expect(page.getByRole("searchbox", { name: "Search tasks" }), path).toBeInViewport({ ratio: 1 });
  // the header's own (an invitation opened by someone else offers one too)
  const logOut = page.getByRole("banner").getByRole("button", { name: "Log out" });
  await expect(logOut, path).toBeInViewport({ ratio: 1 });
  expect(await sidewaysOverflow(page), `${path} with the menu open scrolls sideways by`).toBe(0);
  await menu.click();
  await expect(logOut).toBeHidden();
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
        test.slow(); // every page of the app, twice signed in (the page and its header menu)
        const shots = phone.name === "390" ? `phone-${mode.js ? "js" : "nojs"}` : null;
        const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
        await addComments(backend, team.tasks[0].id, team.users.member, 2);
        const invitation = await inviteByEmail(backend, team, uniqueEmail("invited"));
        for (const route of [...SIGNED_OUT_ROUTES, invitationRoute(invitation)])
          await checkPage(page, route, testInfo, shots);

        await login(team.owner);
        for (const route of [...signedInRoutes(team), invitationRoute(invitation, { signedIn: true })]) {
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
          // not signed in all the way yet: the header offers Log out alone, no menu or search
          const header = page.getByRole("banner");
          await expect(header.getByRole("button", { name: "Log out" }), route.path).toBeInViewport({ ratio: 1 });
          await expect(header.getByRole("searchbox"), route.path).toHaveCount(0);
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
        await panel.getByLabel("Status", { exact: true }).selectOption({ label: "To do" });
        await panel.locator("summary", { hasText: "Place in column" }).click();
        await panel.getByLabel("Place in column", { exact: true }).fill("1");
        await panel.getByRole("button", { name: "Move", exact: true }).click();
        await expect(page.getByText("WEB-1 is in To do.")).toBeVisible();
        await expect(panel.getByLabel("Status", { exact: true }).locator("option:checked")).toHaveText("To do (now)");

        await panel.getByLabel("Add a comment").fill("Checked from my phone.");
        await panel.getByRole("button", { name: "Post comment" }).click();
        await expect(panel.locator("li.comment", { hasText: "Checked from my phone." })).toBeVisible();
        await expect(panel.getByRole("heading", { name: "Activity · 1 comment" })).toBeVisible();
        expect(await sidewaysOverflow(page)).toBe(0);

        // back to the board, on the task's new column
        const back = page.getByRole("link", { name: "Back to the board" });
        await expect(back).toBeVisible();
        await back.click();
        await expect(page).toHaveURL(new RegExp(`${board}#column-${await statusIdOf(page, "todo")}$`));
        const moved = column(page, "todo").locator("li[data-task-id]").first();
        await expect(moved).toContainText("Reconcile quarterly invoices");
        await expect.poll(() => acrossTheScreen(page, column(page, "todo"))).toBe(true);
        expect(await sidewaysOverflow(page)).toBe(0);
      });

      test("the board's column switcher lists every column with its count and brings each on screen", async ({
        page,
        backend,
        login,
      }) => {
        const team = await seedTeam(backend, { tasks: [...LAYOUT_TASKS, { title: "Order the banners" }] });
        await login(team.users.member);
        await page.goto(`/teams/${team.slug}/projects/WEB`);
        const switcher = page.getByRole("navigation", { name: "Columns" });
        await expect(switcher).toBeInViewport();
        await expect(switcher.getByRole("link")).toHaveText([
          "Backlog 2 tasks",
          "To do 1 task",
          "In progress 1 task",
          "Done 1 task",
          "Canceled 1 task",
        ]);
        await expect.poll(() => acrossTheScreen(page, column(page, "backlog"))).toBe(true);
        expect(await acrossTheScreen(page, column(page, "done"))).toBe(false);

        for (const [name, status] of [
          ["Done", "done"],
          ["Canceled", "canceled"],
          ["To do", "todo"],
        ] as const) {
          const link = switcher.getByRole("link", { name: new RegExp(`^${name} \\d`) });
          await link.click();
          await expect.poll(() => acrossTheScreen(page, column(page, status)), name).toBe(true);
          expect(await acrossTheScreen(page, column(page, "backlog")), `${name}: backlog still on screen`).toBe(false);
          await expect(switcher, `${name}: the switcher stays on screen`).toBeInViewport();
          // with JavaScript the entry of the column on screen is marked; without, the address points at it
          if (mode.js) await expect(link).toHaveAttribute("aria-current", "true");
          else await expect(page).toHaveURL(new RegExp(`#column-${await statusIdOf(page, status)}$`));
          expect(await sidewaysOverflow(page)).toBe(0);
        }
      });

      test("a board of 12 columns fits the phone too: its switcher scrolls within itself", async ({
        page,
        backend,
        login,
      }) => {
        const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
        await backend
          .admin()
          .from("project_statuses")
          .insert(
            Array.from({ length: 7 }, (_, i) => ({
              project_id: team.project.id,
              name: `Step ${i + 1} of a long process`,
              category: "started",
              color: "teal",
            })) as never,
          );
        await login(team.users.member);
        await page.goto(`/teams/${team.slug}/projects/WEB`);
        const switcher = page.getByRole("navigation", { name: "Columns" });
        await expect(switcher.getByRole("link")).toHaveCount(12);
        expect(await sidewaysOverflow(page)).toBe(0);
        const last = switcher.getByRole("link", { name: /^Step 7 of a long process/ });
        await last.click();
        await expect
          .poll(() => acrossTheScreen(page, page.locator('section[data-status-name="Step 7 of a long process"]')))
          .toBe(true);
        expect(await sidewaysOverflow(page)).toBe(0);
      });

      test("the board's filters fold behind a button; the task's way back keeps them", async ({
        page,
        backend,
        login,
      }) => {
        const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
        await login(team.users.member);
        const board = `/teams/${team.slug}/projects/WEB`;
        await page.goto(board);
        const label = page.getByLabel("Label", { exact: true });
        await expect(label).toBeHidden();
        const filters = page.locator("summary", { hasText: "Filters" });
        await expect(filters).toHaveText("Filters");
        await filters.click();
        await label.fill("finance");
        await page.getByRole("button", { name: "Filter", exact: true }).click();
        await expect(page).toHaveURL(/[?&]label=finance(&|$)/);
        await expect(filters).toHaveText(/^Filters\s*1 on$/);
        await expect(label).toBeHidden();
        await expect(page.getByRole("navigation", { name: "Columns" }).getByRole("link")).toHaveText([
          "Backlog 1 task",
          "To do 0 tasks",
          "In progress 0 tasks",
          "Done 0 tasks",
          "Canceled 0 tasks",
        ]);

        await page.getByRole("link", { name: /WEB-1 Reconcile quarterly invoices/ }).click();
        await expect(page.getByRole("heading", { name: /WEB-1 Reconcile quarterly invoices/ })).toBeInViewport({
          ratio: 1,
        });
        const back = page.getByRole("link", { name: "Back to the board" });
        await expect(back).toBeInViewport({ ratio: 1 });
        await back.click();
        await expect(page).toHaveURL(
          new RegExp(`${board}\\?label=finance#column-${await statusIdOf(page, "backlog")}$`),
        );
        await expect(filters).toHaveText(/^Filters\s*1 on$/);
        await expect(column(page, "backlog").locator("li[data-task-id]")).toHaveCount(1);
        expect(await sidewaysOverflow(page)).toBe(0);
      });
    });
  }
}

test.describe("phone 390 px with JavaScript, by touch", () => {
  test.use({ viewport: PHONES[0].viewport, isMobile: true, hasTouch: true });

  test("a card's ⠿ button, tapped, opens a menu of where it can go; a finger never drags a card", async ({
    page,
    backend,
    login,
  }) => {
    const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
    await login(team.users.member);
    await page.goto(`/teams/${team.slug}/projects/WEB`);
    const handle = page.getByRole("button", { name: "Move WEB-1" });
    await handle.tap();
    await expect(handle).toHaveAttribute("aria-expanded", "true");
    await expect(handle).toHaveAttribute("aria-pressed", "false"); // not picked up for the arrow keys
    const menu = page.getByRole("group", { name: "Move WEB-1" });
    // from the backlog: any other column, in the board's order; it is alone in its column, so no up or down
    await expect(menu.getByRole("button")).toHaveText(["To do", "In progress", "Done", "Canceled", "Cancel"]);
    await menu.getByRole("button", { name: "To do" }).tap();
    await expect(page.locator("[data-board-announcer]")).toHaveText("Moved WEB-1 to To do.");
    await expect(column(page, "todo").locator("li[data-task-id]")).toHaveText([
      /Reconcile quarterly invoices/,
      /Draft the onboarding checklist/,
    ]);
    // the board followed the card to its new column
    await expect.poll(() => acrossTheScreen(page, column(page, "todo"))).toBe(true);
    await expect(
      page.getByRole("navigation", { name: "Columns" }).getByRole("link", { name: /^To do \d/ }),
    ).toHaveAttribute("aria-current", "true");

    await handle.tap();
    await expect(menu.getByRole("button")).toHaveText([
      "Backlog",
      "In progress",
      "Done",
      "Canceled",
      "Down one place",
      "Cancel",
    ]);
    await menu.getByRole("button", { name: "Down one place" }).tap();
    await expect(column(page, "todo").locator("li[data-task-id]")).toHaveText([
      /Draft the onboarding checklist/,
      /Reconcile quarterly invoices/,
    ]);
    await handle.tap();
    await menu.getByRole("button", { name: "Cancel", exact: true }).tap();
    await expect(menu).toHaveCount(0);
    await expect(handle).toHaveAttribute("aria-expanded", "false");

    // A drag that starts from a finger is refused (the board scrolls instead); one from a mouse isn't.
    const dragRefused = (pointerType: string) =>
      page.locator('section[data-status-name="In progress"] li[data-task-id]').evaluate((card, type) => {
        card.dispatchEvent(new PointerEvent("pointerdown", { pointerType: type, bubbles: true }));
        const drag = new DragEvent("dragstart", { bubbles: true, cancelable: true, dataTransfer: new DataTransfer() });
        card.dispatchEvent(drag);
        card.dispatchEvent(new DragEvent("dragend", { bubbles: true }));
        return drag.defaultPrevented;
      }, pointerType);
    expect(await dragRefused("touch")).toBe(true);
    expect(await dragRefused("mouse")).toBe(false);

    await page.reload();
    await expect(column(page, "todo").locator("li[data-task-id]")).toHaveText([
      /Draft the onboarding checklist/,
      /Reconcile quarterly invoices/,
    ]);
  });
});

test.describe("phone 390 px with JavaScript, folded menus by touch", () => {
  test.use({ viewport: PHONES[0].viewport, isMobile: true, hasTouch: true });

  test("with a folded menu open, a tap on a link below it follows that link, and the menu folds", async ({
    page,
    backend,
    login,
  }) => {
    const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
    await login(team.owner);
    const board = `/teams/${team.slug}/projects/${team.project.key}`;
    for (const fold of [
      { summary: page.getByRole("banner").locator("summary", { hasText: /^Menu$/ }), shown: "Log out" },
      { summary: page.locator("summary", { hasText: "Filters" }), shown: "Filter" },
    ]) {
      await page.goto(board);
      // hydrated: the fold closes on a tap outside it only with JavaScript
      await expect(page.getByRole("button", { name: "Move WEB-1" })).toBeVisible();
      await fold.summary.tap();
      await expect(page.getByRole("button", { name: fold.shown, exact: true })).toBeVisible();
      // the open fold pushes the card down; folding it on the finger's touch would move the card away from under it
      await page.getByRole("link", { name: /^WEB-1 Reconcile quarterly invoices/ }).tap();
      await expect(page).toHaveURL(new RegExp(`${board}/tasks/1$`));
      await expect(page.getByRole("button", { name: fold.shown, exact: true })).toBeHidden();
    }
  });
});

test.describe("phone 390 px with JavaScript, while the page hydrates", () => {
  test.use({ viewport: PHONES[0].viewport, isMobile: true, hasTouch: true });

  test("the board doesn't shift when its move buttons and hint arrive", async ({ page, backend, login }) => {
    // Lighthouse's layout shift (issue 16: CLS ≤ 0.02): the hint and the ⠿ buttons came only with hydration
    const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
    await login(team.users.member);
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
          if (!entry.hadRecentInput) w.shifts += entry.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(`/teams/${team.slug}/projects/WEB`);
    await expect(page.getByRole("button", { name: "Move WEB-1" })).toBeVisible();
    // on a phone the hint is behind "?" (issue 42 §10), which is in the first HTML too
    await expect(page.getByTitle("How to move cards")).toBeVisible();
    // two frames after hydration: every shift has been laid out and reported
    const shifts = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => setTimeout(() => resolve((window as unknown as { shifts: number }).shifts))),
          ),
        ),
    );
    expect(shifts).toBeLessThanOrEqual(0.02);
  });
});

for (const mode of MODES) {
  test.describe(`new task on a phone ${mode.name}`, () => {
    test.use({ viewport: PHONES[0].viewport, isMobile: true, hasTouch: true, javaScriptEnabled: mode.js });

    test("the new-task page is as wide as a task's panel and has its way back to the board", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Reconcile quarterly invoices" }] });
      await login(team.owner);
      await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
      const taskPanel = await page.getByRole("complementary", { name: "Task" }).boundingBox();
      await page.goto(`/teams/${team.slug}/projects/WEB/tasks/new`);
      const panel = page.getByRole("complementary", { name: "Task" });
      await expect(panel.getByRole("heading", { name: "New task" })).toBeVisible();
      const newTask = await panel.boundingBox();
      expect(newTask!.width).toBe(taskPanel!.width);
      expect(newTask!.width).toBeGreaterThan(PHONES[0].viewport.width * 0.9);
      await panel.getByRole("link", { name: "Back to the board" }).click();
      await expect(page).toHaveURL(new RegExp(`/teams/${team.slug}/projects/WEB$`));
      await expect(page.getByRole("link", { name: "New task" })).toBeVisible();
    });
  });
}

for (const mode of MODES) {
  test.describe(`laptop 1280 px ${mode.name}`, () => {
    test.use({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: mode.js });

    test("the board shows all five columns, four beside an open task; archiving is in the project's settings", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Reconcile quarterly invoices" }] });
      await login(team.owner);
      const board = `/teams/${team.slug}/projects/WEB`;
      const columns = page.locator("section.board-column");
      /** columns whose whole width is on screen, left of `right` */
      const wholeColumns = async (right: number) => {
        let seen = 0;
        for (const column of await columns.all()) {
          const box = (await column.boundingBox())!;
          if (box.x >= 0 && box.x + box.width <= right) seen++;
        }
        return seen;
      };
      await page.goto(board);
      await expect(columns).toHaveCount(5);
      expect(await wholeColumns(1280), "columns wholly on screen").toBe(5);
      // the team's sidebar folds into its bar on a board (issue 42), so a card's title takes at most two lines
      await expect(page.getByRole("link", { name: "Members" })).toBeHidden();
      const title = page.locator("li[data-task-id]").first().getByText("Reconcile quarterly invoices");
      const lines = await title.evaluate((el) => el.getClientRects().length);
      expect(lines, "lines of a card's title").toBeLessThanOrEqual(2);
      await page.locator("summary", { hasText: "Team menu" }).click();
      await expect(page.getByRole("link", { name: "Members" })).toBeVisible();
      await page.locator("summary", { hasText: "Team menu" }).click();
      await expect(page.getByRole("button", { name: "Archive project" })).toBeHidden();

      await page.goto(`${board}/tasks/1`);
      const panel = page.getByRole("complementary", { name: "Task" });
      await expect(panel.getByRole("heading", { name: /WEB-1/ })).toBeVisible();
      const panelLeft = (await panel.boundingBox())!.x;
      expect(await wholeColumns(panelLeft), "columns wholly beside the open task").toBeGreaterThanOrEqual(4);
      // the header's actions end before the panel begins; archiving is on the project's settings page
      const settings = (await page.getByRole("link", { name: "Project settings" }).boundingBox())!;
      expect(settings.x + settings.width).toBeLessThanOrEqual(panelLeft);
      await expect(page.getByRole("button", { name: "Archive project" })).toHaveCount(0);
      await page.getByRole("link", { name: "Project settings" }).click();
      await expect(page.getByRole("button", { name: "Archive project" })).toBeVisible();
    });
  });
}
