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

    test("attach, download, refuse a too-large file, delete; the task's files stay in the trash and go when it is deleted forever", async ({
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
      await expect(section.getByRole("link", { name: "pixel.png", exact: true })).toBeVisible();
      await expect(section.getByRole("img", { name: "Preview of pixel.png" })).toBeVisible();
      // once listed, a file's progress row is gone (issue 42 §13: it stayed until a reload)
      await expect(section.locator(".attachment-progress")).toHaveCount(0);
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

      // an admin deletes the task: to the trash, its file kept; restored, the file is there again;
      // deleted forever from the trash, its last file goes with it (docs/product.md §18)
      await page.context().clearCookies();
      await login(team.users.admin);
      const ref = `${team.project.key}-${task.number}`;
      const taskPath = `/teams/${team.slug}/projects/${team.project.key}/tasks/${task.number}`;
      const deleteTask = async () => {
        await page.goto(taskPath);
        await page.getByText("Delete task…").click();
        await page.getByRole("button", { name: `Delete ${ref}`, exact: true }).click();
        await expect(page.getByText(`${ref} is in the trash.`)).toBeVisible();
      };
      await deleteTask();
      expect(await objects()).toBe(1);
      await page.getByRole("link", { name: "Open the trash" }).click();
      await page.getByRole("button", { name: `Restore ${ref}` }).click();
      await expect(page.getByText(`${ref} is restored.`)).toBeVisible();
      await page.getByRole("link", { name: `Open ${ref}` }).click();
      await expect(section.getByRole("link", { name: "pixel.png", exact: true })).toBeVisible();

      await deleteTask();
      await page.goto(`/teams/${team.slug}/projects/${team.project.key}/trash`);
      await page.getByRole("button", { name: `Delete ${ref} forever` }).click();
      await expect(page.getByText(`${ref} is deleted for good.`)).toBeVisible();
      await expect(page.getByText("The trash is empty.")).toBeVisible();
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

test("an attached HTML or SVG file opened by its address shows as a file and runs no script; a file that only claims to be a PNG is no picture", async ({
  page,
  login,
  backend,
}) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Hostile files" }] });
  const task = team.tasks[0];
  await login(team.users.member);
  await page.goto(`/teams/${team.slug}/projects/${team.project.key}/tasks/${task.number}`);
  const script = `<script>document.title = "ran with " + document.cookie</script>`;
  await page.getByLabel("Attach files").setInputFiles([
    { name: "page.html", mimeType: "text/html", buffer: Buffer.from(`<html><body>${script}Hello</body></html>`) },
    {
      name: "drawing.svg",
      mimeType: "image/svg+xml",
      buffer: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">${script}</svg>`),
    },
    { name: "fake-image.png", mimeType: "image/png", buffer: Buffer.from("a text file renamed .png") },
  ]);
  await page.getByRole("button", { name: "Attach", exact: true }).click();
  // its bytes say what it is: stored and listed as plain bytes, with no broken preview
  const fake = page.locator("[data-attachment='fake-image.png']");
  await expect(fake).toContainText("application/octet-stream");
  await expect(page.getByRole("img", { name: "Preview of fake-image.png" })).toHaveCount(0);
  const hrefs: Record<string, string> = {};
  for (const name of ["page.html", "drawing.svg"]) {
    const href = await page.getByRole("link", { name }).getAttribute("href");
    // the file's own address, without the download that the page's link asks for
    hrefs[name] = href!.replace(/&download=[^&]*/, "");
  }

  await page.goto(hrefs["page.html"]);
  await expect(page.locator("body")).toContainText(`${script}Hello`);
  expect(await page.title()).not.toContain("ran");

  const svg = await page.goto(hrefs["drawing.svg"]);
  expect(svg?.headers()["content-type"]).toBe("image/svg+xml");
  expect(await page.title()).not.toContain("ran");
});
