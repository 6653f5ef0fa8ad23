import { expect, MODES, test } from "./fixtures";
import { seedTeam, uniqueSlug } from "./product-fixtures";

for (const mode of MODES) {
  test.describe(`teams ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("create a team and its first project; a taken address says which and keeps the name; the address changes in settings", async ({
      page,
      signUp,
      login,
      backend,
    }) => {
      const user = await signUp();
      await login(user);
      const slug = uniqueSlug("crew");
      await page.goto("/teams");
      await expect(page.getByRole("heading", { name: "Your teams" })).toBeVisible();
      await page.getByRole("link", { name: "Create a team" }).click();
      await page.getByLabel("Team name").fill("Launch Crew");
      await page.getByLabel("Address").fill(slug);
      await page.getByRole("button", { name: "Create team" }).click();
      await expect(page).toHaveURL(new RegExp(`/teams/${slug}$`));
      await expect(page.getByText("Launch Crew is ready. Create its first project.")).toBeVisible();
      await expect(
        page.getByRole("complementary", { name: "Launch Crew navigation" }).getByText("Owner"),
      ).toBeVisible();

      await page.getByRole("link", { name: "New project" }).click();
      await page.getByLabel("Project name").fill("Website");
      await page.getByLabel("Key").fill("web");
      await page.getByRole("button", { name: "Create project" }).click();
      await expect(page).toHaveURL(new RegExp(`/teams/${slug}/projects/WEB$`));
      await expect(page.getByRole("heading", { name: "WEB Website" })).toBeVisible();
      // the sidebar lists it (on a laptop's board the sidebar is folded into the team's bar: issue 42)
      await page.locator("summary", { hasText: "Team menu" }).click();
      await expect(page.getByRole("link", { name: "WEB Website" })).toBeVisible();

      await page.goto("/teams/new");
      await page.getByLabel("Team name").fill("Copycats");
      await page.getByLabel("Address").fill(slug);
      await page.getByRole("button", { name: "Create team" }).click();
      // addresses are global: the message shows the one that exists
      await expect(
        page.getByText(`A team at ${backend.env.appUrl}/teams/${slug} exists already — choose another address.`),
      ).toBeVisible();
      await expect(page.getByLabel("Team name")).toHaveValue("Copycats");

      // the address can be changed later: the team's pages move with it
      await page.goto(`/teams/${slug}/settings`);
      const moved = uniqueSlug("moved");
      await page.getByRole("textbox", { name: "Address" }).fill(moved);
      await page.getByRole("button", { name: "Change address" }).click();
      await expect(page).toHaveURL(new RegExp(`/teams/${moved}/settings$`));
      await expect(page.getByText(`The team's address is now ${backend.env.appUrl}/teams/${moved}.`)).toBeVisible();

      await page.goto("/teams");
      await expect(page.getByRole("link", { name: "Launch Crew" })).toBeVisible();
    });

    test("an admin changes a member's role and the member's page follows; a non-member gets 404", async ({
      page,
      browser,
      backend,
      login,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Ship the beta" }] });
      const { admin, member } = team.users;
      const board = `/teams/${team.slug}/projects/WEB`;

      const memberContext = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      await login(member, memberContext);
      const memberPage = await memberContext.newPage();
      await memberPage.goto(`${board}/tasks/1`);
      await expect(memberPage.getByRole("link", { name: "New task" })).toBeVisible();
      await expect(memberPage.getByRole("link", { name: "Edit", exact: true })).toBeVisible();

      await login(admin);
      await page.goto(`/teams/${team.slug}/members`);
      const row = page.getByRole("row", { name: new RegExp(member.displayName) });
      await expect(row.getByRole("cell", { name: "Member", exact: true })).toBeVisible();
      await row.getByLabel(`Role of ${member.displayName}`).selectOption("viewer");
      await row.getByRole("button", { name: "Change role" }).click();
      await expect(page.getByText("The role is now viewer.")).toBeVisible();
      await expect(row.getByRole("cell", { name: "Viewer", exact: true })).toBeVisible();
      // the owner's row offers no change
      await expect(page.getByRole("row", { name: new RegExp(team.owner.displayName) }).getByRole("button")).toHaveCount(
        0,
      );

      await memberPage.reload();
      await expect(memberPage.getByRole("heading", { name: /Ship the beta/ })).toBeVisible();
      await expect(memberPage.getByRole("link", { name: "New task" })).toHaveCount(0);
      await expect(memberPage.getByRole("link", { name: "Edit", exact: true })).toHaveCount(0);
      await expect(memberPage.getByRole("button", { name: "Post comment" })).toHaveCount(0);
      // …and the server refuses what the page no longer offers
      const refused = await memberContext.request.post(`${board}/tasks/1`, {
        form: { intent: "update", title: "Sneaky edit" },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toContain("Your role in this team doesn&#x27;t allow that.");
      await memberContext.close();

      const outsiderContext = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      await login(team.outsider, outsiderContext);
      const outsiderPage = await outsiderContext.newPage();
      for (const url of [`/teams/${team.slug}`, board, `${board}/tasks/1`, `/teams/${team.slug}/members`]) {
        const response = await outsiderPage.goto(url);
        expect(response?.status(), url).toBe(404);
        await expect(outsiderPage.getByRole("heading", { name: "Page not found" })).toBeVisible();
      }
      await expect(outsiderPage.getByText("Ship the beta")).toHaveCount(0);
      await outsiderContext.close();
    });
  });
}

test("settings: admins rename, only the owner deletes, with the slug typed", async ({
  page,
  backend,
  login,
  browser,
}) => {
  const team = await seedTeam(backend);
  const memberContext = await browser.newContext({ baseURL: backend.env.appUrl });
  await login(team.users.member, memberContext);
  const memberPage = await memberContext.newPage();
  const response = await memberPage.goto(`/teams/${team.slug}/settings`);
  expect(response?.status()).toBe(403);
  await expect(memberPage.getByRole("heading", { name: "Your role in this team doesn't allow that." })).toBeVisible();
  await expect(memberPage.getByRole("complementary").getByRole("link", { name: "Settings" })).toHaveCount(0);
  await memberContext.close();

  await login(team.users.admin);
  await page.goto(`/teams/${team.slug}/settings`);
  await page.getByLabel("Team name").fill("Renamed Team");
  await page.getByRole("button", { name: "Rename team" }).click();
  await expect(page.getByText("The team is now called Renamed Team.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Delete team" })).toHaveCount(0);

  await page.context().clearCookies();
  await login(team.owner);
  await page.goto(`/teams/${team.slug}/settings`);
  await page.getByLabel(`Type ${team.slug} to confirm`).fill("not-it");
  await page.getByRole("button", { name: "Delete this team" }).click();
  await expect(page.getByText(`Type ${team.slug} to confirm.`, { exact: true })).toBeVisible();
  await page.getByLabel(`Type ${team.slug} to confirm`).fill(team.slug);
  await page.getByRole("button", { name: "Delete this team" }).click();
  await expect(page).toHaveURL(/\/teams$/);
  await expect(page.getByText("Renamed Team is deleted.")).toBeVisible();
  expect((await page.goto(`/teams/${team.slug}`))?.status()).toBe(404);
});
