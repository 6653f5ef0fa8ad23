import { expect, MODES, test } from "./fixtures";
import { addComments, seedTeam, signedInClient } from "./product-fixtures";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

for (const mode of MODES) {
  test.describe(`account deletion ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("confirmed by typing the email; account, avatar and sessions go, comments stay as 'Deleted user'", async ({
      page,
      login,
      backend,
    }) => {
      const team = await seedTeam(backend, { tasks: [{ title: "Keep my words" }] });
      const member = team.users.member;
      await addComments(backend, team.tasks[0].id, member, 1, () => "A comment that outlives its author");
      const memberClient = await signedInClient(backend, member);
      const avatarPath = `${member.id}/face.png`;
      await memberClient.storage.from("avatars").upload(avatarPath, new Blob([PNG], { type: "image/png" }));
      await backend.admin().from("profiles").update({ avatar_path: avatarPath }).eq("id", member.id);

      await login(member);
      await page.goto("/account/delete");
      await page.getByLabel(/Type your email address/).fill("someone-else@example.test");
      await page.getByRole("button", { name: "Delete my account" }).click();
      await expect(page.getByText("Type your email address exactly as shown to confirm.")).toBeVisible();
      expect((await backend.admin().auth.admin.getUserById(member.id)).data.user).not.toBeNull();

      await page.getByLabel(/Type your email address/).fill(member.email.toUpperCase());
      await page.getByRole("button", { name: "Delete my account" }).click();
      await expect(page.getByText("Your account is deleted.")).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Log in" })).toBeVisible();

      expect((await backend.admin().auth.admin.getUserById(member.id)).data.user).toBeNull();
      const { error: signInError } = await memberClient.auth.signInWithPassword({
        email: member.email,
        password: member.password,
      });
      expect(signInError).not.toBeNull();
      await expect
        .poll(async () => (await backend.admin().storage.from("avatars").list(member.id)).data?.length ?? 0)
        .toBe(0);

      await page.context().clearCookies();
      await login(team.owner);
      await page.goto(`/teams/${team.slug}/projects/${team.project.key}/tasks/${team.tasks[0].number}`);
      const comment = page.locator(".comment", { hasText: "A comment that outlives its author" });
      await expect(comment).toContainText("Deleted user");
    });
  });
}

test("a team owner is told to transfer ownership first, and nothing is deleted", async ({ page, login, backend }) => {
  const team = await seedTeam(backend);
  await login(team.owner);
  await page.goto("/account/delete");
  await expect(page.getByText(/Transfer ownership in the team's settings before deleting your account/)).toBeVisible();
  await page.getByLabel(/Type your email address/).fill(team.owner.email);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText(`You own ${team.name}. Transfer ownership in the team's settings first.`)).toBeVisible();
  expect((await backend.admin().auth.admin.getUserById(team.owner.id)).data.user).not.toBeNull();
});
