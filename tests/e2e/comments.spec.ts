import { expect, MODES, test } from "./fixtures";
import { addComments, seedTeam } from "./product-fixtures";

for (const mode of MODES) {
  test.describe(`comments ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("a rejected comment or edit says why beside its field, and the task's own forms still work after it", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite" }] });
      await addComments(backend, team.tasks[0].id, team.users.member, 1, () => "Book the venue first.");
      await login(team.users.member);
      await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
      const panel = page.getByRole("complementary", { name: "Task" });

      // an empty new comment
      await panel.getByLabel("Add a comment").fill("   ");
      await panel.getByRole("button", { name: "Post comment" }).click();
      await expect(panel.getByRole("form", { name: "New comment" }).getByText("Write a comment.")).toBeVisible();
      // the page lands at the field with the message (without JavaScript, a whole new page), not at its top
      await expect(panel.getByLabel("Add a comment")).toBeFocused();
      await expect(panel.getByLabel("Add a comment")).toBeInViewport();
      await expect(panel.getByRole("heading", { name: "WEB-1 Plan the offsite" })).toBeVisible();

      // an edit emptied: the message goes beside that comment's field
      const existing = panel.locator("li.comment", { hasText: "Book the venue first." });
      await existing.getByText("Edit", { exact: true }).click();
      await existing.getByLabel("Your comment").fill("");
      await existing.getByRole("button", { name: "Save comment" }).click();
      await expect(existing.getByText("Write a comment.")).toBeVisible();
      await expect(panel.locator("li.comment")).toHaveCount(1);

      // the task's fields still save from this page
      await panel.getByRole("link", { name: "Edit", exact: true }).click();
      await panel.getByLabel("Title", { exact: true }).fill("Plan the team offsite");
      await panel.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("WEB-1 is saved.")).toBeVisible();
      await expect(page).toHaveURL(/\/tasks\/1$/);
      await expect(panel.getByRole("heading", { name: "WEB-1 Plan the team offsite" })).toBeVisible();

      await panel.getByLabel("Add a comment").fill("Venue booked.");
      await panel.getByRole("button", { name: "Post comment" }).click();
      await expect(page.getByText("Your comment is posted.")).toBeVisible();
      await expect(panel.locator("li.comment").last()).toContainText("Venue booked.");
    });

    test("a posted comment is where the page lands, below a long timeline", async ({ page, backend, login }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite" }] });
      await addComments(
        backend,
        team.tasks[0].id,
        team.users.admin,
        20,
        (n) => `Earlier note ${n}\n\nwith a second paragraph`,
      );
      await login(team.users.member);
      await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1?q=offsite`);
      const panel = page.getByRole("complementary", { name: "Task" });

      await panel.getByLabel("Add a comment").fill("Venue booked for the 12th.");
      await panel.getByRole("button", { name: "Post comment" }).click();
      await expect(page.getByText("Your comment is posted.")).toBeVisible();
      const posted = panel.locator("li.comment", { hasText: "Venue booked for the 12th." });
      await expect(posted).toBeInViewport();
      // the board's filter stays, and the address names the comment (a link to it)
      const id = await posted.getAttribute("data-comment-id");
      await expect(page).toHaveURL(new RegExp(`/tasks/1\\?q=offsite#comment-${id}$`));
      // the form is empty, ready for the next one
      await expect(panel.getByLabel("Add a comment")).toHaveValue("");
    });
  });
}
