import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { inviteByEmail, seedTeam } from "./product-fixtures";

/**
 * The small things a newcomer saw (issue 29 §7), measured: a form's last
 * button keeps its distance from what follows, the filters' labels stand on
 * one line, every "← Back…" has a space after its arrow, and the invitation
 * card has no empty band. One spacing rule each in app/styles, not per page.
 */

/** The space between the bottom of `above` and the top of `below`, in px. */
async function gapBetween(above: Locator, below: Locator) {
  const [a, b] = [await above.boundingBox(), await below.boundingBox()];
  expect(a && b, "both are on the page").toBeTruthy();
  return b!.y - (a!.y + a!.height);
}

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

test("a form's last button is at least 12 px from the heading or form after it", async ({ page, backend, login }) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite" }] });
  await login(team.users.admin);

  await page.goto(`/teams/${team.slug}/members`);
  const send = page.getByRole("button", { name: "Send invitation" });
  expect(await gapBetween(send, page.getByRole("heading", { name: "Pending invitations" }))).toBeGreaterThanOrEqual(12);

  await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
  const panel = page.getByRole("complementary", { name: "Task" });
  const remove = panel.getByText("Delete task…");
  expect(await gapBetween(remove, panel.getByRole("heading", { name: /^Attachments/ }))).toBeGreaterThanOrEqual(12);

  await page.goto("/account");
  await page.getByLabel("New avatar").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save profile" }).click();
  const removeAvatar = page.getByRole("button", { name: "Remove avatar" });
  await expect(removeAvatar).toBeVisible();
  expect(await gapBetween(page.getByRole("button", { name: "Save profile" }), removeAvatar)).toBeGreaterThanOrEqual(12);
});

/** Where each label's text sits (its box's bottom: same font, same line box). */
const labelBottoms = (page: Page) =>
  page
    .getByRole("form", { name: "Filter tasks" })
    .locator("label")
    .evaluateAll((labels) => labels.map((label) => label.getBoundingClientRect().bottom));

for (const width of [1280, 390]) {
  test(`the filters' labels stand on one line at ${width} px`, async ({ page, backend, login }) => {
    const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite" }] });
    await login(team.users.member);
    await page.setViewportSize({ width, height: 900 });
    for (const view of ["", "/list"]) {
      await page.goto(`/teams/${team.slug}/projects/WEB${view}`);
      const filters = page.getByRole("form", { name: "Filter tasks" });
      if (!(await filters.isVisible())) await page.getByText("Filters", { exact: true }).click();
      const bottoms = await labelBottoms(page);
      expect(bottoms.length).toBeGreaterThanOrEqual(3);
      // on a phone two share a row: compare those that do (within a row's height)
      const rows = bottoms.filter((b) => Math.abs(b - bottoms[0]) < 20);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const bottom of rows) expect(Math.abs(bottom - bottoms[0])).toBeLessThanOrEqual(1);
    }
  });
}

test("every link that starts with ← has a space after the arrow", async ({ page, backend, login }) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite" }] });
  await login(team.users.admin);
  const board = `/teams/${team.slug}/projects/WEB`;
  for (const width of [390, 1280])
    for (const path of [`${board}/tasks/1`, `${board}/tasks/new`, `${board}/settings`, `${board}/views`]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(path);
      // the distance from the arrow's right edge to the next letter's left edge, for each shown "←" link
      const gaps = await page.locator("a").evaluateAll((links) =>
        links
          .filter((a) => a.textContent?.trim().startsWith("←") && (a as HTMLElement).offsetParent !== null)
          .map((a) => {
            const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
            const glyphs: DOMRect[] = [];
            for (let node = walker.nextNode(); node && glyphs.length < 2; node = walker.nextNode()) {
              const text = node.textContent ?? "";
              for (let i = 0; i < text.length && glyphs.length < 2; i++) {
                if (text[i].trim() === "") continue;
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                glyphs.push(range.getBoundingClientRect());
              }
            }
            return { text: a.textContent, gap: glyphs[1].left - glyphs[0].right };
          }),
      );
      // a space, at least (a quarter of a 16-px em is 4 px)
      for (const { text, gap } of gaps) expect(gap, `${path} at ${width}: "${text}"`).toBeGreaterThanOrEqual(3);
      // and in the text a screen reader or a copy gets
      const texts = await page
        .locator("a")
        .evaluateAll((links) =>
          links.map((a) => (a as HTMLElement).innerText).filter((t) => t?.trim().startsWith("←")),
        );
      for (const text of texts) expect(text.trim()).toMatch(/^← \S/);
    }
});

test("the invitation card has no empty band", async ({ page, backend }) => {
  const team = await seedTeam(backend, {});
  const path = await inviteByEmail(backend, team, `guest-${Date.now()}@example.com`);
  await page.goto(path);
  const card = page.locator(".card").first();
  await expect(card).toContainText("invited");
  // between the card's padding and its first and last pieces
  const bands = await card.evaluate((el) => {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const top = box.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop);
    const bottom = box.bottom - parseFloat(style.borderBottomWidth) - parseFloat(style.paddingBottom);
    const kids = [...el.children].map((c) => c.getBoundingClientRect()).filter((r) => r.height > 0);
    return [kids[0].top - top, bottom - kids[kids.length - 1].bottom];
  });
  // no empty block taller than 8 px above the first piece or below the last (inside the padding)
  expect(bands[0]).toBeLessThanOrEqual(8);
  expect(bands[1]).toBeLessThanOrEqual(8);
});
