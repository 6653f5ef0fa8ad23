import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { createLabels, expect, MODES, test, uniqueEmail } from "./fixtures";
import { addComments, inviteByEmail, seedTeam } from "./product-fixtures";
import {
  invitationRoute,
  LAYOUT_TASKS,
  SECOND_FACTOR_ROUTES,
  SIGNED_OUT_ROUTES,
  signedInRoutes,
  type RouteCase,
} from "./support/routes";
import { enrolAuthenticator } from "./support/two-factor";

/** WCAG 2.1 A and AA, and axe's best practices (landmarks, headings, unique names…). */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** axe-core's violations on the page as it is now, one line each, so a failure names the rule and the elements. */
async function axeViolations(page: Page): Promise<string[]> {
  // legacy mode runs axe in the page itself instead of opening a page per check (no iframes here to reach into)
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode().analyze();
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

/**
 * Each page in the light theme with every rule, then in the dark theme with
 * the one rule a theme can break (colour contrast): the page is drawn "as
 * the system" (no theme cookie), so switching the system's scheme switches
 * it in place, without loading the page again.
 */
async function expectNoViolations(page: Page, routes: RouteCase[]) {
  for (const route of routes) {
    const response = await page.goto(route.path);
    expect(response, route.path).not.toBeNull();
    await expect(page.locator("main").locator("h1:visible, h2:visible").first(), route.path).toBeVisible();
    expect(await axeViolations(page), `axe on ${route.path}`).toEqual([]);
    expect(await darkContrastViolations(page), `axe colour contrast on ${route.path}, dark`).toEqual([]);
  }
}

/** axe's colour-contrast rule with the system's scheme dark (the page as it is now otherwise). */
async function darkContrastViolations(page: Page): Promise<string[]> {
  await page.emulateMedia({ colorScheme: "dark" });
  try {
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(DARK_BG);
    const { violations } = await new AxeBuilder({ page }).withRules(["color-contrast"]).setLegacyMode().analyze();
    return violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} ${n.failureSummary}`).join(", ")}`,
    );
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
  }
}

/** the dark theme's page background (app/styles/dark.css) */
const DARK_BG = "rgb(18, 21, 28)";

/**
 * Whether Chromium's own accessibility tree (what a screen reader gets, not
 * Playwright's computed roles) has an element with this role and name.
 */
async function inAccessibilityTree(page: Page, role: string, name: string) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
    nodes: Array<{ ignored: boolean; role?: { value: string }; name?: { value: string } }>;
  };
  await cdp.detach();
  return nodes.some((node) => !node.ignored && node.role?.value === role && node.name?.value === name);
}

test("the header and team navigation reach screen readers on a desktop, and on a phone while their menus are open", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend);
  await login(team.owner);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/teams/${team.slug}`);
  for (const [role, name] of [
    ["navigation", "Main"],
    ["link", "Teams"],
    ["searchbox", "Search tasks"],
    ["button", "Log out"],
    ["link", "Members"],
  ]) {
    expect(await inAccessibilityTree(page, role, name), `desktop: ${role} "${name}"`).toBe(true);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await inAccessibilityTree(page, "button", "Log out"), "phone, menu closed").toBe(false);
  expect(await inAccessibilityTree(page, "link", "Members"), "phone, team menu closed").toBe(false);
  await page.locator("summary", { hasText: /^Menu$/ }).click();
  await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
  expect(await inAccessibilityTree(page, "button", "Log out"), "phone, menu open").toBe(true);
  expect(await inAccessibilityTree(page, "searchbox", "Search tasks"), "phone, menu open").toBe(true);
  await page.locator("summary", { hasText: /^Menu$/ }).click();
  await page.locator("summary", { hasText: "Team menu" }).click();
  await expect(page.getByRole("link", { name: "Members" })).toBeVisible();
  expect(await inAccessibilityTree(page, "link", "Members"), "phone, team menu open").toBe(true);
});

const SIZES = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

for (const size of SIZES) {
  test.describe(`axe-core, ${size.name} (${size.viewport.width} × ${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport });

    test("signed-out pages have no violations", async ({ page, backend }) => {
      test.slow(); // eight pages, each checked by axe
      const team = await seedTeam(backend);
      const invitation = await inviteByEmail(backend, team, uniqueEmail("invited"));
      await expectNoViolations(page, [...SIGNED_OUT_ROUTES, invitationRoute(invitation)]);
    });

    test("signed-in pages have no violations, and none with the menus open", async ({ page, backend, login }) => {
      test.slow(); // twenty pages, each checked by axe: beyond one page's 60 s on a busy machine
      const team = await seedTeam(backend, { tasks: LAYOUT_TASKS });
      await addComments(backend, team.tasks[0].id, team.users.member, 2);
      const invitation = await inviteByEmail(backend, team, uniqueEmail("invited"));
      await login(team.owner);
      const routes = signedInRoutes(team);
      await expectNoViolations(page, [...routes, invitationRoute(invitation, { signedIn: true })]);

      if (size.name === "phone") {
        // the folded header and team menus, each open
        await page.goto(routes.find((r) => r.name === "board")!.path);
        const menu = page.locator("summary", { hasText: /^Menu$/ });
        await menu.click();
        await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
        expect(await axeViolations(page), "axe with the header's menu open").toEqual([]);
        expect(await darkContrastViolations(page), "dark, the header's menu open").toEqual([]);
        await menu.click();
        await page.locator("summary", { hasText: "Team menu" }).click();
        await expect(page.getByRole("link", { name: "Members" })).toBeVisible();
        expect(await axeViolations(page), "axe with the team menu open").toEqual([]);
        await page.locator("summary", { hasText: "Team menu" }).click();

        // the board's folded filters open, and a card's move menu (with JavaScript)
        await page.locator("summary", { hasText: "Filters" }).click();
        await expect(page.getByLabel("Label", { exact: true })).toBeVisible();
        expect(await axeViolations(page), "axe with the filters open").toEqual([]);
        await page.locator("summary", { hasText: "Filters" }).click();
        await page.getByRole("button", { name: "Move WEB-1" }).click();
        await expect(page.getByRole("group", { name: "Move WEB-1" })).toBeVisible();
        expect(await axeViolations(page), "axe with a card's move menu open").toEqual([]);
        expect(await darkContrastViolations(page), "dark, a card's move menu open").toEqual([]);
      }
    });

    test("two-factor pages have no violations: an enrolment under way, and the code page", async ({
      page,
      backend,
      login,
    }) => {
      const user = await backend.createUser();
      await login(user);
      await page.goto("/account/security");
      await page.getByRole("button", { name: "Set up an authenticator app" }).click();
      await expect(page.getByRole("img", { name: "QR code for the authenticator app" })).toBeVisible();
      expect(await axeViolations(page), "axe with an enrolment under way").toEqual([]);
      expect(await darkContrastViolations(page), "dark, an enrolment under way").toEqual([]);

      const enrolled = await backend.createUser();
      await enrolAuthenticator(backend, enrolled);
      await login(enrolled);
      await expectNoViolations(page, SECOND_FACTOR_ROUTES);
    });
  });
}

/**
 * Sends a form. Without JavaScript it is a plain POST, and a rejected one
 * comes back as the server's 400 page (which focuses the first error with
 * `autofocus`); with it, the browser's check or the action's answer does.
 */
async function submitRejected(page: Page, button: Locator, js: boolean) {
  if (js) return button.click();
  const response = page.waitForResponse((r) => r.request().method() === "POST");
  await button.click();
  expect((await response).status()).toBe(400);
}

/** A wrong field as a screen reader presents it: invalid, described by its message and nothing else. */
async function expectInvalid(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const escaped = message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(field).toHaveAccessibleDescription(new RegExp(`^${escaped}$`));
}

for (const mode of MODES) {
  test.describe(`form errors ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("log in: a malformed email is marked, and focus goes to it", async ({ page }) => {
      await page.goto("/login");
      await page.getByLabel("Email").first().fill("ada@example");
      await page.getByLabel("Password").fill("whatever-1");
      await submitRejected(page, page.getByRole("button", { name: "Log in", exact: true }), mode.js);
      const email = page.getByLabel("Email").first();
      await expectInvalid(email, "Enter a valid email address, like name@example.com.");
      await expect(email).toHaveValue("ada@example");
      await expect(email).toBeFocused();
    });

    test("log in: a wrong password shows an alert the form points at, and focus goes to it", async ({
      page,
      signUp,
    }) => {
      const user = await signUp();
      await page.goto("/login");
      await page.getByLabel("Email").first().fill(user.email);
      await page.getByLabel("Password").fill("not-the-password-9");
      await submitRejected(page, page.getByRole("button", { name: "Log in", exact: true }), mode.js);
      const alert = page.getByRole("alert");
      await expect(alert).toHaveText("Email or password is incorrect.");
      await expect(page.locator("form", { has: page.getByLabel("Password") })).toHaveAccessibleDescription(
        "Email or password is incorrect.",
      );
      await expect(alert).toBeFocused();
    });

    test("forgot password: a malformed email is marked, and focus goes to it", async ({ page }) => {
      await page.goto("/forgot-password");
      await page.getByLabel("Email").fill("nobody@");
      await submitRejected(page, page.getByRole("button", { name: "Send the link" }), mode.js);
      const email = page.getByLabel("Email");
      await expectInvalid(email, "Enter a valid email address, like name@example.com.");
      await expect(email).toBeFocused();
    });

    test("password change: focus goes to the first wrong field, not the first field", async ({
      page,
      signUp,
      login,
    }) => {
      await login(await signUp());
      await page.goto("/account/password");
      await page.getByLabel("New password", { exact: true }).fill("letters-and-9");
      await page.getByLabel("New password, again").fill("letters-and-8");
      await submitRejected(page, page.getByRole("button", { name: "Change password" }), mode.js);
      const confirm = page.getByLabel("New password, again");
      await expectInvalid(confirm, "The two passwords don't match.");
      await expect(page.getByLabel("New password", { exact: true })).not.toHaveAttribute("aria-invalid");
      await expect(confirm).toBeFocused();
    });

    test("task edit: two wrong fields open one summary on top of the form, focused and in view", async ({
      page,
      backend,
      login,
    }) => {
      const long = Array.from({ length: 20 }, (_, i) => `Step ${i + 1} of the plan.`).join("\n\n");
      const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite", description: long }] });
      await login(team.users.member);
      await page.setViewportSize({ width: 1280, height: 600 });
      await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1?edit=task`);
      const form = page.getByRole("form", { name: "Edit task" });
      await form.getByLabel("Title", { exact: true }).fill(" ");
      const eleven = "a b c d e f g h i j k".split(" ");
      await createLabels(form, eleven, mode.js);
      await form.getByRole("button", { name: "Save changes" }).scrollIntoViewIfNeeded();
      await submitRejected(page, form.getByRole("button", { name: "Save changes" }), mode.js);

      const summary = form.getByRole("alert");
      await expect(summary).toHaveCount(1);
      await expect(summary).toContainText("There is a problem");
      await expect(summary).toBeFocused();
      await expect(summary).toBeInViewport();
      await expect(summary.getByRole("link")).toHaveText(["Enter a title.", "A task has at most 10 labels."]);
      await expectInvalid(form.getByLabel("Title", { exact: true }), "Enter a title.");
      if (mode.js) await expect(form.getByRole("checkbox", { name: "k", exact: true })).toBeChecked();
      else await expect(form.getByLabel("New labels", { exact: true })).toHaveValue(eleven.join(", "));
    });

    test("email change: the server's own check (same address) is marked, and focus goes to it", async ({
      page,
      signUp,
      login,
    }) => {
      const user = await signUp();
      await login(user);
      await page.goto("/account/email");
      await page.getByLabel("New email address").fill("not-an-email");
      await submitRejected(page, page.getByRole("button", { name: "Change email" }), mode.js);
      const email = page.getByLabel("New email address");
      await expectInvalid(email, "Enter a valid email address, like name@example.com.");
      await expect(email).toBeFocused();

      // passes the browser's check, rejected by the server: focus follows the server's answer too
      await email.fill(user.email.toUpperCase());
      await submitRejected(page, page.getByRole("button", { name: "Change email" }), mode.js);
      await expectInvalid(page.getByLabel("New email address"), "That is already your email address.");
      await expect(page.getByLabel("New email address")).toBeFocused();
    });
  });

  test.describe(`keyboard only ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("log in, reach the account pages and log out with Tab and Enter, with a visible focus ring", async ({
      page,
      signUp,
    }) => {
      const user = await signUp();
      await page.goto("/login");
      await page.keyboard.press("Tab");
      const skipLink = page.getByRole("link", { name: "Skip to content" });
      await expectVisibleFocus(skipLink);
      await expect(skipLink).toBeInViewport();

      const email = page.getByLabel("Email").first();
      await pressUntilFocused(page, email, "Tab");
      await expectVisibleFocus(email);
      await page.keyboard.type(user.email);
      await page.keyboard.press("Tab");
      const password = page.getByLabel("Password");
      await expectVisibleFocus(password);
      await page.keyboard.type(user.password);
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: "Your teams" })).toBeVisible();

      const accountLink = page.getByRole("link", { name: user.displayName });
      await pressUntilFocused(page, accountLink, "Shift+Tab");
      await expectVisibleFocus(accountLink);
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();

      const passwordSection = page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Password" });
      await pressUntilFocused(page, passwordSection, "Tab");
      await expectVisibleFocus(passwordSection);
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: "Password" })).toBeVisible();

      const logOut = page.getByRole("button", { name: "Log out" });
      await pressUntilFocused(page, logOut, "Shift+Tab");
      await expectVisibleFocus(logOut);
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("heading", { name: "Log in", exact: true })).toBeVisible();
    });
  });
}

/** Presses the key the way a keyboard user would until `target` has focus (fails if it never does). */
async function pressUntilFocused(page: Page, target: Locator, key: "Tab" | "Shift+Tab") {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < 40; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${target.toString()} can't be reached with ${key}`);
}

/** Focus is on `target`, it shows as keyboard focus, and the page draws a ring for it. */
async function expectVisibleFocus(target: Locator) {
  await expect(target).toBeFocused();
  const style = await target.evaluate((element) => {
    const computed = getComputedStyle(element);
    return {
      focusVisible: element.matches(":focus-visible"),
      outline: computed.outlineStyle,
      boxShadow: computed.boxShadow,
    };
  });
  expect(style.focusVisible).toBe(true);
  expect(style.outline !== "none" || style.boxShadow !== "none", JSON.stringify(style)).toBe(true);
}
