import type { Page } from "@playwright/test";
import ICAL from "ical.js";
import { expect, MODES, test } from "./fixtures";
import { seedTeam } from "./product-fixtures";

/** docs/product.md §12 in the browser: a time zone, the project's calendar, moving a task between days, the feed. */

const ZONE = "Pacific/Kiritimati"; // UTC+14: its today is often not the machine's
const todayIn = (zone: string) => new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(Date.now());
const plusDays = (day: string, days: number) =>
  new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
/** "26 Nov 2026": a day as the app prints it (British English, as Node's ICU writes it). */
const shortDay = (day: string) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(
    Date.parse(day),
  );
const dayCell = (page: Page, day: string) => page.locator(`li[data-day="${day}"]`);

for (const mode of MODES) {
  test.describe(`time ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("choose a time zone; the project's calendar shows today's task on today in it, the next month's behind a link", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, {
        tasks: [
          { title: "Due today over there", status: "todo", assignee: "member" },
          { title: "Due next month", status: "todo" },
          { title: "Was due last week", status: "todo" },
        ],
      });
      const today = todayIn(ZONE);
      const nextMonth = `${plusDays(`${today.slice(0, 7)}-01`, 40).slice(0, 7)}-15`;
      const admin = backend.admin();
      const [first, second, third] = team.tasks;
      await admin.from("tasks").update({ due_on: today }).eq("id", first.id);
      // it starts two days before (§17): the calendar draws it from there
      await admin
        .from("tasks")
        .update({ due_on: nextMonth, start_on: plusDays(nextMonth, -2), due_time: "09:30" })
        .eq("id", second.id);
      await admin
        .from("tasks")
        .update({ due_on: plusDays(today, -7) })
        .eq("id", third.id);

      await login(team.users.member);
      await page.goto("/account");
      await page.getByLabel("Time zone", { exact: true }).selectOption(ZONE);
      await page.getByRole("button", { name: "Save profile" }).click();
      await expect(page.getByText("Your profile is saved.")).toBeVisible();
      await expect(page.getByLabel("Time zone", { exact: true })).toHaveValue(ZONE);

      const calendar = `/teams/${team.slug}/projects/WEB/calendar`;
      await page.goto(`/teams/${team.slug}/projects/WEB`);
      // open and past its due date in the person's zone
      await expect(
        page.locator("li[data-task-id]", { hasText: "Was due last week" }).getByText("Overdue"),
      ).toBeVisible();
      await expect(
        page.locator("li[data-task-id]", { hasText: "Due today over there" }).getByText("Overdue"),
      ).toHaveCount(0);
      const tabs = page.getByRole("navigation", { name: "Project views" });
      await tabs.getByRole("link", { name: "Calendar" }).click();
      await expect(page).toHaveURL(new RegExp(`${calendar}$`));
      await expect(tabs.getByRole("link", { name: "Calendar" })).toHaveAttribute("aria-current", "page");
      // the project's header as on the board and the list: a new task and the export are a click away here too
      await expect(page.getByRole("main").getByRole("link", { name: "New task" })).toBeVisible();
      await expect(page.getByRole("main").getByRole("link", { name: "Export CSV" })).toBeVisible();
      const todayCell = dayCell(page, today);
      await expect(todayCell.getByText("Today", { exact: true })).toBeVisible();
      await expect(todayCell.getByRole("link", { name: "WEB-1 Due today over there" })).toBeVisible();

      await page.getByRole("navigation", { name: "Months" }).locator('a[rel="next"]').click();
      await expect(page).toHaveURL(new RegExp(`${calendar}\\?month=${nextMonth.slice(0, 7)}$`));
      await expect(dayCell(page, nextMonth).getByRole("link", { name: "WEB-2 Due next month 09:30" })).toBeVisible();
      for (const [day, words] of [
        [plusDays(nextMonth, -2), "starts"],
        [plusDays(nextMonth, -1), "continues"],
      ]) {
        await expect(
          dayCell(page, day).getByRole("link", { name: `WEB-2 Due next month ${words}, due ${shortDay(nextMonth)}` }),
        ).toBeAttached();
      }

      if (!mode.js) return;
      // with JavaScript: drag a task to another day, then carry it back with the keyboard
      await page.getByRole("link", { name: "This month" }).click();
      const target = plusDays(today, today.endsWith("-01") ? 1 : -1);
      await page.locator("li[data-task-id]", { hasText: "Due today over there" }).dragTo(dayCell(page, target));
      await expect(page.getByText(`Moved WEB-1 to`)).toBeAttached();
      await expect(dayCell(page, target).getByRole("link", { name: "WEB-1 Due today over there" })).toBeVisible();
      await page.reload();
      await expect(dayCell(page, target).getByRole("link", { name: "WEB-1 Due today over there" })).toBeVisible();

      const handle = page.getByRole("button", { name: "Move WEB-1 to another day" });
      await handle.focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press(target < today ? "ArrowRight" : "ArrowLeft");
      await page.keyboard.press("Enter");
      await expect(todayCell.getByRole("link", { name: "WEB-1 Due today over there" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Move WEB-1 to another day" })).toBeFocused();
      await expect
        .poll(async () => (await admin.from("tasks").select("due_on").eq("id", first.id).single()).data?.due_on)
        .toBe(today);
    });

    test("a weekly task: completing it makes the next one a week on, marked as repeating, on the calendar", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, { tasks: [] });
      const due = plusDays(todayIn("UTC"), 2);
      const next = plusDays(due, 7);
      await login(team.users.member);
      await page.goto(`/teams/${team.slug}/projects/WEB/tasks/new`);
      const form = page.getByRole("form", { name: "New task" });
      await form.getByLabel("Title").fill("Water the plants");
      await form.getByLabel("Due date").fill(due);
      await form.getByLabel("Repeats").selectOption("weekly");
      await form.getByLabel("Status").selectOption({ label: "In progress" });
      await form.getByRole("button", { name: "Create task" }).click();
      await expect(page.getByText("WEB-1 is created.")).toBeVisible();
      await expect(page.getByText(/Repeats: Every week on \w+day\./)).toBeVisible();

      const move = page.getByRole("form", { name: "Move task" });
      await move.getByLabel("Status").selectOption({ label: "Done" });
      await move.getByRole("button", { name: "Move" }).click();
      await expect(page.getByText("WEB-1 is in Done.")).toBeVisible();

      await page.goto(`/teams/${team.slug}/projects/WEB`);
      const successor = page.locator("li[data-task-id]", { hasText: "WEB-2 Water the plants" });
      await expect(successor.getByTitle("Repeats")).toBeVisible();
      await expect(successor.getByText(`Due ${shortDay(next)}`)).toBeVisible();
      await expect(
        page.locator("li[data-task-id]", { hasText: "WEB-1 Water the plants" }).getByTitle("Repeats"),
      ).toHaveCount(0);
      await page.goto(`/teams/${team.slug}/projects/WEB/calendar?month=${next.slice(0, 7)}`);
      await expect(dayCell(page, next).getByRole("link", { name: "WEB-2 Water the plants" })).toBeVisible();
    });

    test("the calendar feed: make the address, subscribe with a plain HTTP fetch, reset it", async ({
      page,
      backend,
      login,
      playwright,
    }) => {
      const team = await seedTeam(backend, {
        tasks: [{ title: "Write, then; ship", status: "todo", assignee: "member" }],
      });
      await backend
        .admin()
        .from("tasks")
        .update({ due_on: todayIn("UTC") })
        .eq("id", team.tasks[0].id);
      await login(team.users.member);
      await page.goto("/account/calendar");
      await page.getByRole("button", { name: "Make my calendar address" }).click();
      const address = await page.getByLabel("Your calendar address").inputValue();
      expect(address).toMatch(/\/calendar\/[A-Za-z0-9_-]{59}\.ics$/);
      // copying it is the page's main action; resetting it a quiet one (issue 42)
      await expect(page.getByRole("button", { name: "Reset the address" })).toHaveClass(/button-secondary/);
      if (mode.js) {
        await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
        await page.getByRole("button", { name: "Copy", exact: true }).click();
        await expect(page.getByRole("button", { name: "Copied", exact: true })).toBeVisible();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
      } else await expect(page.getByRole("button", { name: "Copy", exact: true })).toBeHidden();

      // a calendar app: no cookies, no browser
      const app = await playwright.request.newContext();
      const answer = await app.get(address);
      expect(answer.status()).toBe(200);
      expect(answer.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
      expect(answer.headers()["set-cookie"]).toBeUndefined();
      const events = new ICAL.Component(ICAL.parse(await answer.text())).getAllSubcomponents("vevent");
      expect(events.map((e) => e.getFirstPropertyValue("summary"))).toEqual(["WEB-1 Write, then; ship"]);

      await page.getByRole("button", { name: "Reset the address" }).click();
      await expect(page.getByLabel("Your calendar address")).not.toHaveValue(address);
      expect((await app.get(address)).status()).toBe(404);
      await app.dispose();
    });
  });
}
