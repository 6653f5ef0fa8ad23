import { expect, MODES, test, type Mail } from "./fixtures";
import { seedTeam } from "./product-fixtures";

/**
 * docs/product.md §10 in one flow per JavaScript mode: Olive comments on a task
 * (mentioning Mia) and assigns it to her; Mia's bell counts it (live with
 * JavaScript, on reload without); /notifications opens the task and marks
 * it read; the email arrives (the scheduler's run is made here with the
 * function's own call, 60 s later by its clock) with a link to the task and
 * a one-click unsubscribe link that works without signing in, once.
 */
// One after the other, not side by side: each mode's scheduler run (a minute ahead
// by its clock) would also email the other mode's Mia her notification while it is
// still unread, before the other test reads it in the app.
test.describe.configure({ mode: "default" });

for (const mode of MODES) {
  test.describe(`notifications ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("a comment and an assignment reach the other person's bell, /notifications and inbox", async ({
      browser,
      backend,
      page,
      login,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Print the posters", status: "todo" }] });
      const olive = team.owner;
      const mia = team.users.member;
      const { data: profile } = await backend.admin().from("profiles").select("username").eq("id", mia.id).single();
      const username = (profile as { username: string }).username;
      const taskPath = `/teams/${team.slug}/projects/WEB/tasks/1`;

      const miaContext = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      await login(mia, miaContext);
      const miaPage = await miaContext.newPage();
      await miaPage.goto(`/teams/${team.slug}`);
      const bell = miaPage.getByRole("banner").getByRole("link", { name: /^Notifications/ });
      await expect(bell).toHaveAccessibleName("Notifications");
      if (mode.js) await expect(bell).toHaveAttribute("data-live", "subscribed");

      await login(olive);
      await page.goto(taskPath);
      const panel = page.getByRole("complementary", { name: "Task" });
      const box = panel.getByLabel("Add a comment");
      if (mode.js) {
        // the combobox after @: pick Mia from the list with the keyboard
        await box.pressSequentially("Could you take this, @mia");
        const option = panel
          .getByRole("listbox", { name: "People to mention" })
          .getByRole("option", { name: new RegExp(mia.displayName) });
        await expect(option).toBeVisible();
        await expect(box).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id"))!);
        await box.press("Enter");
        await expect(box).toHaveValue(`Could you take this, @${username} `);
        await box.pressSequentially("please?");
      } else {
        await box.fill(`Could you take this, @${username} please?`);
      }
      await panel.getByRole("button", { name: "Post comment" }).click();
      const comment = panel.locator("li.comment", { hasText: "Could you take this" });
      await expect(comment.locator(".mention")).toHaveText(`@${mia.displayName}`);

      // Mia's bell: live with JavaScript, after a reload without
      if (!mode.js) await miaPage.reload();
      await expect(bell).toHaveAccessibleName("Notifications, 1 unread");

      // the task is shown to read; "Edit" opens its form (issue 28)
      await panel.getByRole("link", { name: "Edit", exact: true }).click();
      await panel.getByRole("group", { name: "Assignees" }).getByLabel(mia.displayName, { exact: true }).check();
      await panel.getByRole("button", { name: "Save changes" }).click();
      await expect(panel.locator(".timeline-event").last()).toContainText(`assigned this to ${mia.displayName}`);
      if (!mode.js) await miaPage.reload();
      await expect(bell).toHaveAccessibleName("Notifications, 2 unread");

      // /notifications: newest first; opening one goes to the task and marks it read
      await bell.click();
      await expect(miaPage.getByRole("heading", { name: "Notifications" })).toBeVisible();
      const items = miaPage.locator(".notification-list > li");
      await expect(items).toHaveText([
        new RegExp(`Unread: ${olive.displayName} assigned you WEB-1 Print the posters`),
        new RegExp(`Unread: ${olive.displayName} mentioned you on WEB-1 Print the posters`),
      ]);
      await items.first().getByRole("link").click();
      await expect(miaPage).toHaveURL(new RegExp(`${taskPath}$`));
      await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
      await miaPage.goto("/notifications?show=unread");
      await expect(items).toHaveCount(1);
      await miaPage.getByRole("button", { name: "Mark all as read" }).click();
      await expect(miaPage.getByText("Nothing unread.")).toBeVisible();
      await expect(bell).toHaveAccessibleName("Notifications");

      // the email: what the scheduler's next run sends (both were read in the app: nothing to Mia;
      // the run also sends what other specs on this stack left pending, so Mia's inbox is what counts)
      expect((await sendNotifications(backend.env)).failed).toBe(0);
      const toMia = await fetch(
        `${backend.env.inboxUrl}/api/v1/search?query=${encodeURIComponent(`to:"${mia.email}"`)}`,
      ).then((r) => r.json() as Promise<{ messages: Array<{ Subject: string }> }>);
      expect(toMia.messages.filter((m) => /WEB-1/.test(m.Subject))).toEqual([]);
      await page.reload();
      await panel.getByLabel("Add a comment").fill(`@${username} the printer is booked for Friday.`);
      await panel.getByRole("button", { name: "Post comment" }).click();
      await expect(panel.locator("li.comment", { hasText: "the printer is booked" })).toBeVisible();
      expect(await sendNotifications(backend.env)).toMatchObject({ failed: 0 });
      const mail: Mail = await backend.mailbox(mia.email).next(/mentioned you on WEB-1/);
      expect(mail.text).toContain("the printer is booked for Friday.");
      const headers = (await (
        await fetch(`${backend.env.inboxUrl}/api/v1/message/${mail.id}/headers`)
      ).json()) as Record<string, string[]>;
      const unsubscribe = /<([^>]+)>/.exec(headers["List-Unsubscribe"][0])![1];
      expect(headers["List-Unsubscribe-Post"]).toEqual(["List-Unsubscribe=One-Click"]);
      expect(mail.text).toContain(unsubscribe);

      const link = /(http\S+\/tasks\/1)\b/.exec(mail.text)![1];
      await miaPage.goto(link);
      await expect(miaPage.getByRole("heading", { name: /WEB-1\s+Print the posters/ })).toBeVisible();

      // the unsubscribe link, in a browser nobody is signed in to
      const anonymous = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      const stranger = await anonymous.newPage();
      await stranger.goto(unsubscribe);
      await stranger.getByRole("button", { name: "Unsubscribe" }).click();
      await expect(stranger.getByRole("status")).toHaveText(
        "You're unsubscribed. We won't email you about mentions of you any more.",
      );
      await stranger.goto(unsubscribe);
      await expect(stranger.getByRole("status")).toHaveText("You're already unsubscribed from these emails.");
      await miaPage.goto("/account/notifications");
      await expect(miaPage.getByLabel("Someone mentions me")).toHaveValue("never");
      await anonymous.close();
      await miaContext.close();
    });
  });
}

/** The scheduler's call to send-notifications, as of a minute from now (past the batching window). */
async function sendNotifications(env: { apiUrl: string; serviceRoleKey: string }) {
  const res = await fetch(`${env.apiUrl}/functions/v1/send-notifications`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.serviceRoleKey}`, "content-type": "application/json" },
    body: JSON.stringify({ now: new Date(Date.now() + 60_000).toISOString() }),
  });
  expect(res.status).toBe(200);
  return res.json();
}
