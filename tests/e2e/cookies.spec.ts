import { expect, MODES, sessionFromCookies, test, type Backend, type TestUser } from "./fixtures";

/**
 * A session too large for one cookie: @supabase/ssr splits the auth cookie
 * into `sb-…-auth-token.0`, `.1`, … Against the `short` environment (access
 * tokens live a few seconds), so the chunked session also has to be refreshed.
 */
test.use({ environment: "short" });

const AUTH_COOKIE = /^sb-.+-auth-token(\.\d+)?$/;

/** A user whose metadata (in the access token and in the session's user) is several KB. */
async function createUserWithLargeSession(backend: Backend, signUp: () => Promise<TestUser>): Promise<TestUser> {
  const user = await signUp();
  const { error } = await backend.admin().auth.admin.updateUserById(user.id, {
    user_metadata: { display_name: user.displayName, bio: "Writes long introductions. ".repeat(120) },
  });
  if (error) throw error;
  return user;
}

for (const mode of MODES) {
  test.describe(`a chunked session ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.js });

    test("logs in, stays signed in across a refresh, and logging out clears every chunk", async ({
      page,
      context,
      signUp,
      backend,
    }) => {
      const user = await createUserWithLargeSession(backend, signUp);
      await page.goto("/login");
      await page.getByLabel("Email").first().fill(user.email);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/\/teams$/);
      await expect(page.getByRole("link", { name: user.displayName })).toBeVisible();

      const names = (await context.cookies()).map((c) => c.name).filter((name) => AUTH_COOKIE.test(name));
      expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/\.0$/), expect.stringMatching(/\.1$/)]));
      expect(
        names.filter((name) => !/\.\d+$/.test(name)),
        "no unchunked cookie beside the chunks",
      ).toEqual([]);

      await page.goto("/account");
      await expect(page.getByText(`Signed in as ${user.email}.`)).toBeVisible();

      // the access token expires; the next page refreshes the session and writes the chunks anew
      const before = await sessionFromCookies(context, backend.env.appUrl);
      await expect
        .poll(() => Date.now() / 1000 > before!.expires_at + 0.5, {
          timeout: 15_000,
          message: "the access token to expire",
        })
        .toBe(true);
      await page.goto("/account/sessions");
      await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();
      const after = await sessionFromCookies(context, backend.env.appUrl);
      expect(after!.refresh_token).not.toBe(before!.refresh_token);
      expect((await context.cookies()).filter((c) => AUTH_COOKIE.test(c.name)).length).toBeGreaterThan(1);

      await page.getByRole("button", { name: "Log out" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("heading", { name: "Log in", exact: true })).toBeVisible();
      await expect
        .poll(async () => (await context.cookies()).map((c) => c.name).filter((name) => AUTH_COOKIE.test(name)))
        .toEqual([]);
      await page.goto("/account");
      await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
    });
  });
}
