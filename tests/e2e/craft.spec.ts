import type { Page } from "@playwright/test";
import { expect, test, type TestUser } from "./fixtures";
import { addComments, seedTeam, type SeededTeam } from "./product-fixtures";

/**
 * Issue 42: what a new team noticed in its first hour, measured in the
 * browser. Grouped so that each page is visited once: the triage views
 * (List, My work) at a laptop's and a phone's width, the header, the new-task
 * keys, Markdown's headings, the notification pages, a repeating task's
 * completion.
 */

/** How much wider than the screen the document is (0 when it fits). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** A calendar date in a zone ("2026-12-07"), `days` from today. */
function dayIn(zone: string, days = 0) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date(Date.now() + days * 86_400_000));
}

async function setDue(backend: Parameters<typeof seedTeam>[0], team: SeededTeam, index: number, day: string) {
  const { error } = await backend
    .admin()
    .from("tasks")
    .update({ due_on: day } as never)
    .eq("id", team.tasks[index].id);
  if (error) throw error;
}

async function setZone(backend: Parameters<typeof seedTeam>[0], user: TestUser, zone: string) {
  const { error } = await backend
    .admin()
    .auth.admin.updateUserById(user.id, { user_metadata: { display_name: user.displayName, time_zone: zone } });
  if (error) throw error;
}

test("List and My work fit 1280 and 390 px, say Overdue, open a task from its title; My work has no Assignee column of mine", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, {
    tasks: [
      {
        title: "Reconcile the quarterly invoices of every supplier we had this year",
        status: "todo",
        assignee: "member",
        labels: ["finance", "urgent-review"],
      },
      { title: "Print the posters", status: "in_progress", assignee: "member", labels: ["design"] },
      { title: "Ship the newsletter", status: "done", assignee: "member" },
    ],
  });
  await setDue(backend, team, 0, dayIn("UTC", -2)); // overdue
  await setDue(backend, team, 1, dayIn("UTC", 1));
  await setDue(backend, team, 2, dayIn("UTC", -3)); // done: never overdue
  await login(team.users.member);
  const list = `/teams/${team.slug}/projects/WEB/list`;

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of [list, "/my-work"]) {
      await page.goto(path);
      expect(await sidewaysOverflow(page), `${path} at ${width} px scrolls sideways by`).toBe(0);
      const table = page.locator("table.task-table").first();
      const overdueRow = table.locator("tr", { hasText: "Reconcile the quarterly" });
      await expect(overdueRow.locator(".overdue-badge")).toHaveText("Overdue");
      await expect(table.locator("tr", { hasText: "Print the posters" }).locator(".overdue-badge")).toHaveCount(0);
      if (width === 1280) {
        // the key on one line: its link's box is one line high
        const key = overdueRow.getByRole("link", { name: /^WEB-1$/ });
        const lines = await key.evaluate((a) => a.getClientRects().length);
        expect(lines, `${path}: the key's lines`).toBe(1);
        // the whole table within its box (Last change not cut off), its last column on screen
        for (const each of await page.locator("table.task-table").all()) {
          const [inner, outer] = await each.evaluate((el) => [el.scrollWidth, el.parentElement!.clientWidth]);
          expect(inner, `${path}: a table's width against its box's`).toBeLessThanOrEqual(outer);
        }
        const last = await table.getByRole("columnheader", { name: /Last change/ }).boundingBox();
        expect(last!.x + last!.width, `${path}: Last change's right edge`).toBeLessThanOrEqual(width);
      }
    }
  }
  // My work's own lists: the assignee is always me, so no such column; watching and created keep it
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/my-work");
  const assigned = page.getByRole("table", { name: "Assigned to me" });
  await expect(assigned.getByRole("columnheader", { name: "Key" })).toBeVisible();
  await expect(assigned.getByRole("columnheader", { name: /Assignee/ })).toHaveCount(0);
  await expect(
    page.getByRole("table", { name: "Due within 7 days or overdue" }).getByRole("columnheader", { name: /Assignee/ }),
  ).toHaveCount(0);
  // the title opens the task too
  await assigned.getByRole("link", { name: "Print the posters" }).click();
  await expect(page).toHaveURL(new RegExp(`/teams/${team.slug}/projects/WEB/tasks/2$`));

  // the header: one link per list item, with room between them
  const main = page.getByRole("navigation", { name: "Main" });
  const items = await main.locator("li").evaluateAll((lis) => lis.map((li) => li.querySelectorAll("a").length));
  expect(
    items.filter((n) => n > 1),
    "list items holding more than one link",
  ).toEqual([]);
  const calendar = (await main.getByRole("link", { name: "Calendar" }).boundingBox())!;
  const myWork = (await main.getByRole("link", { name: "My work" }).boundingBox())!;
  expect(myWork.x - (calendar.x + calendar.width)).toBeGreaterThanOrEqual(8);
});

test("c opens a new task with the title focused; Escape closes it while nothing is typed", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, {
    tasks: [
      { title: "Plan", description: "# Goal\n\n## Plan\n\n### Steps\n\nBody text of the plan." },
      { title: "Second" },
    ],
  });
  // the backlog over a WIP limit of 1
  const { error } = await backend
    .admin()
    .from("project_statuses")
    .update({ wip_limit: 1 } as never)
    .eq("project_id", team.project.id)
    .eq("name", "Backlog");
  if (error) throw error;
  await login(team.users.member);
  const board = `/teams/${team.slug}/projects/WEB`;

  // Markdown's headings (h4–h6 on the page) are never smaller than the text beside them
  await page.goto(`${board}/tasks/1`);
  const text = page.locator(".rich-text").first();
  await expect(text.getByRole("heading", { name: "Plan" })).toBeVisible();
  const sizes = await text.evaluate((el) =>
    [...el.querySelectorAll("h4, h5, h6, p")].map((node) => ({
      tag: node.tagName,
      size: parseFloat(getComputedStyle(node).fontSize),
    })),
  );
  const body = sizes.find((s) => s.tag === "P")!.size;
  for (const heading of sizes.filter((s) => s.tag !== "P"))
    expect(heading.size, `${heading.tag} against ${body} px text`).toBeGreaterThanOrEqual(body);
  const [h4, h5] = sizes.filter((s) => s.tag !== "P");
  expect(h4.size).toBeGreaterThan(h5.size);

  await page.goto(board);
  await expect(page.getByRole("link", { name: "New task" })).toBeVisible();
  // over its WIP limit: the column's heading is tinted, the column itself not outlined
  const over = page.locator("section.board-column.over-wip");
  await expect(over).toHaveCount(1);
  expect(await over.evaluate((el) => getComputedStyle(el).boxShadow)).toBe("none");
  expect(await over.locator(".column-heading").evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
    "rgba(0, 0, 0, 0)",
  );
  await page.locator("body").press("c");
  await expect(page).toHaveURL(new RegExp(`${board}/tasks/new$`));
  const title = page.getByRole("textbox", { name: "Title" });
  await expect(title).toBeFocused();
  await title.press("Escape");
  await expect(page).toHaveURL(new RegExp(`${board}$`));

  // something typed: Escape keeps it
  await page.locator("body").press("c");
  await expect(title).toBeFocused();
  await title.fill("Half a thought");
  await title.press("Escape");
  await expect(page).toHaveURL(new RegExp(`${board}/tasks/new$`));
  await expect(title).toHaveValue("Half a thought");
});

test("notifications: a reminder says what is due when, excerpts are plain text; the digest's hour is in my zone", async ({
  page,
  backend,
  login,
}) => {
  // a zone where it is past 08:00 and not yet late (reminders go from 08:00), whenever this runs
  const hourIn = (z: string) =>
    Number(new Intl.DateTimeFormat("en-GB", { timeZone: z, hour: "numeric", hourCycle: "h23" }).format(new Date()));
  const zone = [
    "Europe/Berlin",
    "America/New_York",
    "America/Los_Angeles",
    "Pacific/Auckland",
    "Asia/Tokyo",
    "Asia/Kolkata",
  ].find((z) => hourIn(z) >= 9 && hourIn(z) <= 21)!;
  const team = await seedTeam(backend, {
    tasks: [
      { title: "Send the invoices", status: "todo", assignee: "member" },
      { title: "Book the room", status: "todo", assignee: "member" },
    ],
  });
  const member = team.users.member;
  await setZone(backend, member, zone);
  await setDue(backend, team, 0, dayIn(zone));
  await setDue(backend, team, 1, dayIn(zone, 1));
  const { data: profile } = await backend.admin().from("profiles").select("username").eq("id", member.id).single();
  const username = (profile as { username: string }).username;
  await addComments(
    backend,
    team.tasks[0].id,
    team.owner,
    1,
    () =>
      `Hi @${username}, see ![pasted.png](/attachments/00000000-0000-4000-8000-000000000000)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [ ] **check** the [list](https://example.com)`,
  );
  // the reminders, made by their job run now
  const run = await fetch(`${backend.env.apiUrl}/_stack/cron/jobs/due-reminders/run`, {
    method: "POST",
    headers: { apikey: backend.env.serviceRoleKey, authorization: `Bearer ${backend.env.serviceRoleKey}` },
  });
  expect(run.status).toBe(200);

  await login(member);
  await page.goto("/notifications");
  const items = page.locator("li.notification");
  await expect(items.filter({ hasText: "Send the invoices is due today" })).toHaveCount(1);
  await expect(items.filter({ hasText: "Book the room is due tomorrow" })).toHaveCount(1);
  await expect(items.locator("a").filter({ hasText: "due soon" })).toHaveCount(0);
  for (const link of await items.locator("a").allInnerTexts()) expect(link.trim()).not.toMatch(/^(Unread: )?is /);
  // the comment's excerpt (a mention and a comment on my task: one or two notifications), as plain text
  const quotes = page.locator(".notification-quote");
  await expect(quotes.first()).toBeVisible();
  for (const quote of await quotes.allInnerTexts())
    expect(quote).toBe(`Hi @${member.displayName}, see pasted.png a b 1 2 ☐ check the list`);

  await page.goto("/account/notifications");
  await expect(page.getByText(/the digest comes at 08:00/)).toContainText(zone);
  await expect(page.getByText(/until you can set your time zone/)).toHaveCount(0);
});

test("completing a repeating task says where the next one went, with a link to it", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Water the plants", status: "todo" }] });
  const due = dayIn("UTC", 2);
  const { error } = await backend
    .admin()
    .from("tasks")
    .update({ due_on: due, recurrence: "FREQ=DAILY;INTERVAL=1" } as never)
    .eq("id", team.tasks[0].id);
  if (error) throw error;
  await login(team.users.member);
  await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
  const panel = page.getByRole("complementary", { name: "Task" });
  await panel.getByLabel("Status", { exact: true }).selectOption({ label: "Done" });
  await panel.getByRole("button", { name: "Move", exact: true }).click();
  const next = new Date(Date.parse(due) + 86_400_000);
  const month = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ")[next.getUTCMonth()];
  const words = `${next.getUTCDate()} ${month} ${next.getUTCFullYear()}`;
  await expect(page.getByText(`WEB-1 is in Done. The next one, WEB-2, is due ${words} in To do.`)).toBeVisible();
  await page.getByRole("link", { name: "Open WEB-2" }).click();
  await expect(page).toHaveURL(new RegExp(`/teams/${team.slug}/projects/WEB/tasks/2$`));
  await expect(page.getByRole("heading", { name: /WEB-2 Water the plants/ })).toBeVisible();
});

test.describe("the phone board", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the first card is within the first screen, the move hint behind ?, the switcher breaks no word", async ({
    page,
    backend,
    login,
  }) => {
    const team = await seedTeam(backend, {
      tasks: [{ title: "Reconcile quarterly invoices" }, { title: "Order the banners", status: "in_progress" }],
    });
    await login(team.users.member);
    await page.goto(`/teams/${team.slug}/projects/WEB`);
    const card = page.locator("li[data-task-id]").first();
    await expect(card).toBeVisible();
    expect((await card.boundingBox())!.y, "the first card's top").toBeLessThanOrEqual(400);
    // each word of a column's name on one line ("In progress", never "In progres s")
    const split = await page
      .getByRole("navigation", { name: "Columns" })
      .locator(".column-switch-label")
      .evaluateAll((labels) =>
        labels.flatMap((label) => {
          const text = label.firstChild!;
          const words: string[] = [];
          for (const m of (text.textContent ?? "").matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(text, m.index);
            range.setEnd(text, m.index + m[0].length);
            if (range.getClientRects().length > 1) words.push(m[0]);
          }
          return words;
        }),
      );
    expect(split, "words broken across lines").toEqual([]);
    // the hint, when asked for
    const hint = page.getByText("Tap or click a card’s ⠿ button");
    for (const shown of await hint.all()) await expect(shown).toBeHidden();
    await page.getByTitle("How to move cards").click();
    await expect(hint.locator("visible=true")).toBeInViewport();
  });
});

test("the @mention list opens at the caret, wholly on screen, even with the box at the screen's bottom", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Print the posters" }] });
  await login(team.owner);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/teams/${team.slug}/projects/WEB/tasks/1`);
  const box = page.getByRole("complementary", { name: "Task" }).getByLabel("Add a comment");
  await box.fill(Array.from({ length: 6 }, (_, i) => `Line ${i + 1}`).join("\n") + "\n");
  // the box's bottom at the screen's bottom, where a list drawn below it would be out of sight
  await box.evaluate((el) => el.scrollIntoView({ block: "end" }));
  await box.press("End");
  await box.pressSequentially("Over to @mia");
  const list = page.getByRole("listbox", { name: "People to mention" });
  await expect(list.getByRole("option").first()).toBeVisible();
  await expect(list).toBeInViewport({ ratio: 1 });
  const [area, shown] = [(await box.boundingBox())!, (await list.boundingBox())!];
  // beside the text being typed, not below the box (under its Preview button)
  expect(shown.y).toBeLessThan(area.y + area.height);
  expect(shown.y + shown.height).toBeGreaterThan(area.y);
});

test("the task panel is edited in place; labels are picked from the team's, in their colours, found and created", async ({
  page,
  backend,
  login,
}) => {
  const team = await seedTeam(backend, {
    tasks: [
      // set_task_labels colours new labels in turn: design blue, bug green
      { title: "Draw the poster", labels: ["design", "bug"] },
      { title: "Print the posters" },
    ],
  });
  const { error } = await backend
    .admin()
    .from("checklist_items")
    .insert([
      { task_id: team.tasks[1].id, project_id: team.project.id, title: "Pick the paper", position: 0 },
    ] as never);
  if (error) throw error;
  await login(team.users.member);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/teams/${team.slug}/projects/WEB/tasks/2`);
  const panel = page.getByRole("complementary", { name: "Task" });

  // readable first: the status once (its own select, in the facts), no "Change" under checklist items,
  // no "Comments (0)" over the events
  await expect(panel.getByLabel("Status", { exact: true })).toHaveCount(1);
  await expect(panel.locator(".task-facts").getByLabel("Status", { exact: true })).toBeVisible();
  await expect(panel.getByText("Change", { exact: true })).toHaveCount(0);
  await expect(panel.getByRole("heading", { name: "Activity", exact: true })).toBeVisible();
  await expect(panel.getByRole("form", { name: "Change the priority" })).toBeHidden();

  // one click on a value opens its form; Save posts that field alone
  await panel.locator(".task-facts summary", { hasText: "change the priority" }).click();
  const priority = panel.getByRole("form", { name: "Change the priority" });
  await priority.getByLabel("Priority", { exact: true }).selectOption("high");
  await priority.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("WEB-2 is saved.")).toBeVisible();
  await expect(priority).toBeHidden();
  await expect(panel.locator(".task-facts")).toContainText("High");

  await panel.getByRole("heading", { name: /WEB-2 Print the posters/ }).click();
  const title = panel.getByRole("form", { name: "Change the title" });
  await title.getByLabel("Title", { exact: true }).fill("Print the big posters");
  await title.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByRole("heading", { name: /WEB-2 Print the big posters/ })).toBeVisible();

  await panel.locator(".checklist-items summary", { hasText: "Pick the paper" }).click();
  const item = panel.getByRole("form", { name: "Edit “Pick the paper”" });
  await item.getByLabel("Item", { exact: true }).fill("Pick the matte paper");
  await item.getByRole("button", { name: "Save" }).click();
  await expect(panel.locator(".checklist-items")).toContainText("Pick the matte paper");

  // the labels: the team's with their colours, a search that narrows them, Create for a new one
  await panel.locator(".task-facts summary", { hasText: "change the labels" }).click();
  const labels = panel.getByRole("form", { name: "Change the labels" });
  await expect(labels.locator(".label", { hasText: "design" })).toHaveClass(/color-blue/);
  await expect(labels.locator(".label", { hasText: "bug" })).toHaveClass(/color-green/);
  const search = labels.getByLabel("Find a label", { exact: true });
  await search.fill("DES");
  await expect(labels.getByRole("checkbox", { name: "bug" })).toBeHidden();
  await labels.getByRole("checkbox", { name: "design" }).check();
  // a typo in the search makes nothing unless Create is chosen
  await search.fill("desgin");
  await expect(labels.getByRole("button", { name: "Create “desgin”" })).toBeVisible();
  await search.fill("print");
  await labels.getByRole("button", { name: "Create “print”" }).click();
  await expect(labels.getByRole("checkbox", { name: "print" })).toBeChecked();
  await search.fill("");
  await labels.getByRole("button", { name: "Save" }).click();
  await expect(panel.locator(".task-facts .labels li")).toHaveText(["design", "print"]);
  const { data: made } = await backend.admin().from("labels").select("name").eq("team_id", team.id);
  expect((made as Array<{ name: string }>).map((l) => l.name).sort()).toEqual(["bug", "design", "print"]);
});

test.describe("removing a status without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("asks first, and a refusal with no tasks to move is said", async ({ page, backend, login }) => {
    const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite" }] });
    await login(team.owner);
    await page.goto(`/teams/${team.slug}/projects/WEB/settings`);
    await page.locator("summary", { hasText: /^Change Done$/ }).click();
    const remove = page.getByRole("button", { name: "Remove Done", exact: true });
    await expect(remove).toBeHidden();
    await page.locator("summary", { hasText: "Remove Done…" }).click();
    await remove.click();
    // the project's only done status, with no tasks: refused, and the reason is on the page
    await expect(page.getByRole("alert").filter({ hasText: "at least one open and one done status" })).toBeVisible();
  });
});
