import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addComments, seedTeam } from "./product-fixtures";

/**
 * The screenshot set people look at before a release (issue 42): the board,
 * a task's panel, the list, My work and the notifications, on a laptop
 * (1280 × 800) and a phone (390 × 844), in the light and the dark theme,
 * written to test-results/screenshots/<size>-<theme>-<page>.png. Not
 * compared with anything: the layout checks are in layout.spec.ts and
 * craft.spec.ts. One test, one seeded team: about 20 s.
 */
const SIZES = [
  { name: "laptop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

test("the screenshot set: board, task, list, My work, notifications at 1280 and 390 px, light and dark", async ({
  page,
  backend,
  login,
}) => {
  test.slow(); // 20 screenshots
  const team = await seedTeam(backend, {
    tasks: [
      {
        title: "Reconcile quarterly invoices",
        status: "todo",
        assignee: "member",
        labels: ["finance"],
        description:
          "## Plan\n\nMatch every invoice to its payment.\n\n- [x] Export the ledger\n- [ ] Check the totals",
      },
      { title: "Print the posters", status: "in_progress", assignee: "member", labels: ["design"] },
      { title: "Book the venue", status: "backlog", assignee: "owner" },
      { title: "Ship the newsletter", status: "done", assignee: "member", labels: ["marketing"] },
      { title: "Order the banners", status: "todo", assignee: "admin", labels: ["design"] },
    ],
  });
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const admin = backend.admin();
  await admin
    .from("tasks")
    .update({ due_on: day(-2), priority: "high" } as never)
    .eq("id", team.tasks[0].id);
  await admin
    .from("tasks")
    .update({ due_on: day(3), priority: "medium" } as never)
    .eq("id", team.tasks[1].id);
  const { data: profile } = await admin.from("profiles").select("username").eq("id", team.users.member.id).single();
  await addComments(backend, team.tasks[0].id, team.owner, 2, (n) =>
    n === 1
      ? `@${(profile as { username: string }).username} could you check the **totals**?`
      : "| Month | Total |\n|---|---|\n| Oct | 1,200 |",
  );
  await login(team.users.member);

  const board = `/teams/${team.slug}/projects/WEB`;
  const pages = [
    { name: "board", path: board },
    { name: "task", path: `${board}/tasks/1` },
    { name: "list", path: `${board}/list` },
    { name: "my-work", path: "/my-work" },
    { name: "notifications", path: "/notifications" },
  ];
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const { name, path } of pages) {
        await page.goto(path);
        await expect(page.locator("main h1, main h2").first()).toBeAttached();
        await page.screenshot({ path: `test-results/screenshots/${size.name}-${theme}-${name}.png` });
        if (name === "task") await shootEditing(page, `${size.name}-${theme}-task-editing`);
      }
    }
  }
});

/** The panel with a fact open for editing in place (issue 42 §15): the labels' picker. */
async function shootEditing(page: Page, file: string) {
  const panel = page.getByRole("complementary", { name: "Task" });
  await panel.locator(".task-facts summary", { hasText: "change the labels" }).click();
  const form = panel.getByRole("form", { name: "Change the labels" });
  await expect(form).toBeVisible();
  await form.getByRole("button", { name: "Save" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/screenshots/${file}.png` });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the task panel at 1280 and 390 px, light and dark, read and with a field open", async ({
    page,
    backend,
    login,
  }) => {
    const team = await seedTeam(backend, {
      tasks: [{ title: "Reconcile quarterly invoices", status: "todo", assignee: "member", labels: ["finance"] }],
    });
    await backend
      .admin()
      .from("labels")
      .insert([{ team_id: team.id, name: "design", color: "purple" }] as never);
    await login(team.users.member);
    for (const size of SIZES) {
      await page.setViewportSize(size.viewport);
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
        await page.screenshot({ path: `test-results/screenshots/${size.name}-${theme}-task-nojs.png` });
        await shootEditing(page, `${size.name}-${theme}-task-editing-nojs`);
      }
    }
  });
});
