import { expect, test } from "@playwright/test";
import { newSessionSecret, startApp, startBackend } from "../support/app-cluster";
import { appUrl } from "./support/environments";

/** What a load balancer and an operator rely on in the production server (server.mjs, `npm start`). */

test("/healthz says the app is up, and ?deep=1 whether its backend answers", async ({ request }) => {
  const up = await request.get(`${appUrl("main")}/healthz`);
  expect(up.status()).toBe(200);
  expect(await up.json()).toEqual({ status: "ok" });
  const deep = await request.get(`${appUrl("main")}/healthz?deep=1`);
  expect(deep.status()).toBe(200);
  expect((await deep.json()).status).toBe("ok");

  // the "down" app's backend address has nobody listening: up, but not healthy
  expect((await request.get(`${appUrl("down")}/healthz`)).status()).toBe(200);
  const down = await request.get(`${appUrl("down")}/healthz?deep=1`);
  expect(down.status()).toBe(503);
  expect((await down.json()).status).toBe("backend unavailable");
});

test("pages are compressed; fingerprinted assets are cached for a year; both carry the security headers and a request id", async ({
  request,
  page,
}) => {
  const login = await request.get("/login", { headers: { "accept-encoding": "gzip" } });
  expect(login.headers()["content-encoding"]).toBe("gzip");
  expect(login.headers()["x-request-id"]).toMatch(/^[0-9a-f]{8}$/);
  expect(login.headers()["content-security-policy"]).toContain("script-src 'self' 'nonce-");

  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script" && r.url().includes("/assets/")) scripts.push(r.url());
  });
  await page.goto("/login");
  expect(scripts.length).toBeGreaterThan(0);
  const asset = await request.get(scripts[0]);
  expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
  expect(asset.headers()["x-frame-options"]).toBe("DENY");
  expect(asset.headers()["content-security-policy"]).toContain("default-src 'none'");

  // a redirect, which Remix answers without the document's headers
  const redirect = await request.get("/teams", { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers()["x-content-type-options"]).toBe("nosniff");
});

test("SIGTERM: the app answers the request it is handling, takes no new ones, then exits cleanly", async () => {
  test.setTimeout(120_000);
  // every backend request takes 1.5 s, so the deep health check is still running when the signal comes
  const backend = await startBackend({ jwtExpiry: 3600, siteUrl: "http://127.0.0.1", latency: "1500ms" });
  try {
    const app = await startApp(backend, { sessionSecret: newSessionSecret() });
    const inFlight = fetch(`${app.url}/healthz?deep=1`);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(app.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 200));
    await expect(fetch(`${app.url}/healthz`)).rejects.toThrow();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect((await answered.json()).status).toBe("ok");
    expect(await app.stop()).toBe(0);
    expect(app.output()).toMatch(/SIGTERM: finishing in-flight requests/);
    expect(app.output()).toMatch(/\[req \w{8}\] GET \/healthz\?deep=1 200/);
  } finally {
    await backend.stop();
  }
});
