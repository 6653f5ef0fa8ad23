import type { Page } from "@playwright/test";
import { expect, MODES, test } from "./fixtures";
import { seedTeam, signedInClient } from "./product-fixtures";
import { liveJoined } from "./support/live";

/**
 * Shaping the work (issue 24, docs/product.md §11), with and without
 * JavaScript: an admin adds a "Review" column with a WIP limit and puts it
 * after In progress; a member moves tasks into it and sees the warning,
 * ticks a checklist, adds a sub-task and a blocker (the card says "Blocked"
 * until the blocker is done), creates a coloured label and puts it on the task.
 */
const column = (page: Page, name: string) => page.locator(`section[data-status-name="${name}"]`);
const card = (page: Page, status: string, title: string) =>
  column(page, status).locator("li[data-task-id]", { hasText: title });

async function moveTo(page: Page, status: string) {
  const panel = page.getByRole("complementary", { name: "Task" });
  await panel.getByLabel("Status", { exact: true }).selectOption({ label: status });
  await panel.getByRole("button", { name: "Move", exact: true }).click();
}

for (const mode of MODES) {
  test.describe(`project statuses, checklists, sub-tasks, relations and labels ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("an admin adds a Review column with a WIP limit; a member works a task through it", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, {
        tasks: [
          { title: "Write the release notes", status: "in_progress" },
          { title: "Fix the flaky test", status: "in_progress" },
          { title: "Approve the copy", status: "todo" },
        ],
      });
      const board = `/teams/${team.slug}/projects/WEB`;

      // the admin: a new status at the end of the board, then after In progress
      await login(team.users.admin);
      await page.goto(board);
      await page.getByRole("link", { name: "Project settings" }).click();
      await expect(page).toHaveURL(`${board}/settings`);
      const add = page.getByRole("form", { name: "Add a status" });
      await add.getByLabel("Name", { exact: true }).fill("Review");
      await add.getByLabel("What it means").selectOption({ label: "Started" });
      await add.getByLabel("Colour").selectOption({ label: "Purple" });
      await add.getByLabel("WIP limit").fill("1");
      await add.getByRole("button", { name: "Add status" }).click();
      await expect(page.getByText("Review is added at the end of the board.")).toBeVisible();
      const rows = page.locator("[data-status-row]");
      await expect(rows).toHaveCount(6);
      await expect(rows.last()).toHaveAttribute("data-status-row", "Review");

      if (mode.js) {
        // dragged onto Done's place
        await page.locator('[data-status-row="Review"]').dragTo(page.locator('[data-status-row="Done"]'));
        // the list reorders at once; the board is read once the save says it is done
        await expect(page.getByText("The order of the columns is saved.")).toBeVisible();
      } else {
        for (let i = 0; i < 2; i++) {
          const review = page.locator('[data-status-row="Review"]');
          await review.locator("summary", { hasText: "Change" }).click();
          await review.getByRole("button", { name: "Up Review" }).click();
          await expect(page.getByText("The order of the columns is saved.")).toBeVisible();
        }
      }
      await expect
        .poll(() => rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-status-row"))))
        .toEqual(["Backlog", "To do", "In progress", "Review", "Done", "Canceled"]);
      await page.goto(board);
      await expect
        .poll(() =>
          page
            .locator("section[data-status-name]")
            .evaluateAll((els) => els.map((el) => el.getAttribute("data-status-name"))),
        )
        .toEqual(["Backlog", "To do", "In progress", "Review", "Done", "Canceled"]);

      // the member: two tasks into Review, one over its limit of 1
      await page.context().clearCookies();
      await login(team.users.member);
      await page.goto(`${board}/tasks/1`);
      await moveTo(page, "Review");
      await expect(page.getByText("WEB-1 is in Review.")).toBeVisible();
      await expect(column(page, "Review").getByText("1 of 1 (WIP limit)")).toBeVisible();
      await page.goto(`${board}/tasks/2`);
      await moveTo(page, "Review");
      await expect(page.getByText("WEB-2 is in Review.")).toBeVisible();
      await expect(column(page, "Review").getByText("2 of 1: over the WIP limit")).toBeVisible();
      await expect(card(page, "Review", "Fix the flaky test")).toBeVisible();

      // a checklist on WEB-1: two items, one ticked; the card says 1/2
      await page.goto(`${board}/tasks/1`);
      const panel = page.getByRole("complementary", { name: "Task" });
      const checklist = panel.getByRole("form", { name: "Add a checklist item" });
      await checklist.getByLabel("New item").fill("Proofread");
      await checklist.getByRole("button", { name: "Add item" }).click();
      await expect(page.getByText("The item is added.")).toBeVisible();
      await checklist.getByLabel("New item").fill("Publish");
      await checklist.getByRole("button", { name: "Add item" }).click();
      await expect(panel.locator("[data-checklist-item]")).toHaveCount(2);
      await panel.getByRole("button", { name: "Tick “Proofread”" }).click();
      await expect(panel.getByRole("button", { name: "Untick “Proofread”" })).toHaveAttribute("aria-pressed", "true");
      const notes = card(page, "Review", "Write the release notes");
      await expect(notes.getByLabel("Checklist: 1 of 2 done")).toContainText("1/2");

      // a sub-task, added by its title; it links back to its parent
      const subtask = panel.getByRole("form", { name: "Add a sub-task" });
      await subtask.getByLabel("New sub-task").fill("Translate the notes");
      await subtask.getByRole("button", { name: "Add sub-task" }).click();
      await expect(page.getByText("WEB-4 is added as a sub-task.")).toBeVisible();
      await expect(notes.getByLabel("Sub-tasks: 0 of 1 done")).toBeVisible();
      await panel.getByRole("link", { name: "WEB-4 Translate the notes" }).click();
      await expect(panel.getByText("Sub-task of WEB-1 Write the release notes")).toBeVisible();
      await page.goto(`${board}/tasks/1`);

      // a blocker: WEB-1 is blocked by WEB-3 (still to do), so its card says Blocked
      const relate = panel.getByRole("form", { name: "Relate to another task" });
      await relate.getByLabel("This task").selectOption({ label: "Is blocked by" });
      await relate.getByLabel("Task", { exact: true }).fill("web-3");
      await relate.getByRole("button", { name: "Add relation" }).click();
      await expect(page.getByText("WEB-1 and WEB-3 are related.")).toBeVisible();
      await expect(panel.locator('[data-relation="Blocked by"]')).toContainText("WEB-3 Approve the copy");
      await expect(notes.getByText("Blocked", { exact: true })).toBeVisible();
      // the same pair twice is refused in words, what was typed kept
      await relate.getByLabel("This task").selectOption({ label: "Blocks" });
      await relate.getByLabel("Task", { exact: true }).fill("WEB-3");
      await relate.getByRole("button", { name: "Add relation" }).click();
      await expect(page.getByText("A task can't block a task that blocks it.")).toBeVisible();
      await expect(relate.getByLabel("Task", { exact: true })).toHaveValue("WEB-3");

      // a coloured label made on the team's labels page, then put on the task
      await page.goto(`/teams/${team.slug}/labels`);
      const newLabel = page.getByRole("form", { name: "New label" });
      await newLabel.getByLabel("Name", { exact: true }).fill("Launch");
      await newLabel.getByLabel("Colour").selectOption({ label: "Pink" });
      await newLabel.getByRole("button", { name: "Create label" }).click();
      await expect(page.getByText("The label Launch is created.")).toBeVisible();
      await expect(page.locator('[data-label-row="Launch"]')).toContainText("on 0 tasks");
      await page.goto(`${board}/tasks/1`);
      await panel.getByRole("link", { name: "Edit", exact: true }).click();
      await panel.getByRole("checkbox", { name: "Launch", exact: true }).check();
      await panel.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("WEB-1 is saved.")).toBeVisible();
      await expect(notes.locator(".label", { hasText: "Launch" })).toHaveClass(/color-pink/);
      await page.goto(`${board}?label=LAUNCH`);
      await expect(page.locator("li[data-task-id]")).toHaveCount(1);

      // the blocker is done: WEB-1 is no longer Blocked
      await page.goto(`${board}/tasks/3`);
      await moveTo(page, "Done");
      await expect(page.getByText("WEB-3 is in Done.")).toBeVisible();
      await expect(notes.getByText("Blocked", { exact: true })).toHaveCount(0);
      await expect(notes).toBeVisible();
    });
  });
}

test.describe("project statuses with JavaScript", () => {
  test("another person's checklist tick, status rename and blocker show on the board without a reload", async ({
    page,
    backend,
    login,
  }) => {
    const team = await seedTeam(backend, {
      tasks: [
        { title: "Ship the board", status: "in_progress" },
        { title: "Get sign-off", status: "todo" },
      ],
    });
    await login(team.users.member);
    const live = liveJoined(page);
    await page.goto(`/teams/${team.slug}/projects/WEB`);
    await live;
    const [ship, signoff] = team.tasks;
    const adam = await signedInClient(backend, team.users.admin);

    const { data: item } = await adam
      .from("checklist_items")
      .insert({ task_id: ship.id, title: "Smoke test" } as never)
      .select("id")
      .single<{ id: string }>();
    await expect(card(page, "In progress", "Ship the board").getByLabel("Checklist: 0 of 1 done")).toBeVisible();
    await adam.from("checklist_items").update({ done: true }).eq("id", item!.id);
    await expect(card(page, "In progress", "Ship the board").getByLabel("Checklist: 1 of 1 done")).toBeVisible();

    const { data: doing } = await adam
      .from("project_statuses")
      .select("id")
      .eq("project_id", team.project.id)
      .eq("name", "In progress")
      .single<{ id: string }>();
    await adam.from("project_statuses").update({ name: "Doing", wip_limit: 1 }).eq("id", doing!.id);
    await expect(card(page, "Doing", "Ship the board")).toBeVisible();
    await expect(column(page, "Doing").getByText("1 of 1 (WIP limit)")).toBeVisible();

    await adam
      .from("task_relations")
      .insert({ from_task_id: signoff.id, to_task_id: ship.id, kind: "blocks" } as never);
    await expect(card(page, "Doing", "Ship the board").getByText("Blocked", { exact: true })).toBeVisible();
  });
});
