import type { Page } from "@playwright/test";
import { expect, MODES, test } from "./fixtures";
import { seedTeam } from "./product-fixtures";

/**
 * The list view, bulk edit, saved views and the keyboard (docs/product.md
 * §13), in a real browser, with and without JavaScript.
 */
const rows = (page: Page) => page.locator("table.task-table tbody tr:not(.task-table-group)");
const titles = (page: Page) => rows(page).locator("td.task-table-title").allTextContents();

/** 22 tasks to do, "Task 01" … "Task 22", due in 22 … 1 days (the last four undated). */
async function seedList(backend: Parameters<typeof seedTeam>[0]) {
  const team = await seedTeam(backend, {
    tasks: Array.from({ length: 22 }, (_, i) => ({
      title: `Task ${String(i + 1).padStart(2, "0")}`,
      status: "todo" as const,
    })),
  });
  for (const task of team.tasks.slice(0, 18)) {
    const due = new Date(Date.now() + (23 - task.number) * 86_400_000).toISOString().slice(0, 10);
    const { error } = await backend.admin().from("tasks").update({ due_on: due }).eq("id", task.id);
    if (error) throw error;
  }
  return team;
}

for (const mode of MODES) {
  test.describe(`list ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("sort, group, bulk-move 20 tasks, save the view and open it again", async ({ page, backend, login }) => {
      const team = await seedList(backend);
      await login(team.users.member);
      const list = `/teams/${team.slug}/projects/WEB/list`;
      await page.goto(list);
      await expect(page.getByRole("link", { name: "List", exact: true })).toHaveAttribute("aria-current", "page");

      // sort by due date: the soonest first, the undated last; again: the latest first, still undated last
      await page.getByRole("columnheader", { name: "Due" }).getByRole("link").click();
      await expect(page).toHaveURL(/sort=due/);
      await expect(page.getByRole("columnheader", { name: "Due" })).toHaveAttribute("aria-sort", "ascending");
      expect((await titles(page)).slice(0, 2)).toEqual(["Task 18", "Task 17"]);
      expect((await titles(page)).slice(-4)).toEqual(["Task 19", "Task 20", "Task 21", "Task 22"]);
      await page.getByRole("columnheader", { name: "Due" }).getByRole("link").click();
      await expect(page).toHaveURL(/sort=-due/);
      await expect(page.getByRole("columnheader", { name: "Due" })).toHaveAttribute("aria-sort", "descending");
      expect((await titles(page))[0]).toBe("Task 01");

      // group by status, keeping the sort
      await page.getByLabel("Group by").selectOption("status");
      await page.getByRole("button", { name: "Show", exact: true }).click();
      await expect(page).toHaveURL(/group=status/);
      await expect(page.getByRole("rowheader", { name: "To do" })).toBeVisible();

      // bulk: 20 of the 22 to "In progress", in one post; its changes show once a row is ticked (issue 42 §7)
      const bar = page.getByRole("form", { name: "Change the ticked tasks" });
      await expect(bar.getByRole("button", { name: "Set status" })).toBeHidden();
      expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(60);
      for (let n = 1; n <= 20; n++) await page.getByLabel(`Select WEB-${n}`, { exact: true }).check();
      await expect(bar.getByRole("button", { name: "Set status" })).toBeVisible();
      await page.getByLabel("Status", { exact: true }).selectOption({ label: "In progress" });
      await page.getByRole("button", { name: "Set status" }).click();
      // said beside the bar, the rows still ticked (with and without JavaScript)
      await expect(bar.getByText("20 tasks changed.")).toBeInViewport();
      await expect(page.getByRole("rowheader", { name: "In progress" })).toBeVisible();
      await expect(rows(page).filter({ hasText: "In progress" })).toHaveCount(20);
      await expect(rows(page).filter({ hasText: "To do" })).toHaveCount(2);
      await expect(page.getByLabel("Select WEB-1", { exact: true })).toBeChecked();
      await expect(page.getByLabel("Select WEB-21", { exact: true })).not.toBeChecked();
      await expect(bar.getByRole("button", { name: "Set status" })).toBeVisible();

      // save it, leave, and open it again beside the tabs
      const saveForm = page.locator(".save-view");
      await saveForm.locator("summary").click();
      await saveForm.getByLabel("Name", { exact: true }).fill("Latest due");
      await saveForm.getByRole("button", { name: "Save view" }).click();
      await expect(page.getByText("Saved the view “Latest due”.")).toBeVisible();
      await page.getByRole("link", { name: "Board", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/projects/WEB$`));
      await page.getByRole("navigation", { name: "Saved views" }).getByRole("link", { name: "Latest due" }).click();
      await expect(page).toHaveURL(new RegExp(`${list}\\?sort=-due&group=status$`));
      await expect(page.getByRole("columnheader", { name: "Due" })).toHaveAttribute("aria-sort", "descending");
    });

    test("a refused bulk delete changes nothing and keeps the ticked rows", async ({ page, backend, login }) => {
      const team = await seedList(backend);
      await login(team.users.admin);
      await page.goto(`/teams/${team.slug}/projects/WEB/list`);
      await page.getByLabel("Select WEB-3", { exact: true }).check();
      await page.getByLabel("Select WEB-5", { exact: true }).check();
      // meanwhile the owner makes them a member: they may no longer delete
      const { error } = await backend
        .admin()
        .from("team_members")
        .update({ role: "member" })
        .eq("team_id", team.id)
        .eq("user_id", team.users.admin.id);
      expect(error).toBeNull();
      await page.getByRole("button", { name: "Delete ticked tasks" }).click();
      await expect(page.getByRole("alert")).toContainText("Your role in this team doesn't allow that.");
      await expect(page.getByLabel("Select WEB-3", { exact: true })).toBeChecked();
      await expect(page.getByLabel("Select WEB-5", { exact: true })).toBeChecked();
      await expect(page.getByLabel("Select WEB-4", { exact: true })).not.toBeChecked();
      await expect(rows(page)).toHaveCount(22);
    });
  });
}

test("keyboard shortcuts: ? lists them in a dialog, g l / g b switch views, j and Enter open a row, never while typing", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, { tasks: [{ title: "First task" }, { title: "Second task" }] });
  await login(team.users.member);
  const board = `/teams/${team.slug}/projects/WEB`;
  await page.goto(board);
  await expect(page.getByRole("button", { name: "Keyboard shortcuts" })).toBeVisible();

  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Go to the list")).toBeVisible();
  // focus stays inside: Tab past the last control comes back to the first
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // the visible control opens it too, and focus returns to it
  const button = page.getByRole("button", { name: "Keyboard shortcuts" });
  await button.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(button).toBeFocused();

  await page.keyboard.press("g");
  await page.keyboard.press("l");
  await expect(page).toHaveURL(`${board}/list`);
  // as after Enter below: j is for the list's rows once they show, not the board's cards still on screen
  await expect(page.getByRole("link", { name: "WEB-1", exact: true })).toBeVisible();
  await page.keyboard.press("j");
  await expect(page.getByRole("link", { name: "WEB-1", exact: true })).toBeFocused();
  await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${board}/tasks/2`);
  // the address changes before React shows the new page: Escape is for the panel once it is there
  await expect(page.getByRole("complementary", { name: "Task" }).getByRole("heading", { name: /WEB-2/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(board);

  // typing "c" and "g l" in a field types them
  const text = page.getByLabel("Text", { exact: true });
  await text.fill("");
  await text.pressSequentially("cgl");
  await expect(text).toHaveValue("cgl");
  await expect(page).toHaveURL(board);
  await page.keyboard.press("Escape");
});
