import { expect, MODES, test } from "./fixtures";
import { seedTeam } from "./product-fixtures";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

for (const mode of MODES) {
  test.describe(`attachments ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("attach, download, refuse a too-large file, delete; deleting the task removes its files", async ({
      page,
      login,
      backend,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Needs files" }] });
      const task = team.tasks[0];
      const objects = async () => (await backend.admin().storage.from("attachments").list(task.id)).data?.length ?? 0;
      await login(team.users.member);
      await page.goto(`/teams/${team.slug}/projects/${team.project.key}/tasks/${task.number}`);
      const section = page.getByRole("region", { name: /Attachments/ });

      await page.getByLabel("Attach files").setInputFiles([
        { name: "notes – draft.txt", mimeType: "text/plain", buffer: Buffer.from("meeting notes") },
        { name: "pixel.png", mimeType: "image/png", buffer: PNG },
      ]);
      await page.getByRole("button", { name: "Attach", exact: true }).click();
      await expect(section.getByRole("link", { name: "notes – draft.txt" })).toBeVisible();
      await expect(section.getByRole("link", { name: "pixel.png" })).toBeVisible();
      await expect(section.getByRole("img", { name: "Preview of pixel.png" })).toBeVisible();
      await expect(section.locator("[data-attachment='notes – draft.txt']")).toContainText(
        "13 B · text/plain · Mia Member",
      );
      expect(await objects()).toBe(2);

      // the download goes through a short-lived signed URL, never a public one
      const href = await section.getByRole("link", { name: "notes – draft.txt" }).getAttribute("href");
      expect(href).toContain("/storage/v1/object/sign/attachments/");
      expect(href).toContain("download=");
      const res = await page.request.get(href!);
      expect(await res.text()).toBe("meeting notes");

      // over 10 MB: the message, nothing stored
      await page.getByLabel("Attach files").setInputFiles({
        name: "huge.bin",
        mimeType: "application/octet-stream",
        buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
      });
      await page.getByRole("button", { name: "Attach", exact: true }).click();
      await expect(page.getByText("huge.bin is larger than 10 MB.")).toBeVisible();
      await expect(section.locator("[data-attachment]")).toHaveCount(2);
      expect(await objects()).toBe(2);

      await section.getByRole("button", { name: "Delete notes – draft.txt" }).click();
      await expect(page.getByText("The file is deleted.")).toBeVisible();
      await expect(section.locator("[data-attachment]")).toHaveCount(1);
      await expect.poll(objects).toBe(1);

      // an admin deletes the task: its last file goes with it
      await page.context().clearCookies();
      await login(team.users.admin);
      await page.goto(`/teams/${team.slug}/projects/${team.project.key}/tasks/${task.number}`);
      await page.getByText("Delete task…").click();
      await page.getByRole("button", { name: /for good/ }).click();
      await expect(page.getByText(/is deleted\./)).toBeVisible();
      await expect.poll(objects).toBe(0);
    });
  });
}

test("viewers see and download files but cannot attach", async ({ page, login, backend }) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Read only" }] });
  const task = team.tasks[0];
  await login(team.users.member);
  await page.goto(`/teams/${team.slug}/projects/${team.project.key}/tasks/${task.number}`);
  await page
    .getByLabel("Attach files")
    .setInputFiles({ name: "spec.txt", mimeType: "text/plain", buffer: Buffer.from("spec") });
  await page.getByRole("button", { name: "Attach", exact: true }).click();
  await expect(page.getByRole("link", { name: "spec.txt" })).toBeVisible();
  await page.context().clearCookies();
  await login(team.users.viewer);
  await page.goto(`/teams/${team.slug}/projects/${team.project.key}/tasks/${task.number}`);
  await expect(page.getByRole("link", { name: "spec.txt" })).toBeVisible();
  await expect(page.getByLabel("Attach files")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete spec.txt" })).toHaveCount(0);
});
