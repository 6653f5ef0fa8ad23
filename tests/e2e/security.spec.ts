import { expect, MODES, test } from "./fixtures";
import { addComments, seedTeam } from "./product-fixtures";

test("session cookies: 400 days, SameSite=Lax, readable by the browser client, whole site", async ({
  page,
  context,
  signUp,
  backend,
}) => {
  const user = await signUp();
  await page.goto("/login");
  await page.getByLabel("Email").first().fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(/\/teams$/);

  const cookies = (await context.cookies(backend.env.appUrl)).filter((c) => /^sb-.+-auth-token(\.\d+)?$/.test(c.name));
  expect(cookies.length).toBeGreaterThan(0);
  const in400Days = Date.now() / 1000 + 34_560_000;
  for (const cookie of cookies) {
    expect(Math.abs(cookie.expires - in400Days)).toBeLessThan(120);
    expect(cookie.sameSite).toBe("Lax");
    expect(cookie.httpOnly).toBe(false);
    expect(cookie.path).toBe("/");
  }
  // not HttpOnly: the page's own script can read it (the browser client relies on that)
  const visible = await page.evaluate(() => document.cookie);
  expect(visible).toContain(cookies[0].name);
});

test("every document carries the security headers, with a nonce for Remix's inline scripts", async ({
  page,
  request,
  backend,
}) => {
  const response = await request.get("/login");
  const headers = response.headers();
  const csp = headers["content-security-policy"];
  expect(csp).toMatch(/default-src 'self'/);
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain(`connect-src 'self' ${backend.env.apiUrl} ${backend.env.apiUrl.replace("http", "ws")}`);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-eval");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-content-type-options"]).toBe("nosniff");

  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const html = await response.text();
  const inlineScripts = html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? [];
  expect(inlineScripts.length).toBeGreaterThan(0);
  for (const tag of inlineScripts) expect(tag).toContain(`nonce="${nonce}"`);

  // and the page really runs under it: no CSP violations, the app hydrates
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Log in", exact: true })).toBeVisible();
  await page.getByLabel("Email").first().fill("not-an-email");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  // two wrong fields (the email, and no password): the form's error summary, made by the form's script
  await expect(page.getByRole("alert").getByText("There is a problem")).toBeVisible();
  await expect(page.getByLabel("Email").first()).toHaveAccessibleDescription(
    "Enter a valid email address, like name@example.com.",
  );
  expect(violations).toEqual([]);
});

test("signed-in pages break no rule of their CSP: avatars, cards, comments, account", async ({
  page,
  login,
  backend,
}) => {
  // Lighthouse counts each violation as a console error (best practices); avatars once set inline sizes
  const team = await seedTeam(backend, {
    tasks: [{ title: "Assigned card", status: "todo", assignee: "owner" }, { title: "Open card" }],
  });
  await addComments(backend, team.tasks[0].id, team.owner, 2);
  await login(team.owner);
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(`${page.url()}: ${m.text()}`);
  });
  const board = `/teams/${team.slug}/projects/WEB`;
  for (const url of ["/teams", board, `${board}/tasks/${team.tasks[0].number}`, "/account"]) {
    await page.goto(url);
    await expect(page.locator("header [data-avatar]").first()).toBeVisible();
  }
  await expect(page.locator("[data-avatar]").first()).toHaveCSS("width", "24px");
  expect(violations).toEqual([]);
});

test("data requests carry the security headers too", async ({ request }) => {
  const response = await request.get("/login.data");
  expect(response.headers()["x-frame-options"]).toBe("DENY");
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
});

test("an unknown URL gives the 404 page inside the layout", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Teamboard home" })).toBeVisible();
});

test.describe("when the backend can't be reached", () => {
  test.use({ environment: "down" });

  for (const mode of MODES) {
    test(`a form ${mode.name} answers 503 and keeps what was typed`, async ({ browser, backend }) => {
      const context = await browser.newContext({ baseURL: backend.env.appUrl, javaScriptEnabled: mode.js });
      const page = await context.newPage();
      await page.goto("/login");
      await page.getByLabel("Email").first().fill("someone@example.com");
      await page.getByLabel("Password").fill("whatever-1");
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST"),
        page.getByRole("button", { name: "Log in", exact: true }).click(),
      ]);
      expect(response.status()).toBe(503);
      await expect(page.getByRole("alert")).toHaveText(
        "Teamboard can't reach its backend right now. Your changes were not saved; try again.",
      );
      await expect(page.getByLabel("Email").first()).toHaveValue("someone@example.com");
      await context.close();
    });
  }

  test("a signed-in page shows the 503 page, no stack trace", async ({ page, context, backend }) => {
    // A session whose access token is still valid: the app must fetch the backend's signing keys to check it.
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const accessToken = `${b64({ alg: "ES256", kid: "unknown-key", typ: "JWT" })}.${b64({ sub: "00000000-0000-0000-0000-000000000001", exp, role: "authenticated" })}.c2ln`;
    const session = {
      access_token: accessToken,
      refresh_token: "r",
      expires_at: exp,
      expires_in: 3600,
      token_type: "bearer",
      user: { id: "00000000-0000-0000-0000-000000000001" },
    };
    await context.addCookies([{ name: "sb-127-auth-token", value: `base64-${b64(session)}`, url: backend.env.appUrl }]);
    const response = await page.goto("/account");
    expect(response?.status()).toBe(503);
    await expect(
      page.getByRole("heading", {
        name: "Teamboard can't reach its backend right now, so this page can't be shown. Try again in a moment.",
      }),
    ).toBeVisible();
    expect(await page.content()).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
  });
});
