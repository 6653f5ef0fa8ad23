import type { Page } from "@playwright/test";
import { nextTotp } from "../support/totp";
import { expect, MODES, test, uniqueEmail } from "./fixtures";
import { addComments, inviteByEmail, seedTeam, signedInClient } from "./product-fixtures";
import { enrolAuthenticator } from "./support/two-factor";

/**
 * Dates as people read them (issue 29 §7): every date a page prints is in one
 * of the two formats, short "26 Nov 2026" or long "26 Nov 2026, 17:51 CET",
 * inside a <time> element that never breaks across lines on a phone. The
 * sweep reads every text on the page (form fields aside: a date input is the
 * browser's own) and picks out anything that looks like a date: ISO
 * "2026-11-26", "11/26/2026", or a day and a month's name with a year.
 */
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept|Oct|Nov|Dec)";
const SHORT = new RegExp(`^\\d{1,2} ${MONTH} \\d{4}$`);
const LONG = new RegExp(`^\\d{1,2} ${MONTH} \\d{4}, \\d{2}:\\d{2} (?:[A-Z]{2,5}|GMT[+-]\\d{1,2}(?::\\d{2})?)$`);
/** Anything a person would read as a date, in any format; a long date's time and zone with it. */
const DATE_LIKE =
  /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}\S*)?|\d{1,2}\/\d{1,2}\/\d{2,4}|\d{1,2}(?:st|nd|rd|th)? [A-Z][a-z]{2,8}\.?,? \d{4}(?:,? \d{1,2}:\d{2}(?: ?[AP]M)?(?: [A-Z][A-Za-z0-9+:-]*)?)?|[A-Z][a-z]{2,8}\.? \d{1,2}(?:st|nd|rd|th)?, \d{4}/g;

interface PrintedDate {
  text: string;
  /** the nearest <time> around it, if any */
  inTime: boolean;
  where: string;
}

/** Every date-like text on the page outside form fields, with whether a <time> holds it. */
async function printedDates(page: Page): Promise<PrintedDate[]> {
  return page.evaluate((pattern) => {
    const found: PrintedDate[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, template, textarea, select, input, noscript")) continue;
      // a date is one text node (the app prints it from one string), so each node is read alone
      const text = node.textContent ?? "";
      for (const match of text.matchAll(new RegExp(pattern, "g"))) {
        found.push({
          text: match[0],
          inTime: parent.closest("time") !== null,
          where: `${parent.tagName.toLowerCase()}${parent.className ? `.${String(parent.className).split(" ")[0]}` : ""}: "${text.trim().slice(0, 80)}"`,
        });
      }
    }
    return found;
  }, DATE_LIKE.source);
}

/** <time> elements that are shown but take more than one line. */
async function brokenTimes(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("time")]
      .filter((time) => {
        const rects = [...time.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
        if (rects.length === 0) return false; // not shown at this size
        const lineHeight =
          parseFloat(getComputedStyle(time).lineHeight) || parseFloat(getComputedStyle(time).fontSize) * 1.6;
        const height = time.getBoundingClientRect().height;
        return rects.length > 1 || height > lineHeight + 1;
      })
      .map((time) => `"${time.textContent}" (${time.getClientRects().length} boxes)`),
  );
}

/** The full date a relative time ("5 min ago") carries in its title. */
async function timeTitles(page: Page): Promise<string[]> {
  return page.locator("time[title]").evaluateAll((times) => times.map((t) => t.getAttribute("title") ?? ""));
}

for (const mode of MODES) {
  test.describe(`dates ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js, viewport: { width: 390, height: 844 } });

    test("every printed date is short or long, in a <time> that stays on one line", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, {
        tasks: [
          {
            title: "Reconcile the quarterly invoices with a title long enough to wrap on a phone",
            assignee: "owner",
            status: "todo",
          },
          { title: "Renew the domain", status: "in_progress" },
          { title: "Print flyers", status: "done", assignee: "owner" },
        ],
      });
      const { owner } = team;
      // the owner reads times in Berlin: long dates carry a zone other than UTC
      await backend.admin().auth.admin.updateUserById(owner.id, { user_metadata: { time_zone: "Europe/Berlin" } });
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      const ownerClient = await signedInClient(backend, owner);
      // due dates set by the owner (the activity says so), one of them overdue
      for (const [i, due] of [day(-3), day(5), day(12)].entries()) {
        const { error } = await ownerClient.from("tasks").update({ due_on: due }).eq("id", team.tasks[i].id);
        expect(error).toBeNull();
      }
      // someone else assigns a task to the owner: a notification
      const adminClient = await signedInClient(backend, team.users.admin);
      const assigned = await adminClient.from("tasks").update({ assignee_id: owner.id }).eq("id", team.tasks[1].id);
      expect(assigned.error).toBeNull();
      await addComments(backend, team.tasks[0].id, team.users.member, 2);
      await inviteByEmail(backend, team, uniqueEmail("datesinvite"));
      const { secret } = await enrolAuthenticator(backend, owner);

      await login(owner);
      // the authenticator app asks for its code first, then the account's pages open
      await page.goto("/account/security");
      await page.getByLabel("Code", { exact: true }).fill(nextTotp(secret));
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/account\/security$/);

      const base = `/teams/${team.slug}`;
      const board = `${base}/projects/${team.project.key}`;
      const pages = [
        "/account/security",
        board,
        `${board}/tasks/1`,
        `${board}/tasks/2`,
        `${board}/list`,
        `${board}/calendar`,
        "/my-work",
        "/calendar",
        "/notifications",
        `${base}/activity`,
        `${base}/members`,
        base,
        "/teams",
      ];
      const seen = new Set<string>();
      for (const path of pages) {
        await page.goto(path);
        await expect(page.locator("main").locator("h1:visible, h2:visible").first(), path).toBeVisible();
        const dates = await printedDates(page);
        for (const date of dates) {
          seen.add(date.text);
          expect(SHORT.test(date.text) || LONG.test(date.text), `${path}: ${date.where} prints "${date.text}"`).toBe(
            true,
          );
          expect(date.inTime, `${path}: "${date.text}" is not in a <time> (${date.where})`).toBe(true);
        }
        for (const title of await timeTitles(page)) {
          expect(LONG.test(title), `${path}: a relative time's title is "${title}"`).toBe(true);
        }
        expect(await brokenTimes(page), `${path}: dates broken across lines`).toEqual([]);
      }
      // the sweep saw both formats, and the zone is the owner's
      expect([...seen].some((d) => SHORT.test(d))).toBe(true);
      expect([...seen].some((d) => LONG.test(d) && / CES?T$/.test(d))).toBe(true);
    });
  });
}
