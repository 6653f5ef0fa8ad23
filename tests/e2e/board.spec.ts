import type { Page } from "@playwright/test";
import { createLabels, expect, MODES, test } from "./fixtures";
import { seedTeam, STATUS_NAME, type SeedStatus } from "./product-fixtures";

const column = (page: Page, status: SeedStatus) => page.locator(`section[data-status-name="${STATUS_NAME[status]}"]`);
const card = (page: Page, status: SeedStatus, title: string) =>
  column(page, status).locator("li[data-task-id]", { hasText: title });

for (const mode of MODES) {
  test.describe(`board ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("add a task, edit it, move it with the plain form, and discuss it", async ({ page, backend, login }) => {
      const team = await seedTeam(backend);
      await login(team.users.member);
      const board = `/teams/${team.slug}/projects/WEB`;
      await page.goto(board);
      await page.getByRole("link", { name: "New task" }).click();
      await expect(page).toHaveURL(new RegExp(`${board}/tasks/new$`));
      const panel = page.getByRole("complementary", { name: "Task" });
      await panel.getByLabel("Title", { exact: true }).fill("Write the launch post");
      await panel.getByLabel("Description", { exact: true }).fill("Line one\nLine two <b>not bold</b>");
      await createLabels(panel, ["launch", "copy"], mode.js);
      await page.getByRole("button", { name: "Create task" }).click();
      await expect(page).toHaveURL(new RegExp(`${board}/tasks/1$`));
      await expect(page.getByText("WEB-1 is created.")).toBeVisible();
      await expect(card(page, "backlog", "Write the launch post")).toBeVisible();
      await expect(page.getByText(`Created by ${team.users.member.displayName}`)).toBeVisible();

      // the task is shown to read; "Edit" opens the form. A rejected edit keeps what was typed
      // (its title opens in place with one click: the field is there, folded)
      await expect(panel.getByLabel("Title", { exact: true })).toBeHidden();
      await panel.getByRole("link", { name: "Edit", exact: true }).click();
      await panel.getByLabel("Title", { exact: true }).fill(" ");
      await panel.getByLabel("Due date", { exact: true }).fill("2099-01-15");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("Enter a title.")).toBeVisible();
      await expect(panel.getByLabel("Due date", { exact: true })).toHaveValue("2099-01-15");

      await panel.getByLabel("Title", { exact: true }).fill("Write the launch blog post");
      await panel.getByLabel("Priority", { exact: true }).selectOption("high");
      // the assignees are checkboxes (several may be chosen): the admin alone
      const assignees = panel.getByRole("group", { name: "Assignees" });
      for (const box of await assignees.getByRole("checkbox").all()) await box.uncheck();
      await assignees.getByLabel(team.users.admin.displayName, { exact: true }).check();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("WEB-1 is saved.")).toBeVisible();
      const edited = card(page, "backlog", "Write the launch blog post");
      await expect(edited.getByText("High")).toBeVisible();
      await expect(edited.getByText(team.users.admin.displayName)).toBeVisible();
      await expect(edited.getByText("Due 15 Jan 2099")).toBeVisible();
      // saved: back to reading, the description rendered, its HTML shown as text
      await expect(panel.locator(".task-description-text")).toHaveText("Line one\nLine two <b>not bold</b>");
      await expect(panel.locator(".task-description-text b")).toHaveCount(0);

      // status and place, as a plain form: any of the project's statuses, in either direction
      await expect(panel.getByLabel("Status", { exact: true }).locator("option")).toHaveText([
        "Backlog (now)",
        "To do",
        "In progress",
        "Done",
        "Canceled",
      ]);
      await panel.getByLabel("Status", { exact: true }).selectOption({ label: "Done" });
      await page.getByRole("button", { name: "Move", exact: true }).click();
      await expect(page.getByText("WEB-1 is in Done.")).toBeVisible();
      await expect(card(page, "done", "Write the launch blog post")).toBeVisible();
      await expect(column(page, "backlog").locator("li[data-task-id]")).toHaveCount(0);
      await panel.getByLabel("Status", { exact: true }).selectOption({ label: "To do" });
      await page.getByRole("button", { name: "Move", exact: true }).click();
      await expect(page.getByText("WEB-1 is in To do.")).toBeVisible();
      await expect(card(page, "todo", "Write the launch blog post")).toBeVisible();

      // comments: post, edit, delete
      await page
        .getByRole("complementary", { name: "Task" })
        .getByLabel("Add a comment")
        .fill("Draft is in the doc.\nReview by Friday?");
      await page.getByRole("button", { name: "Post comment" }).click();
      await expect(page.getByText("Your comment is posted.")).toBeVisible();
      const comment = page.locator("li.comment", { hasText: "Draft is in the doc." });
      await expect(comment.locator(".comment-body")).toHaveText("Draft is in the doc.\nReview by Friday?");
      await comment.getByText("Edit", { exact: true }).click();
      await comment.getByLabel("Your comment").fill("Draft is in the shared doc.");
      await comment.getByRole("button", { name: "Save comment" }).click();
      await expect(page.getByText("Your comment is saved.")).toBeVisible();
      const editedComment = page.locator("li.comment", { hasText: "Draft is in the shared doc." });
      await expect(editedComment.getByText("(edited)")).toBeVisible();
      await editedComment.getByRole("button", { name: "Delete comment" }).click();
      await expect(page.getByText("The comment is deleted.")).toBeVisible();
      await expect(page.locator("li.comment")).toHaveCount(0);
    });

    test("filters live in the URL, and search finds tasks across teams", async ({ page, backend, login }) => {
      const team = await seedTeam(backend, {
        tasks: [
          { title: "Hero banner redesign", status: "todo", labels: ["design"], assignee: "member" },
          { title: "Fix login redirect", labels: ["bug"], assignee: "admin" },
          { title: "Write the changelog", status: "in_progress", description: "Summarise the zeppelin release." },
        ],
      });
      await login(team.users.member);
      const board = `/teams/${team.slug}/projects/WEB`;
      const cards = page.locator("li[data-task-id]");

      await page.goto(`${board}?label=bug`);
      await expect(cards).toHaveCount(1);
      await expect(card(page, "backlog", "Fix login redirect")).toBeVisible();
      await expect(page.getByLabel("Label", { exact: true })).toHaveValue("bug");

      await page.goto(`${board}?q=changelog`);
      await expect(cards).toHaveCount(1);
      await expect(card(page, "in_progress", "Write the changelog")).toBeVisible();

      await page.goto(board);
      await expect(cards).toHaveCount(3);
      await page.getByLabel("Assignee", { exact: true }).selectOption("me");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page).toHaveURL(/assignee=me/);
      await expect(cards).toHaveCount(1);
      await expect(card(page, "todo", "Hero banner redesign")).toBeVisible();
      // a task opened from a filtered board keeps the filter
      await page.getByRole("link", { name: /Hero banner redesign/ }).click();
      await expect(page).toHaveURL(/\/tasks\/1\?assignee=me$/);
      await expect(cards).toHaveCount(1);

      // the header's search box: words in the description count too
      await page.getByRole("searchbox", { name: "Search tasks" }).fill("zeppelin");
      await page.getByRole("searchbox", { name: "Search tasks" }).press("Enter");
      await expect(page).toHaveURL(/\/search\?q=zeppelin$/);
      await page.getByRole("link", { name: "WEB-3 Write the changelog" }).click();
      await expect(page).toHaveURL(new RegExp(`${board}/tasks/3$`));
      await expect(page.getByRole("heading", { name: "WEB-3 Write the changelog" })).toBeVisible();

      // nobody else's tasks
      await page.goto("/search?q=redesign");
      await expect(page.getByRole("link", { name: /Hero banner redesign/ })).toBeVisible();
      await page.context().clearCookies();
      await login(team.outsider);
      await page.goto("/search?q=redesign");
      await expect(page.getByText("No tasks match “redesign”.")).toBeVisible();
    });

    test("a viewer reads the board and the task, as plain text, and can change nothing", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, {
        tasks: [{ title: "Audit the logs", description: "First line\n<script>alert(1)</script> stays text" }],
      });
      await login(team.users.viewer);
      const board = `/teams/${team.slug}/projects/WEB`;
      await page.goto(`${board}/tasks/1`);
      await expect(page.getByRole("heading", { name: "WEB-1 Audit the logs" })).toBeVisible();
      await expect(page.locator(".task-description-text")).toHaveText(
        "First line\n<script>alert(1)</script> stays text",
      );
      await expect(page.locator(".task-description script")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Edit", exact: true })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Preview" })).toHaveCount(0);
      for (const name of ["Save changes", "Move", "Post comment"])
        await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "New task" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: /^Move WEB-/ })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Archive project" })).toHaveCount(0);

      const refused = await page.request.post(`${board}/tasks/1/comments`, {
        form: { intent: "comment", body: "hi" },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      const newTask = await page.request.get(`${board}/tasks/new`, { maxRedirects: 0 });
      expect(newTask.status()).toBe(403);
    });
  });
}

test.describe("board with JavaScript", () => {
  test("move a card with the keyboard; a refused move rolls back with a message", async ({ page, backend, login }) => {
    const team = await seedTeam(backend, {
      tasks: [{ title: "Plan the sprint" }, { title: "Book the room", status: "todo" }],
    });
    await login(team.users.member);
    await page.goto(`/teams/${team.slug}/projects/WEB`);
    const handle = page.getByRole("button", { name: "Move WEB-1" });
    await handle.focus();
    await page.keyboard.press("Enter");
    await expect(handle).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.press("ArrowRight");
    await expect(card(page, "todo", "Plan the sprint")).toBeVisible();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(page.locator("[data-board-announcer]")).toHaveText("Moved WEB-1 to To do.");
    await expect(column(page, "todo").locator("li[data-task-id]")).toHaveText([/Book the room/, /Plan the sprint/]);
    await page.reload();
    await expect(column(page, "todo").locator("li[data-task-id]")).toHaveText([/Book the room/, /Plan the sprint/]);

    // up one place in the same column (once refused as "already there": the stored position was compared, not the new one)
    await page.getByRole("button", { name: "Move WEB-1" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await expect(page.locator("[data-board-announcer]")).toHaveText("Moved WEB-1 to To do.");
    await page.reload();
    await expect(column(page, "todo").locator("li[data-task-id]")).toHaveText([/Plan the sprint/, /Book the room/]);

    // two columns on, past In progress: every move between statuses is allowed
    await page.getByRole("button", { name: "Move WEB-1" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(card(page, "done", "Plan the sprint")).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.locator("[data-board-announcer]")).toHaveText("Moved WEB-1 to Done.");

    // the project is archived meanwhile: the move shows at once, is refused by the server, and is put back
    await backend.admin().from("projects").update({ archived_at: new Date().toISOString() }).eq("id", team.project.id);
    await page.getByRole("button", { name: "Move WEB-1" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowLeft");
    await expect(card(page, "in_progress", "Plan the sprint")).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert")).toContainText(
      "Couldn't move WEB-1: This project is archived; its tasks are read-only.",
    );
    await expect(card(page, "done", "Plan the sprint")).toBeVisible();
    await expect(column(page, "in_progress").locator("li[data-task-id]")).toHaveCount(0);
  });

  test("drag a card into another column, above the card it is dropped on", async ({ page, backend, login }) => {
    const team = await seedTeam(backend, {
      tasks: [
        { title: "Plan the sprint" },
        { title: "Book the room", status: "todo" },
        { title: "Write the agenda", status: "todo" },
      ],
    });
    await login(team.users.member);
    await page.goto(`/teams/${team.slug}/projects/WEB`);
    const todo = column(page, "todo").locator("li[data-task-id]");
    await expect(todo).toHaveText([/Book the room/, /Write the agenda/]);

    // Dropped on the top half of the first card: it goes first.
    await card(page, "backlog", "Plan the sprint").dragTo(card(page, "todo", "Book the room"), {
      targetPosition: { x: 20, y: 4 },
    });
    await expect(todo).toHaveText([/Plan the sprint/, /Book the room/, /Write the agenda/]);
    await expect(column(page, "backlog").locator("li[data-task-id]")).toHaveCount(0);
    // The card moves at once; the server's answer is announced when it lands.
    await expect(page.locator("[data-board-announcer]")).toHaveText("Moved WEB-1 to To do.");
    await page.reload();
    await expect(todo).toHaveText([/Plan the sprint/, /Book the room/, /Write the agenda/]);
  });

  test("nested routes keep the sidebar and the board mounted; back and forward work", async ({
    page,
    backend,
    login,
  }) => {
    const team = await seedTeam(backend, { tasks: [{ title: "First task" }, { title: "Second task" }] });
    await login(team.users.member);
    const board = `/teams/${team.slug}/projects/WEB`;
    await page.goto(board);
    await page.evaluate(() => {
      (window as unknown as { __marker: string }).__marker = "same page";
      document.querySelector<HTMLElement>("[data-team-sidebar]")!.dataset.mark = "kept";
      document.querySelector<HTMLElement>("[data-board]")!.dataset.mark = "kept";
    });
    const still = async () =>
      page.evaluate(() => ({
        marker: (window as unknown as { __marker?: string }).__marker,
        sidebar: document.querySelector<HTMLElement>("[data-team-sidebar]")?.dataset.mark,
        board: document.querySelector<HTMLElement>("[data-board]")?.dataset.mark,
      }));

    await page.getByRole("link", { name: /WEB-1 First task/ }).click();
    await expect(page.getByRole("heading", { name: "WEB-1 First task" })).toBeVisible();
    await page.getByRole("link", { name: /WEB-2 Second task/ }).click();
    await expect(page.getByRole("heading", { name: "WEB-2 Second task" })).toBeVisible();
    expect(await still()).toEqual({ marker: "same page", sidebar: "kept", board: "kept" });

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${board}/tasks/1$`));
    await expect(page.getByRole("heading", { name: "WEB-1 First task" })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole("heading", { name: "WEB-2 Second task" })).toBeVisible();
    await page.getByRole("link", { name: "Close the task" }).click();
    await expect(page).toHaveURL(new RegExp(`${board}$`));
    expect(await still()).toEqual({ marker: "same page", sidebar: "kept", board: "kept" });

    // on a laptop's board the team's navigation is folded into its bar (issue 42)
    await page.locator("summary", { hasText: "Team menu" }).click();
    await page.getByRole("link", { name: "Members" }).click();
    await expect(page.getByRole("heading", { name: "Members" })).toBeVisible();
    expect((await still()).marker).toBe("same page");
    expect((await still()).sidebar).toBe("kept");
  });
});
