import type { BrowserContext, Locator, Page } from "@playwright/test";
import { MESSAGES } from "../../app/lib/messages";
import { newSessionSecret, startApp } from "../support/app-cluster";
import { expect, MODES, test, type Backend } from "./fixtures";
import { seedTeam } from "./product-fixtures";
import { BackendSwitch } from "./support/backend-switch";

/**
 * docs/product.md §8 when the backend goes away under a running app: every
 * form says "Your changes were not saved" beside itself and keeps what was
 * typed (with JavaScript the form stays as it is; without, the page comes
 * back as that form with every value, as the page's own reads fail too), and
 * sends once the backend is back. A page that only reads says so within 2 s
 * and offers "Try again". The app talks to the e2e stack through a switch
 * (support/backend-switch.ts) that refuses connections while "down".
 */

interface FormCase {
  name: string;
  path: string;
  /** fills the form; returns the fields (by name) and the values they must keep */
  fill(page: Page): Promise<Record<string, string>>;
  submit: string;
  /** the button that sends it, when its name alone doesn't find it */
  button?(page: Page): Locator;
  /** where the message may be with JavaScript: inside the form (the default) or anywhere on the page */
  messageOnPage?: boolean;
  /** what the page shows once it went through */
  saved: RegExp | string;
  /** a file input the form has: chosen again on the no-JavaScript page */
  file?: { label: string; name: string };
}

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

function formCases(slug: string, tag: string): FormCase[] {
  const task = `/teams/${slug}/projects/WEB/tasks/1`;
  const panel = (page: Page) => page.getByRole("complementary", { name: "Task" });
  return [
    {
      name: "task edit",
      // the panel shows the task to read; its form is one Edit away (the address says so)
      path: `${task}?edit=task`,
      async fill(page) {
        const form = panel(page).getByRole("form", { name: "Edit task" });
        await form.getByLabel("Title", { exact: true }).fill(`Plan the offsite ${tag}`);
        await form.getByLabel("Description").fill("Venue first,\nthen food.");
        await form.getByLabel("Priority").selectOption("high");
        return { title: `Plan the offsite ${tag}`, description: "Venue first,\nthen food.", priority: "high" };
      },
      submit: "Save changes",
      saved: "WEB-1 is saved.",
    },
    {
      name: "new task",
      path: `/teams/${slug}/projects/WEB/tasks/new`,
      async fill(page) {
        const form = page.getByRole("form", { name: "New task" });
        await form.getByLabel("Title", { exact: true }).fill(`Order banners ${tag}`);
        await form.getByLabel("Description").fill("Two of them.");
        return { title: `Order banners ${tag}`, description: "Two of them." };
      },
      submit: "Create task",
      saved: /WEB-\d+ is created\./,
    },
    {
      name: "comment",
      path: task,
      async fill(page) {
        await panel(page).getByLabel("Add a comment").fill(`Venue booked ${tag}.`);
        return { body: `Venue booked ${tag}.` };
      },
      submit: "Post comment",
      saved: "Your comment is posted.",
    },
    {
      name: "move",
      path: task,
      async fill(page) {
        const form = panel(page).getByRole("form", { name: "Move task" });
        // another of the project's statuses (their ids are the values)
        const to = await form
          .getByLabel("Status")
          .evaluate((select: HTMLSelectElement) => [...select.options].find((o) => !o.selected && !o.disabled)!.value);
        await form.getByLabel("Status").selectOption(to);
        await form.locator("summary", { hasText: "Place in column" }).click();
        await form.getByLabel("Place in column").fill("1");
        return { status: to, position: "1" };
      },
      submit: "Move",
      saved: /WEB-1 is in .+\./,
    },
    {
      name: "attachment",
      path: task,
      async fill(page) {
        await panel(page)
          .getByLabel("Attach files")
          .setInputFiles({
            name: `dot-${tag}.png`,
            mimeType: "image/png",
            buffer: PNG,
          });
        return {};
      },
      submit: "Attach",
      saved: `dot-${tag}.png`,
      file: { label: "Files", name: `dot-${tag}.png` },
    },
    {
      name: "members",
      path: `/teams/${slug}/members`,
      async fill(page) {
        await page.getByLabel("Email address").fill(`guest-${tag}@example.com`);
        await page.getByLabel("Role", { exact: true }).selectOption("admin");
        return { email: `guest-${tag}@example.com`, role: "admin" };
      },
      submit: "Send invitation",
      saved: `An invitation went to guest-${tag}@example.com. It is valid for 7 days.`,
    },
    {
      name: "settings",
      path: `/teams/${slug}/settings`,
      async fill(page) {
        await page.getByLabel("Team name").fill(`Renamed ${tag}`);
        return { name: `Renamed ${tag}` };
      },
      submit: "Rename team",
      saved: `The team is now called Renamed ${tag}.`,
    },
    {
      name: "account",
      path: "/account",
      async fill(page) {
        await page.getByLabel("Display name").fill(`Olive ${tag}`);
        return { displayName: `Olive ${tag}` };
      },
      submit: "Save profile",
      saved: "Your profile is saved.",
    },
  ];
}

/**
 * Part II's forms (issue 36 §2): labels, checklist, sub-tasks, relations,
 * watching, bulk edit, saved views, notifications and the account's
 * notification and calendar settings. (The calendars' moves are made by
 * script only — drag or the ⠿ menu — and keep nothing typed; their action is
 * wrapped all the same.)
 */
function partTwoCases(slug: string, tag: string): FormCase[] {
  const task = `/teams/${slug}/projects/WEB/tasks/1`;
  const list = `/teams/${slug}/projects/WEB/list`;
  const panel = (page: Page) => page.getByRole("complementary", { name: "Task" });
  return [
    {
      name: "label",
      path: `/teams/${slug}/labels`,
      async fill(page) {
        const form = page.getByRole("form", { name: "New label" });
        await form.getByLabel("Name").fill(`Ops ${tag}`);
        await form.getByLabel("Colour").selectOption("green");
        return { name: `Ops ${tag}`, color: "green" };
      },
      submit: "Create label",
      saved: `The label Ops ${tag} is created.`,
    },
    {
      name: "checklist item",
      path: task,
      async fill(page) {
        await panel(page)
          .getByRole("form", { name: "Add a checklist item" })
          .getByLabel("New item")
          .fill(`Call ${tag}`);
        return { title: `Call ${tag}` };
      },
      submit: "Add item",
      saved: "The item is added.",
    },
    {
      name: "sub-task",
      path: task,
      async fill(page) {
        await panel(page).getByRole("form", { name: "Add a sub-task" }).getByLabel("New sub-task").fill(`Menu ${tag}`);
        return { title: `Menu ${tag}` };
      },
      submit: "Add sub-task",
      saved: /WEB-\d+ is added as a sub-task\./,
    },
    {
      name: "relation",
      path: task,
      async fill(page) {
        const form = panel(page).getByRole("form", { name: "Relate to another task" });
        await form.getByLabel("Task", { exact: true }).fill("WEB-2");
        return { other: "WEB-2", relation: await form.getByLabel("This task").inputValue() };
      },
      submit: "Add relation",
      saved: "WEB-1 and WEB-2 are related.",
    },
    {
      name: "watching",
      path: task,
      async fill() {
        return {};
      },
      submit: "",
      button: (page) => page.getByRole("button", { name: /^(Watch|Stop watching)$/ }),
      saved: /You're watching WEB-1\.|You stopped watching WEB-1\./,
    },
    {
      name: "bulk edit",
      path: list,
      async fill(page) {
        const form = page.getByRole("form", { name: "Change the ticked tasks" });
        await form.getByLabel("All on this page").check();
        await form.getByLabel("Priority").selectOption("high");
        return { priority: "high" };
      },
      submit: "Set priority",
      saved: /\d+ tasks? changed\./,
    },
    {
      name: "saved view",
      path: list,
      async fill(page) {
        await page.locator("details.save-view > summary").click();
        await page.locator(".save-view-form").getByLabel("Name").fill(`Mine ${tag}`);
        return { name: `Mine ${tag}` };
      },
      submit: "Save view",
      // (the <summary> that opens the form says "Save view" too)
      button: (page) => page.locator("button[type=submit]", { hasText: "Save view" }),
      messageOnPage: true,
      saved: `Saved the view “Mine ${tag}”.`,
    },
    {
      name: "notifications",
      path: "/notifications",
      async fill() {
        return {};
      },
      submit: "Mark all as read",
      saved: "All your notifications are marked as read.",
    },
    {
      name: "notification emails",
      path: "/account/notifications",
      async fill(page) {
        await page.getByLabel("Someone mentions me").selectOption("daily");
        return { mentioned: "daily" };
      },
      submit: "Save email settings",
      messageOnPage: true,
      saved: "Your email settings are saved.",
    },
    {
      name: "calendar feed",
      path: "/account/calendar",
      async fill() {
        return {};
      },
      submit: "Make my calendar address",
      messageOnPage: true,
      saved: "Your calendar address",
    },
  ];
}

async function appBehindSwitch(backend: Backend) {
  const api = new URL(backend.env.apiUrl);
  const backendSwitch = new BackendSwitch(api);
  await backendSwitch.up();
  const app = await startApp(
    { url: backendSwitch.url, anonKey: backend.env.anonKey, serviceRoleKey: backend.env.serviceRoleKey } as never,
    { sessionSecret: newSessionSecret() },
  );
  return { backendSwitch, app };
}

/** Where the form's message must be: inside the form itself (JS) or the page that stands in for it (no JS). */
function sentForm(page: Page, js: boolean, c: FormCase): Locator {
  if (!js) return page.getByRole("form", { name: "Your form" });
  return page.locator("form").filter({ has: sendButton(page, c) });
}

function sendButton(page: Page, c: FormCase): Locator {
  return c.button ? c.button(page) : page.getByRole("button", { name: c.submit, exact: true });
}

/**
 * Each case: filled, sent with the backend down (the message beside the form, every value kept), then sent
 * again once it is back.
 */
async function everyFormKeeps(
  { page, backend, context }: { page: Page; backend: Backend; context: BrowserContext },
  js: boolean,
  cases: (slug: string, tag: string) => FormCase[],
) {
  const team = await seedTeam(backend, {
    tasks: [
      { title: "Plan the offsite", status: "todo" },
      { title: "Book the venue", status: "todo" },
    ],
  });
  const { backendSwitch, app } = await appBehindSwitch(backend);
  try {
    const cookies = await backend.sessionCookies(team.owner);
    await context.addCookies(cookies.map(({ name, value }) => ({ name, value, url: app.url, sameSite: "Lax" })));
    for (const c of cases(team.slug, Date.now().toString(36))) {
      await test.step(c.name, async () => {
        await page.goto(`${app.url}${c.path}`);
        const values = await c.fill(page);
        await backendSwitch.down();
        await sendButton(page, c).click();

        if (c.file && js) {
          // the upload's own row says it, and the file stays chosen
          await expect(page.locator(`[data-upload="${c.file.name}"]`)).toContainText(MESSAGES.backendDown);
        } else {
          const form = sentForm(page, js, c);
          if (js && c.messageOnPage) await expect(page.getByText(MESSAGES.backendDown)).toBeVisible();
          else await expect(js ? form.getByRole("alert") : page.getByRole("alert")).toHaveText(MESSAGES.backendDown);
          for (const [name, value] of Object.entries(values))
            await expect(form.locator(`[name="${name}"]`), name).toHaveValue(value);
        }
        // the page isn't left faded or busy
        await expect(page.locator("[aria-busy='true'], .is-pending")).toHaveCount(0);

        await backendSwitch.up();
        if (js) {
          await sendButton(page, c).click();
        } else {
          const form = sentForm(page, false, c);
          if (c.file)
            await form.getByLabel(c.file.label).setInputFiles({
              name: c.file.name,
              mimeType: "image/png",
              buffer: PNG,
            });
          await form.getByRole("button", { name: "Send again" }).click();
        }
        await expect(page.getByText(c.saved).first()).toBeVisible();
      });
    }
  } finally {
    await page.close();
    await backendSwitch.down();
    await app.stop();
  }
}

for (const mode of MODES) {
  test.describe(`backend down ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("every form says the changes were not saved, keeps every value, and sends once the backend is back", async ({
      page,
      backend,
      context,
    }) => {
      test.setTimeout(120_000);
      await everyFormKeeps({ page, backend, context }, mode.js, formCases);
    });

    test("so does every form of Part II", async ({ page, backend, context }) => {
      test.setTimeout(120_000);
      await everyFormKeeps({ page, backend, context }, mode.js, partTwoCases);
    });
  });
}

test("a page that only reads says so within 2 s when the backend refuses connections, and offers Try again", async ({
  page,
  backend,
  context,
}) => {
  const team = await seedTeam(backend, { tasks: [{ title: "Plan the offsite" }] });
  const { backendSwitch, app } = await appBehindSwitch(backend);
  try {
    const cookies = await backend.sessionCookies(team.owner);
    await context.addCookies(cookies.map(({ name, value }) => ({ name, value, url: app.url, sameSite: "Lax" })));
    const board = `${app.url}/teams/${team.slug}/projects/WEB`;
    await page.goto(board);
    await backendSwitch.down();

    const started = Date.now();
    const answer = await page.goto(board);
    const tookMs = Date.now() - started;
    expect(answer?.status()).toBe(503);
    expect(tookMs, "answered within 2 s").toBeLessThan(2_000);
    await expect(page.getByRole("heading", { name: MESSAGES.backendDownRead })).toBeVisible();
    await expect(page.getByText("Your changes were not saved")).toHaveCount(0);

    await backendSwitch.up();
    await page.getByRole("link", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { name: "Website" })).toBeVisible();
  } finally {
    // the browser's keep-alive connection would hold the app's shutdown
    await page.close();
    await backendSwitch.down();
    await app.stop();
  }
});
