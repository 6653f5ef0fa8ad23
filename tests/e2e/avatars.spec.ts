import type { Route } from "@playwright/test";
import { expect, MODES, sessionFromCookies, test } from "./fixtures";

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
      // the address stays the profile's own (not the index route's `/account?index`)
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/account");
      expect(await files()).toEqual([]);

      await page.getByLabel("New avatar").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("button", { name: "Save profile" }).click();
      await expect(page.getByText("Your profile is saved.")).toBeVisible();
      const image = header.locator("img[data-avatar=image]");
      await expect(image).toBeVisible();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      await expect(header.getByRole("link", { name: "Ava Tarr" })).toBeVisible();
      expect(await files()).toHaveLength(1);

      // a second upload replaces the first; the old file is removed. "Your profile is saved." is
      // still on the page from the first save, so the new picture in the header is what says this
      // save is done: clicking on before it was (issue 22's flake) overlapped "Remove avatar" with
      // this save, whose late finish put an avatar back.
      const first = await image.getAttribute("src");
      await page.getByLabel("New avatar").setInputFiles({ name: "again.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("button", { name: "Save profile" }).click();
      await expect(image).not.toHaveAttribute("src", first ?? "");
      await expect(page.getByText("Your profile is saved.")).toBeVisible();
      await expect.poll(files).toHaveLength(1);

      await page.getByRole("button", { name: "Remove avatar" }).click();
      await expect(page.getByText("Your avatar is removed.")).toBeVisible();
      await expect(header.locator("[data-avatar=initials]")).toHaveText("AT");
      await expect.poll(files).toEqual([]);
    });
  });
}

test("a new avatar reaches the person's other tabs", async ({ page, context, signUp, login }) => {
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

test("telling other tabs about a change never writes an older session back into the cookies", async ({
  page,
  context,
  signUp,
  login,
  backend,
}) => {
  // The flake of issue 22: after "Remove avatar" the header kept the old picture. The tab used to
  // announce a change with updateUser({}), which saves the session it read when it started; one
  // that finished after the server's next answer put back the older tokens (their claims still
  // naming the replaced avatar, their refresh token already used). Slow announcements are made
  // here on purpose, by holding the backend's PUT /user until the server has moved on.
  const user = await signUp({ displayName: "Slow Tab" });
  await login(user);
  const held: Route[] = [];
  let heldOne: () => void = () => {};
  const firstHeld = new Promise<void>((resolve) => (heldOne = resolve));
  let holding = true;
  await page.route(`${backend.env.apiUrl}/auth/v1/user`, (route) => {
    if (!holding || route.request().method() !== "PUT") return route.continue();
    held.push(route);
    heldOne();
  });
  await page.goto("/account");
  const header = page.getByRole("navigation", { name: "Main" });
  const image = header.locator("img[data-avatar=image]");
  let shown: string | null = null;
  for (const name of ["one.png", "two.png"]) {
    await page.getByLabel("New avatar").setInputFiles({ name, mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Save profile" }).click();
    // this save is done when the header shows its picture
    await expect(image).toHaveAttribute("src", /avatars/);
    await expect(image).not.toHaveAttribute("src", shown ?? "");
    shown = await image.getAttribute("src");
    await Promise.race([firstHeld, page.waitForTimeout(2_000)]);
  }
  const latest = await sessionFromCookies(context, backend.env.appUrl);
  holding = false;
  const release = [...held];
  held.length = 0;
  await Promise.all(release.map((route) => route.continue()));
  await Promise.all(release.map((route) => route.request().response()));
  // a client that saves after the answer does so at once; give it a moment either way
  await page.waitForTimeout(1_000);
  expect((await sessionFromCookies(context, backend.env.appUrl))?.refresh_token).toBe(latest?.refresh_token);

  await page.getByRole("button", { name: "Remove avatar" }).click();
  await expect(page.getByText("Your avatar is removed.")).toBeVisible();
  await expect(header.locator("[data-avatar=initials]")).toHaveText("ST");
});
