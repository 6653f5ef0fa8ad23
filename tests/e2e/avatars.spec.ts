import { expect, MODES, test } from "./fixtures";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

for (const mode of MODES) {
  test.describe(`avatars ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("upload, refusals that keep what was typed, and removal", async ({ page, signUp, login, backend }) => {
      const user = await signUp({ displayName: "Ava Tar" });
      await login(user);
      const files = async () =>
        (await backend.admin().storage.from("avatars").list(user.id)).data?.map((f) => f.name) ?? [];
      await page.goto("/account");
      const header = page.getByRole("navigation", { name: "Main" });
      await expect(header.locator("[data-avatar=initials]")).toHaveText("AT");

      // wrong type: the message, the typed name kept, nothing stored
      await page.getByLabel("Display name").fill("Ava Tarr");
      await page
        .getByLabel("New avatar")
        .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
      await page.getByRole("button", { name: "Save profile" }).click();
      await expect(page.getByText("Avatars must be PNG, JPEG, WebP or GIF.")).toBeVisible();
      await expect(page.getByLabel("Display name")).toHaveValue("Ava Tarr");
      // too large
      await page
        .getByLabel("New avatar")
        .setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
      await page.getByRole("button", { name: "Save profile" }).click();
      await expect(page.getByText("The avatar is larger than 2 MB.")).toBeVisible();
      await expect(page.getByLabel("Display name")).toHaveValue("Ava Tarr");
      // a text file renamed .png: the browser says image/png, its bytes say otherwise
      await page
        .getByLabel("New avatar")
        .setInputFiles({ name: "fake-image.png", mimeType: "image/png", buffer: Buffer.from("not a picture") });
      await page.getByRole("button", { name: "Save profile" }).click();
      await expect(page.getByText("Avatars must be PNG, JPEG, WebP or GIF.")).toBeVisible();
      await expect(page.getByText("The avatar is larger than 2 MB.")).toHaveCount(0);
      await expect(page.getByLabel("Display name")).toHaveValue("Ava Tarr");
      expect(await files()).toEqual([]);

      await page.getByLabel("New avatar").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("button", { name: "Save profile" }).click();
      await expect(page.getByText("Your profile is saved.")).toBeVisible();
      const image = header.locator("img[data-avatar=image]");
      await expect(image).toBeVisible();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      await expect(header.getByRole("link", { name: "Ava Tarr" })).toBeVisible();
      expect(await files()).toHaveLength(1);

      // a second upload replaces the first; the old file is removed
      await page.getByLabel("New avatar").setInputFiles({ name: "again.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("button", { name: "Save profile" }).click();
      await expect(page.getByText("Your profile is saved.")).toBeVisible();
      await expect.poll(files).toHaveLength(1);

      await page.getByRole("button", { name: "Remove avatar" }).click();
      await expect(page.getByText("Your avatar is removed.")).toBeVisible();
      await expect(header.locator("[data-avatar=initials]")).toHaveText("AT");
      await expect.poll(files).toEqual([]);
    });
  });
}

test("a new avatar reaches the person's other tabs (USER_UPDATED)", async ({ page, context, signUp, login }) => {
  const user = await signUp({ displayName: "Tab Person" });
  await login(user);
  const other = await context.newPage();
  await other.goto("/teams");
  await expect(other.getByRole("navigation", { name: "Main" }).locator("[data-avatar=initials]")).toBeVisible();
  await page.goto("/account");
  await page.getByLabel("New avatar").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile is saved.")).toBeVisible();
  await expect(other.getByRole("navigation", { name: "Main" }).locator("img[data-avatar=image]")).toBeVisible();
});
