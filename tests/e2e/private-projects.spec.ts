import { expect, test } from "./fixtures";
import { seedTeam } from "./product-fixtures";

/**
 * Private projects (issue 41; docs/product.md §6), without JavaScript: the admin makes WEB
 * visible only to chosen people; a member not chosen gets the 404 page and no WEB in the
 * team's projects; once added on the settings page, they see it again. Then (§20's public
 * read-only links) the admin shares the board by a link, which a browser with no cookies and no
 * JavaScript opens, and which answers 404 after "Revoke".
 */
test.describe("a private project and a public link, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the admin makes WEB private; the member gets 404 until added; a public link shows it until revoked", async ({
    page,
    backend,
    login,
    browser,
  }) => {
    const team = await seedTeam(backend, { tasks: [{ title: "Salary bands", status: "todo" }] });
    const board = `/teams/${team.slug}/projects/WEB`;
    const memberContext = await browser.newContext({ javaScriptEnabled: false, baseURL: backend.env.appUrl });
    await login(team.users.member, memberContext);
    const member = await memberContext.newPage();

    await login(team.users.admin);
    await page.goto(`${board}/settings`);
    const access = page.getByRole("region", { name: "Who sees it" });
    await access.getByLabel("only chosen people").check();
    await access.getByRole("button", { name: "Save who sees it" }).click();
    await expect(page.getByText("Website is now visible only to the people chosen")).toBeVisible();

    const response = await member.goto(board);
    expect(response?.status()).toBe(404);
    await member.goto(`/teams/${team.slug}/projects`);
    await expect(member.getByRole("main").getByRole("link", { name: "Website" })).toHaveCount(0);

    await access.getByLabel("Add a person").selectOption({ label: `${team.users.member.displayName} (member)` });
    await access.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.getByText("The person is added to the project.")).toBeVisible();
    await expect(access.locator(`[data-project-member="${team.users.member.displayName}"]`)).toBeVisible();

    expect((await member.goto(board))?.status()).toBe(200);
    await expect(member.getByText("Salary bands")).toBeVisible();
    await member.goto(`/teams/${team.slug}/projects`);
    await expect(member.getByRole("main").getByRole("link", { name: "Website" })).not.toHaveCount(0);
    await memberContext.close();

    // a public read-only link to the board: no sign-in, no cookies, no JavaScript; 404 once revoked
    await page.goto(`${board}/settings`);
    await page.getByRole("link", { name: "public links" }).click();
    await page.getByRole("button", { name: "Make the link" }).click();
    const address = await page.getByLabel("The new link").inputValue();
    expect(address).toMatch(/\/shared\/[A-Za-z0-9_-]{43}$/);
    const strangerContext = await browser.newContext({ javaScriptEnabled: false });
    const stranger = await strangerContext.newPage();
    const shared = await stranger.goto(address);
    expect(shared?.status()).toBe(200);
    expect(shared?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    await expect(stranger.getByRole("heading", { name: "WEB Website" })).toBeVisible();
    await expect(stranger.getByRole("region", { name: /^To do/ }).getByText("Salary bands")).toBeVisible();
    expect(await strangerContext.cookies()).toEqual([]);
    await page.getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByText("The link is revoked")).toBeVisible();
    expect((await stranger.goto(address))?.status()).toBe(404);
    await strangerContext.close();
  });
});
