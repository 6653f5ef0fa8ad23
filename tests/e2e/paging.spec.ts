import type { Page } from "@playwright/test";
import { expect, MODES, test } from "./fixtures";
import { addComments, addMembers, createTeams, seedTeam } from "./product-fixtures";

/** With JavaScript, paging must stay inside the page: a marker on window and on the layout survives. */
async function markPage(page: Page, selector: string) {
  await page.evaluate((sel) => {
    (window as unknown as { __marker: string }).__marker = "same page";
    document.querySelector<HTMLElement>(sel)!.dataset.mark = "kept";
  }, selector);
}
async function stillSamePage(page: Page, selector: string) {
  return page.evaluate(
    (sel) => ({
      marker: (window as unknown as { __marker?: string }).__marker,
      mark: document.querySelector<HTMLElement>(sel)?.dataset.mark,
    }),
    selector,
  );
}

for (const mode of MODES) {
  test.describe(`paging ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("a task's timeline shows the latest 50, earlier ones a link away, and the way back", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Long discussion" }] });
      await addComments(backend, team.tasks[0].id, team.users.member, 205);
      await login(team.users.member);
      await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
      const panel = page.getByRole("complementary", { name: "Task" });
      const comments = panel.locator("li.comment");

      // the comments are dated 2025 (addComments): the newest item is the task's creation, today
      await expect(panel.getByRole("heading", { name: "Activity · 205 comments" })).toBeVisible();
      await expect(panel.locator(".comment-list > li").last()).toContainText("created this");
      await expect(comments).toHaveCount(49);
      await expect(comments.first()).toContainText("Comment 157");
      await expect(comments.last()).toContainText("Comment 205");
      if (mode.js) await markPage(page, "[data-board]");
      const since = Date.now();

      await panel.getByRole("link", { name: "Show earlier" }).click();
      await expect(page).toHaveURL(/\/tasks\/1\?timeline\.before=/);
      await expect(panel.getByRole("heading", { name: "Earlier activity" })).toBeVisible();
      await expect(comments).toHaveCount(50);
      await expect(comments.first()).toContainText("Comment 107");
      await expect(comments.last()).toContainText("Comment 156");
      if (mode.js) {
        expect(await stillSamePage(page, "[data-board]")).toEqual({ marker: "same page", mark: "kept" });
        // one page of the timeline was read (the task panel's one request), and the board wasn't read again
        const logged = await backend.requests(since);
        // (other tests' requests are in the log too: theirs name other teams)
        const mine = (path: string) => logged.filter((r) => r.path === path && r.search.includes(`=${team.slug}&`));
        expect(mine("/rest/v1/rpc/task_panel")).toHaveLength(1);
        expect(mine("/rest/v1/rpc/board_view")).toHaveLength(0);
      }

      // the author edits an earlier comment and stays on its page
      const old = comments.filter({ hasText: "Comment 108" });
      await old.getByText("Edit", { exact: true }).click();
      await old.getByLabel("Your comment").fill("Comment 108, corrected");
      await old.getByRole("button", { name: "Save comment" }).click();
      await expect(page.getByText("Your comment is saved.")).toBeVisible();
      await expect(comments).toHaveCount(50);
      await expect(comments.nth(1)).toContainText("Comment 108, corrected");

      await panel.getByRole("link", { name: "Back to the latest" }).click();
      await expect(panel.getByRole("heading", { name: "Activity · 205 comments" })).toBeVisible();
      await expect(comments.last()).toContainText("Comment 205");
      if (mode.js) expect(await stillSamePage(page, "[data-board]")).toEqual({ marker: "same page", mark: "kept" });
    });

    test("the members page lists 50 at a time, with next and previous pages", async ({ page, backend, login }) => {
      const team = await seedTeam(backend);
      // 4 seeded + 47 = 51 members: the owner, admin, member, then viewers by name; "Vic Viewer" sorts after every "Extra Viewer"
      await addMembers(backend, team.id, 47, { name: (n) => `Extra Viewer ${String(n).padStart(2, "0")}` });
      await login(team.users.member);
      await page.goto(`/teams/${team.slug}/members`);
      const rows = page.locator(".members-table tbody tr");
      await expect(rows).toHaveCount(50);
      await expect(rows.first()).toContainText(team.owner.displayName);
      await expect(rows.last()).toContainText("Extra Viewer 47");
      await expect(page.getByRole("link", { name: "← Previous page" })).toHaveCount(0);
      if (mode.js) await markPage(page, "[data-team-sidebar]");

      await page.getByRole("navigation", { name: "Members pages" }).getByRole("link", { name: "Next page →" }).click();
      await expect(page).toHaveURL(/\/members\?page=2$/);
      await expect(rows).toHaveCount(1);
      await expect(
        page
          .getByRole("row", { name: new RegExp(team.users.viewer.displayName) })
          .getByRole("cell", { name: "Viewer", exact: true }),
      ).toBeVisible();
      await expect(page.getByText("Page 2")).toBeVisible();
      await expect(page.getByRole("link", { name: "Next page →" })).toHaveCount(0);
      if (mode.js)
        expect(await stillSamePage(page, "[data-team-sidebar]")).toEqual({ marker: "same page", mark: "kept" });

      await page.getByRole("link", { name: "← Previous page" }).click();
      await expect(page).toHaveURL(/\/members$/);
      await expect(rows).toHaveCount(50);
    });

    test("my teams are listed 50 to a page", async ({ page, backend, login, signUp }) => {
      const user = await signUp();
      await createTeams(backend, user, 51, (n) => `Paged Team ${String(n).padStart(2, "0")}`);
      await login(user);
      await page.goto("/teams");
      const teams = page.getByRole("list", { name: "Your teams" }).getByRole("listitem");
      await expect(teams).toHaveCount(50);
      await expect(teams.first()).toContainText("Paged Team 01");
      await expect(teams.last()).toContainText("Paged Team 50");

      await page.getByRole("navigation", { name: "Team pages" }).getByRole("link", { name: "Next page →" }).click();
      await expect(page).toHaveURL(/\/teams\?page=2$/);
      await expect(teams).toHaveText([/Paged Team 51/]);
      await page.getByRole("link", { name: "Paged Team 51" }).click();
      await expect(page.getByRole("heading", { name: "Paged Team 51" })).toBeVisible();
    });
  });
}

test("the sidebar lists the first 50 projects and links to all of them, a page at a time", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, { projectKey: "AAA", projectName: "Aardvark" });
  const keys = Array.from(
    { length: 51 },
    (_, i) => `PG${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`,
  );
  const { error } = await backend
    .admin()
    .from("projects")
    .insert(keys.map((key, i) => ({ team_id: team.id, key, name: `Project ${String(i + 1).padStart(2, "0")}` })));
  expect(error).toBeNull();
  await login(team.users.member);
  await page.goto(`/teams/${team.slug}`);
  const sidebar = page.getByRole("navigation", { name: "Projects" });
  await expect(sidebar.getByRole("listitem")).toHaveCount(50);
  await expect(sidebar.getByRole("link", { name: "PGBY Project 51" })).toHaveCount(0);

  await sidebar.getByRole("link", { name: "All projects" }).click();
  await expect(page.getByRole("heading", { name: "Active projects" })).toBeVisible();
  await page.getByRole("navigation", { name: "Project pages" }).getByRole("link", { name: "Next page →" }).click();
  await expect(page).toHaveURL(/\/projects\?page=2$/);
  const main = page.locator(".projects-page");
  await expect(main.getByRole("listitem")).toHaveText([/Project 50/, /Project 51/]);
  await main.getByRole("link", { name: "PGBY Project 51" }).click();
  await expect(page.getByRole("heading", { name: "PGBY Project 51" })).toBeVisible();
});
