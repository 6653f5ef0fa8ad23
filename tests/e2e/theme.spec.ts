import type { Browser, Page } from "@playwright/test";
import { expect, MODES, test } from "./fixtures";

/**
 * The theme (docs/product.md §13): chosen on /account, kept in a cookie and
 * in the account, drawn from the first HTML, so no page ever shows the other
 * theme first, with or without JavaScript. Contrast in both themes is the
 * a11y sweep's (a11y.spec.ts).
 */
const LIGHT_BG = "rgb(246, 247, 251)";
const DARK_BG = "rgb(18, 21, 28)";

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

for (const mode of MODES) {
  test.describe(`theme ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("Dark, chosen on /account, draws every page dark, after logging out too, and on another device", async ({
      page,
      browser,
      backend,
      signUp,
      login,
    }) => {
      const user = await signUp();
      await login(user);
      await page.goto("/account");
      expect(await background(page)).toBe(LIGHT_BG);
      await page.getByLabel("Theme").selectOption({ label: "Dark" });
      await page.getByRole("button", { name: "Save theme" }).click();
      await expect(page.getByText("Your theme is saved: dark.")).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
      expect(await background(page)).toBe(DARK_BG);
      await expect(page.getByLabel("Theme")).toHaveValue("dark");

      await page.goto("/teams");
      expect(await background(page)).toBe(DARK_BG);
      await page.getByRole("button", { name: "Log out" }).click();
      await expect(page).toHaveURL(/\/login$/);
      expect(await background(page)).toBe(DARK_BG);

      // the account keeps it: a browser that never saw the cookie signs in and gets it
      const profile = await backend.admin().from("profiles").select("theme").eq("id", user.id).single();
      expect(profile.data).toEqual({ theme: "dark" });
      const other = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      await login(user, other);
      const otherPage = await other.newPage();
      await otherPage.goto("/teams");
      expect(await background(otherPage)).toBe(DARK_BG);
      expect((await other.cookies()).find((c) => c.name === "tb_theme")?.value).toBe("dark");
      await other.close();
    });
  });
}

/**
 * Every frame Chromium draws while `page` goes to `path`, as the colour of
 * one pixel of the page's own background (bottom left, below the content).
 * It starts on a red page of the same origin (so the browser holds that
 * paint until the new page's first one), and the app's page has no
 * JavaScript: what is drawn first is what the first HTML and its
 * stylesheets say.
 */
async function paintedBackgrounds(browser: Browser, page: Page, path: string) {
  await page.route("**/__red", (route) =>
    route.fulfill({ contentType: "text/html", body: '<body style="background: rgb(255, 0, 0)"></body>' }),
  );
  await page.goto("/__red");
  const cdp = await page.context().newCDPSession(page);
  const frames: string[] = [];
  cdp.on("Page.screencastFrame", (frame) => {
    frames.push(frame.data);
    void cdp.send("Page.screencastFrameAck", { sessionId: frame.sessionId }).catch(() => {});
  });
  await cdp.send("Page.startScreencast", { format: "png", everyNthFrame: 1 });
  const response = await page.goto(path);
  // the page is still; give the screencast a moment to deliver its last frames
  await page.waitForTimeout(300);
  await cdp.send("Page.stopScreencast");
  await cdp.detach();

  // PNG frames decoded by a page that may run script
  const decoder = await browser.newPage();
  const colours: string[] = [];
  for (const data of frames) {
    colours.push(
      await decoder.evaluate(async (png) => {
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext("2d")!;
        context.drawImage(image, 0, 0);
        const [r, g, b] = context.getImageData(2, image.height - 3, 1, 1).data;
        return `rgb(${r}, ${g}, ${b})`;
      }, data),
    );
  }
  await decoder.close();
  return { html: await response!.text(), colours: colours.filter((c) => c !== "rgb(255, 0, 0)") };
}

test.describe("the first HTML and the first paint", () => {
  test.use({ javaScriptEnabled: false });

  for (const { cookie, system, expected } of [
    { cookie: "dark", system: "light", expected: DARK_BG },
    { cookie: "system", system: "dark", expected: DARK_BG },
    { cookie: "light", system: "dark", expected: LIGHT_BG },
  ] as const) {
    test(`theme cookie "${cookie}" on a ${system} system: the first paint is ${expected === DARK_BG ? "dark" : "light"}`, async ({
      browser,
      page,
      backend,
    }) => {
      await page.emulateMedia({ colorScheme: system });
      await page.context().addCookies([{ name: "tb_theme", value: cookie, url: backend.env.appUrl }]);
      const { html, colours } = await paintedBackgrounds(browser, page, "/login");
      expect(html).toContain(`<html lang="en" data-theme="${cookie}">`);
      expect(colours.length, "frames drawn after leaving the red page").toBeGreaterThan(0);
      expect(colours[0], "the first paint").toBe(expected);
      expect([...new Set(colours)], "every frame").toEqual([expected]);
    });
  }
});
