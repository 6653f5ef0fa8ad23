import sharp from "sharp";
import { expect, MODES, test } from "./fixtures";
import { seedTeam, signedInClient } from "./product-fixtures";

/**
 * docs/product.md §14: descriptions and comments in Markdown, rendered on
 * the server; Preview without and with JavaScript; image attachments as
 * thumbnails from Storage's image transformation; a picture pasted into a
 * comment (JavaScript) is attached and shown.
 */
const picture = (width: number, height: number, color: string) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

for (const mode of MODES) {
  test.describe(`text and pictures ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("a Markdown description renders, Preview keeps the text, a picture shows as a thumbnail", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Plan the launch" }, { title: "Fix the footer" }] });
      const task = team.tasks[0];
      const client = await signedInClient(backend, team.users.member);
      const objectPath = `${task.id}/sketch.png`;
      const upload = await client.storage
        .from("attachments")
        .upload(objectPath, await picture(1600, 1000, "#3a7bd5"), { contentType: "image/png" });
      expect(upload.error).toBeNull();
      const { data: attachment } = await client
        .from("attachments")
        .insert({
          task_id: task.id,
          object_path: objectPath,
          file_name: "sketch.png",
          size_bytes: 1,
          content_type: "image/png",
        })
        .select("id")
        .single();
      const description = [
        "## Steps",
        "",
        "- [x] write it",
        "- [ ] ship it, after WEB-2",
        "",
        "| Who | When |",
        "|-----|------|",
        "| Mia | Monday |",
        "",
        "```",
        `const line = "${"x".repeat(300)}";`,
        "```",
        "",
        "[The brief](https://example.com/brief) and [a trap](javascript:alert(1))",
        "",
        `![The sketch](/attachments/${attachment!.id})`,
      ].join("\n");
      await client.from("tasks").update({ description }).eq("id", task.id);

      await login(team.users.member);
      const url = `/teams/${team.slug}/projects/WEB/tasks/${task.number}`;
      await page.goto(url);
      const text = page.locator(".task-description-text");
      await expect(text.getByRole("heading", { name: "Steps", level: 5 })).toBeVisible();
      await expect(text.getByRole("checkbox")).toHaveCount(2);
      await expect(text.getByRole("checkbox").first()).toBeDisabled();
      await expect(text.getByRole("cell", { name: "Monday" })).toBeVisible();
      await expect(text.getByRole("link", { name: "The brief" })).toHaveAttribute(
        "rel",
        "noopener noreferrer nofollow",
      );
      await expect(text.getByText("[a trap](javascript:alert(1))")).toBeVisible();
      await expect(text.getByRole("link", { name: "WEB-2" })).toHaveAttribute("title", "Fix the footer");
      // a long code line scrolls inside its block; the page does not widen
      const widths = await page.evaluate(() => ({
        pre: document.querySelector(".task-description-text pre")!.scrollWidth,
        page: document.documentElement.scrollWidth,
        view: document.documentElement.clientWidth,
      }));
      expect(widths.pre).toBeGreaterThan(widths.view / 2);
      expect(widths.page).toBeLessThanOrEqual(widths.view);

      // the picture in the text and in the list: made by Storage from the file, never the file itself
      const inline = text.getByRole("img", { name: "The sketch" });
      await expect(inline).toBeVisible();
      await expect.poll(() => inline.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
      const thumb = page.getByRole("img", { name: "Preview of sketch.png" });
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
      await page.getByRole("link", { name: "Open sketch.png" }).click();
      await expect(page).toHaveURL(/\/storage\/v1\/object\/sign\/attachments\//);
      await page.goBack();

      // Preview: nothing saved, the text kept, the rendered text shown
      await page.getByRole("link", { name: "Edit", exact: true }).click();
      const field = page.getByLabel("Description", { exact: true });
      await field.fill("# Draft\n\n**not saved yet** <b>tag</b>");
      await page.getByRole("form", { name: "Edit task" }).getByRole("button", { name: "Preview" }).click();
      const preview = page.getByRole("region", { name: "Preview" });
      await expect(preview.getByRole("heading", { name: "Draft", level: 4 })).toBeVisible();
      await expect(preview.locator("strong")).toHaveText("not saved yet");
      await expect(preview.getByText("<b>tag</b>")).toBeVisible();
      await expect(field).toHaveValue("# Draft\n\n**not saved yet** <b>tag</b>");
      const { data: saved } = await client.from("tasks").select("description").eq("id", task.id).single();
      expect(saved!.description).toBe(description);

      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("WEB-1 is saved.")).toBeVisible();
      await expect(text.getByRole("heading", { name: "Draft", level: 4 })).toBeVisible();
    });
  });
}

test.describe("text and pictures with JavaScript", () => {
  test("a picture pasted into a comment is attached and shown in it", async ({ page, backend, login }) => {
    const team = await seedTeam(backend, { tasks: [{ title: "Show the bug" }] });
    await login(team.users.member);
    await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
    const field = page.getByLabel("Add a comment");
    await field.fill("Here it is:\n");
    const bytes = [...(await picture(640, 480, "#e4572e"))];
    // what a browser hands a page when a screenshot is pasted: a File in the clipboard event
    await field.evaluate((el, data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], "screenshot.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, bytes);
    await expect(field).toHaveValue(/^Here it is:\n!\[screenshot\.png\]\(\/attachments\/[0-9a-f-]{36}\)\n$/);
    const attachments = page.getByRole("region", { name: /Attachments/ });
    await expect(attachments.getByRole("img", { name: "Preview of screenshot.png" })).toBeVisible();

    await page.getByRole("button", { name: "Post comment" }).click();
    await expect(page.getByText("Your comment is posted.")).toBeVisible();
    const shown = page.locator("li.comment").last().getByRole("img", { name: "screenshot.png" });
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  });
});
