import { expect, MODES, test } from "./fixtures";

// docs/product.md §5: rules are checked in the browser for comfort and on the
// server always. With JavaScript the wrong form never leaves the page; without
// it, the server answers 400 with the same message and the values kept.
for (const mode of MODES) {
  test.describe(`team form rules ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("a bad address is refused beside its field, the name kept", async ({ page, signUp, login }) => {
      const user = await signUp();
      await login(user);
      await page.goto("/teams/new");
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      await page.getByLabel("Team name").fill("Night Shift");
      await page.getByLabel("Address").fill("-bad-");
      // with JavaScript, the browser's check is on once the form's schema has arrived, fetched when someone
      // starts on the form (until then the server checks alone)
      if (mode.js) await expect(page.locator('form[data-checks="browser"]')).toBeVisible();
      await page.getByRole("button", { name: "Create team" }).click();

      const address = page.getByLabel("Address");
      await expect(address).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(/^An address has 3–40 characters/)).toBeVisible();
      await expect(page.getByLabel("Team name")).toHaveValue("Night Shift");
      await expect(address).toHaveValue("-bad-");
      if (mode.js) {
        await expect(address).toBeFocused();
        expect(posts).toEqual([]);
      } else {
        expect(posts.length).toBe(1);
      }
    });
  });
}
