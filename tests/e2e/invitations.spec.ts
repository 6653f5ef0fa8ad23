import type { Page } from "@playwright/test";
import { expect, MODES, PASSWORD, test, uniqueEmail } from "./fixtures";
import { seedTeam, signedInClient } from "./product-fixtures";

/**
 * Invitations end to end (docs/product.md §2, §4): an admin invites from the
 * members page, the email arrives in the inbox, the invited person signs up
 * or logs in through the link and joins with the invited role; withdrawn,
 * expired, used and mistaken links say so. With and without JavaScript.
 */
function invitationLink(text: string): string {
  const link = /https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]+/.exec(text)?.[0];
  if (!link) throw new Error(`no invitation link in: ${text}`);
  return new URL(link).pathname;
}

async function inviteFromMembersPage(page: Page, slug: string, email: string, role: "Viewer" | "Member" | "Admin") {
  await page.goto(`/teams/${slug}/members`);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption({ label: role });
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`An invitation went to ${email}. It is valid for 7 days.`)).toBeVisible();
  // sent: the form is empty again, so a second click doesn't invite again
  await expect(page.getByLabel("Email address")).toHaveValue("");
}

for (const mode of MODES) {
  test.describe(`invitations ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("an admin invites a new address; the person signs up through the emailed link and lands in the team with that role", async ({
      page,
      browser,
      backend,
      login,
      mailbox,
    }) => {
      const team = await seedTeam(backend);
      const email = uniqueEmail("newcomer");
      await login(team.users.admin);
      await inviteFromMembersPage(page, team.slug, email, "Viewer");
      const pending = page.getByRole("row", { name: new RegExp(email) });
      await expect(pending.getByRole("cell", { name: "Viewer", exact: true })).toBeVisible();
      await expect(pending.locator("time")).toHaveText(/\d{1,2} \w{3} \d{4}/);

      const invite = await mailbox(email).next(/invited you to/);
      expect(invite.subject).toBe(`${team.users.admin.displayName} invited you to ${team.name} on Teamboard`);
      const link = invitationLink(invite.text);

      const context = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      const guest = await context.newPage();
      await guest.goto(link);
      await expect(guest.getByRole("heading", { name: `Join ${team.name}` })).toBeVisible();
      await expect(
        guest.getByText(`${team.users.admin.displayName} invited ${email} to join the team ${team.name} as a viewer.`),
      ).toBeVisible();
      // no account for this address yet: "Sign up" leads, "Log in" is the quiet one (issue 42)
      const ways = guest.locator(".auth-page .card .actions").getByRole("link");
      await expect(ways).toHaveText(["Sign up", "Log in"]);
      await expect(ways.first()).not.toHaveClass(/button-secondary/);
      await expect(ways.last()).toHaveClass(/button-secondary/);
      await guest.locator(".auth-page .card").getByRole("link", { name: "Sign up" }).click();
      await guest.getByLabel("Your name").fill("Nell Newcomer");
      // the invited address is filled in, and still editable
      await expect(guest.getByLabel("Email")).toHaveValue(email);
      await expect(guest.getByLabel("Email")).toBeEditable();
      await guest.getByLabel("Password").fill(PASSWORD);
      await guest.getByRole("button", { name: "Sign up" }).click();
      await expect(guest.getByRole("heading", { name: "Check your email" })).toBeVisible();

      const confirm = await mailbox(email).next(/confirm/i);
      await guest.goto(confirm.link);
      await expect(guest).toHaveURL(new RegExp(`${link}$`));
      await guest.getByRole("button", { name: `Accept and join ${team.name}` }).click();
      await expect(guest).toHaveURL(new RegExp(`/teams/${team.slug}$`));
      await expect(guest.getByText(`Welcome to ${team.name}! You joined as viewer.`)).toBeVisible();
      await guest.goto(`/teams/${team.slug}/members`);
      const row = guest.getByRole("row", { name: /Nell Newcomer/ });
      await expect(row.getByRole("cell", { name: "Viewer", exact: true })).toBeVisible();
      await context.close();

      // the admin's list no longer shows it as pending
      await page.goto(`/teams/${team.slug}/members`);
      await expect(page.getByRole("row", { name: new RegExp(email) })).toHaveCount(0);
    });

    test("an existing person sees it on /teams, accepts once (twice adds one membership), and the used link says so", async ({
      page,
      backend,
      login,
      mailbox,
    }) => {
      const team = await seedTeam(backend);
      const person = await backend.createUser({ displayName: "Esme Existing" });
      const admin = await signedInClient(backend, team.users.admin);
      const sent = await admin.functions.invoke("send-invitation", {
        body: { team_id: team.id, email: person.email, role: "member" },
      });
      expect(sent.error).toBeNull();
      const link = invitationLink((await mailbox(person.email).next(/invited you to/)).text);

      // signed out, the address having an account: "Log in" leads (issue 42)
      await page.goto(link);
      await expect(page.locator(".auth-page .card .actions").getByRole("link")).toHaveText(["Log in", "Sign up"]);

      await login(person);
      await page.goto("/teams");
      await expect(
        page.getByText(new RegExp(`${team.name}: ${team.users.admin.displayName} invited you as member`)),
      ).toBeVisible();
      await page.goto(link);
      await page.getByRole("button", { name: `Accept and join ${team.name}` }).click();
      await expect(page).toHaveURL(new RegExp(`/teams/${team.slug}$`));

      // the same form sent again (a double click, a replayed POST) adds nothing
      const replay = await page.request.post(link, { form: { intent: "accept" } });
      expect(replay.status()).toBe(400);
      await page.goto(link);
      await expect(page.getByRole("alert")).toHaveText("This invitation was already used.");
      const { data } = await backend
        .admin()
        .from("team_members")
        .select("role")
        .eq("team_id", team.id)
        .eq("user_id", person.id);
      expect(data).toEqual([{ role: "member" }]);
    });

    test("opened while logged in as someone else, the page says so and offers to log out and come back", async ({
      page,
      backend,
      login,
      mailbox,
    }) => {
      const team = await seedTeam(backend);
      const invited = uniqueEmail("invited");
      const admin = await signedInClient(backend, team.users.admin);
      expect(
        (
          await admin.functions.invoke("send-invitation", {
            body: { team_id: team.id, email: invited, role: "member" },
          })
        ).error,
      ).toBeNull();
      const link = invitationLink((await mailbox(invited).next(/invited you to/)).text);
      await login(team.outsider);
      await page.goto(link);
      await expect(page.getByRole("alert")).toHaveText(
        `This invitation is for ${invited}, but you're logged in as ${team.outsider.email}.`,
      );
      await expect(page.getByRole("button", { name: /Accept/ })).toHaveCount(0);
      await page.getByRole("button", { name: `Log out and continue as ${invited}` }).click();
      await expect(page).toHaveURL(
        new RegExp(`/login\\?next=${encodeURIComponent(link).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
      );
    });

    test("withdrawn, declined and expired links say which; an unknown link says it isn't valid", async ({
      page,
      browser,
      backend,
      login,
      mailbox,
    }) => {
      const team = await seedTeam(backend);
      const [withdrawn, declined, expired] = [
        uniqueEmail("withdrawn"),
        uniqueEmail("declined"),
        uniqueEmail("expired"),
      ];
      const admin = await signedInClient(backend, team.users.admin);
      for (const email of [withdrawn, declined, expired]) {
        expect(
          (await admin.functions.invoke("send-invitation", { body: { team_id: team.id, email, role: "viewer" } }))
            .error,
        ).toBeNull();
      }
      const links = {
        withdrawn: invitationLink((await mailbox(withdrawn).next(/invited you to/)).text),
        declined: invitationLink((await mailbox(declined).next(/invited you to/)).text),
        expired: invitationLink((await mailbox(expired).next(/invited you to/)).text),
      };

      await login(team.users.admin);
      await page.goto(`/teams/${team.slug}/members`);
      await page.getByRole("button", { name: `Withdraw the invitation to ${withdrawn}` }).click();
      await expect(page.getByText(`The invitation to ${withdrawn} is withdrawn.`)).toBeVisible();
      await expect(page.getByRole("row", { name: new RegExp(withdrawn) })).toHaveCount(0);

      await backend
        .admin()
        .from("invitations")
        .update({ expires_at: "2026-01-01T00:00:00Z" })
        .eq("team_id", team.id)
        .eq("email", expired);

      const decliner = await backend.createUser({ email: declined, displayName: "Dora Decliner" });
      const context = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      await login(decliner, context);
      const other = await context.newPage();
      await other.goto(links.declined);
      await other.getByRole("button", { name: "Decline" }).click();
      await expect(other).toHaveURL(/\/teams$/);
      await expect(other.getByText(`You declined the invitation to ${team.name}.`)).toBeVisible();
      await context.close();

      const visitor = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      const anon = await visitor.newPage();
      await anon.goto(links.withdrawn);
      await expect(anon.getByRole("alert")).toHaveText("This invitation was withdrawn.");
      await anon.goto(links.declined);
      await expect(anon.getByRole("alert")).toHaveText("This invitation was withdrawn.");
      await anon.goto(links.expired);
      await expect(anon.getByRole("alert")).toHaveText(
        `This invitation expired on 1 Jan 2026. Ask ${team.users.admin.displayName} for a new one.`,
      );
      // the date in a <time> like every printed date (it never breaks across lines)
      await expect(anon.getByRole("alert").locator("time")).toHaveText("1 Jan 2026");
      const unknown = await anon.goto("/invitations/no-such-invitation-token-here");
      expect(unknown?.status()).toBe(404);
      await expect(anon.getByRole("alert")).toContainText("This invitation link is not valid.");
      await visitor.close();
    });

    test("inviting checks the address, refuses someone already in the team, and keeps what was typed", async ({
      page,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend);
      await login(team.users.admin);
      await page.goto(`/teams/${team.slug}/members`);
      await page.getByLabel("Email address").fill("not-an-address");
      await page.getByRole("button", { name: "Send invitation" }).click();
      await expect(page.getByText("Enter a valid email address.")).toBeVisible();
      await page.getByLabel("Email address").fill(team.users.member.email);
      await page.getByLabel("Role", { exact: true }).selectOption({ label: "Admin" });
      await page.getByRole("button", { name: "Send invitation" }).click();
      await expect(page.getByText(`${team.users.member.email} is already a member of this team.`)).toBeVisible();
      await expect(page.getByLabel("Email address")).toHaveValue(team.users.member.email);
      await expect(page.getByLabel("Role", { exact: true })).toHaveValue("admin");

      // one invitation email per address per minute: an immediate resend says how long to wait
      const fresh = uniqueEmail("resend");
      await inviteFromMembersPage(page, team.slug, fresh, "Member");
      await page.getByRole("button", { name: `Resend the invitation to ${fresh}` }).click();
      await expect(page.getByRole("alert")).toHaveText(
        new RegExp(`^An invitation was just sent to ${fresh.replace(/\./g, "\\.")}\\. Try again in \\d+ seconds\\.$`),
      );
      await expect(page.getByRole("row", { name: new RegExp(fresh) })).toHaveCount(1);
    });

    test("a member sees no invitation forms", async ({ page, backend, login }) => {
      const team = await seedTeam(backend);
      await login(team.users.member);
      await page.goto(`/teams/${team.slug}/members`);
      await expect(page.getByRole("heading", { name: "Members" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
    });
  });
}
