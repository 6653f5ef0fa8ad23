import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";

// The service role key bypasses row-level security: it must never reach a
// browser, neither in a page, nor in the data a page loads, nor in a script.
test("no page, data response or browser script carries the service role key", async ({
  page,
  request,
  backend,
  signUp,
  login,
}) => {
  const secret = backend.env.serviceRoleKey;
  const user = await signUp();
  await login(user);

  const seen: string[] = [];
  page.on("response", async (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (/html|javascript|json|x-script|text\//.test(type)) seen.push(await response.text().catch(() => ""));
  });
  for (const url of ["/", "/teams", "/account", "/account/sessions", "/login"]) {
    await page.goto(url);
  }
  expect(seen.length).toBeGreaterThan(5);
  for (const body of seen) expect(body).not.toContain(secret);

  // Every script the build ships to browsers.
  const assets = path.resolve("build/client/assets");
  const scripts = fs.readdirSync(assets).filter((f) => f.endsWith(".js"));
  expect(scripts.length).toBeGreaterThan(3);
  for (const file of scripts) {
    const text = fs.readFileSync(path.join(assets, file), "utf8");
    expect(text, file).not.toContain(secret);
    expect(text, file).not.toContain("SERVICE_ROLE");
  }

  const anonymous = await request.get("/login");
  expect(await anonymous.text()).not.toContain(secret);
});
