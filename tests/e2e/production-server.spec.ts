import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, newSessionSecret, startApp, startBackend, type Backend } from "../support/app-cluster";
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

test("pages are compressed; fingerprinted assets are cached for a year and sent as the build's Brotli or gzip copies; both carry the security headers and a request id", async ({
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
  // compressed by the build, as hard as each format goes: Brotli when the browser takes it, else gzip
  const plain = await (await request.get(scripts[0], { headers: { "accept-encoding": "identity" } })).body();
  for (const [accepts, encoding, suffix] of [
    ["gzip, deflate, br, zstd", "br", ".br"],
    ["gzip, deflate", "gzip", ".gz"],
  ]) {
    const compressed = await request.get(scripts[0], { headers: { "accept-encoding": accepts } });
    expect(compressed.headers()["content-encoding"], accepts).toBe(encoding);
    expect(compressed.headers()["vary"]).toContain("Accept-Encoding");
    expect(compressed.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(compressed.headers()["content-type"]).toMatch(/^(?:application|text)\/javascript/);
    // the build's copy (scripts/precompress.mjs), not one made for this request
    const copy = path.join("build/client", new URL(scripts[0]).pathname + suffix);
    expect(Number(compressed.headers()["content-length"])).toBe(fs.statSync(copy).size);
    expect(fs.statSync(copy).size).toBeLessThan(plain.length / 2);
    expect((await compressed.body()).equals(plain), `${encoding} decodes to the script`).toBe(true);
  }

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

test("over its limit of requests in flight, the server sheds the next one at once: 503, the form keeps what was typed", async () => {
  test.setTimeout(120_000);
  // every backend request takes a second, so a sign-in holds its slot that long
  const backend = await startBackend({ jwtExpiry: 3600, siteUrl: "http://127.0.0.1", latency: "1000ms" });
  try {
    const app = await startApp(backend, {
      sessionSecret: newSessionSecret(),
      env: { MAX_CONCURRENT_REQUESTS: "1", QUEUE_TIMEOUT_MS: "0" },
    });
    const form = (email: string) =>
      new URLSearchParams({ intent: "password", email, password: "not-the-password-1" }).toString();
    const post = (email: string) =>
      fetch(`${app.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
        body: form(email),
      });

    // the one slot is taken by a sign-in waiting for the slow backend
    const heldAnswer = post("held@example.com").then(async (r) => (await r.text(), r.status));

    // once the server has taken the held post in, the next request is answered 503 at once (never, without shedding)
    let shed: Response | null = null;
    for (let attempt = 0; attempt < 50 && !shed; attempt++) {
      const answer = await post("ada@example.com");
      if (answer.status === 503) shed = answer;
      else {
        expect(answer.status, "a request the server took in: wrong password").toBe(400);
        await answer.text();
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(shed, "a request was shed").not.toBeNull();
    expect(shed!.headers.get("retry-after")).toBe("1");
    const page = await shed!.text();
    expect(page).toContain('value="ada@example.com"');
    expect(page).toContain("Your changes were not saved");
    expect(shed!.headers.getSetCookie()).toEqual([]);
    // a page view meanwhile gets the server's own static page, under the static files' policy
    const view = await fetch(`${app.url}/teams`, { redirect: "manual" });
    expect(view.status).toBe(503);
    expect(view.headers.get("retry-after")).toBe("1");
    expect(view.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await view.text()).toContain("Your changes were not saved");

    // the held post is answered as usual, and its slot is free again
    expect(await heldAnswer).toBe(400);
    // The slot is given back when the server has closed the held response,
    // which can come a moment after the client has read its status line.
    await expect
      .poll(async () => (await post("ada@example.com")).status, { message: "the slot frees again", timeout: 5_000 })
      .toBe(400);
    expect(app.output()).toMatch(/\[req \w{8}\] POST \/login 503 [\d.]+ ms \(shed\)/);
    expect(app.output()).toMatch(/\[req \w{8}\] GET \/teams 503 [\d.]+ ms \(shed\)/);
    await app.stop();
  } finally {
    await backend.stop();
  }
});

test("a post whose body trickles in holds no slot: slow posts from one address leave the site up, and are cut after REQUEST_TIMEOUT_MS", async () => {
  test.setTimeout(120_000);
  const backend = await startBackend({ jwtExpiry: 3600, siteUrl: "http://127.0.0.1" });
  try {
    const app = await startApp(backend, {
      sessionSecret: newSessionSecret(),
      env: { MAX_CONCURRENT_REQUESTS: "4", QUEUE_TIMEOUT_MS: "0", REQUEST_TIMEOUT_MS: "3000" },
    });
    // 16 sign-in posts from one address (X-Forwarded-For, which the server believes from this machine):
    // each announces 100,000 bytes and sends one
    const slow = Array.from({ length: 16 }, () => {
      const req = http.request(`${app.url}/login`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": "100000",
          origin: app.url,
          "x-forwarded-for": "203.0.113.7",
        },
      });
      const answer = new Promise<number>((resolve) => {
        req.on("response", (res) => (res.resume(), resolve(res.statusCode ?? 0)));
        // the server may close the socket as it answers
        req.on("error", () => resolve(0));
      });
      req.write("i");
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // meanwhile pages and other people's form posts are served, not shed
    for (let i = 0; i < 3; i++) {
      const view = await fetch(`${app.url}/login`);
      expect(view.status, "a page view while 16 bodies trickle in").toBe(200);
      await view.text();
    }
    const other = await fetch(`${app.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: app.url,
        "x-forwarded-for": "198.51.100.9",
      },
      body: new URLSearchParams({ intent: "password", email: "ada@example.com", password: "not-the-password-1" }),
    });
    expect(other.status, "another person's sign-in: wrong password, not shed").toBe(400);
    // what never arrives whole is answered 408 once the request timeout has passed
    const started = performance.now();
    const answers = await Promise.all(slow);
    expect(answers.every((status) => status === 408 || status === 0)).toBe(true);
    expect(answers).toContain(408);
    expect(performance.now() - started).toBeLessThan(15_000);
    await app.stop();
  } finally {
    await backend.stop();
  }
});

test("the app opens at most BACKEND_MAX_CONNECTIONS connections to its backend, however many requests it sends at once", async () => {
  test.setTimeout(120_000);
  // every backend request takes 300 ms, so the app's requests overlap
  const backend = await startBackend({ jwtExpiry: 3600, siteUrl: "http://127.0.0.1", latency: "300ms" });
  // a TCP relay in front of the backend that counts the connections open at once
  let open = 0;
  let mostOpen = 0;
  const relay = net.createServer((client) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    const upstream = net.connect(Number(new URL(backend.url).port), "127.0.0.1");
    client.pipe(upstream).pipe(client);
    const close = () => (client.destroy(), upstream.destroy());
    client.once("close", close);
    upstream.once("close", close);
    client.once("close", () => open--);
    client.on("error", () => undefined);
    upstream.on("error", () => undefined);
  });
  const relayPort = await freePort();
  await new Promise<void>((resolve) => relay.listen(relayPort, "127.0.0.1", resolve));
  try {
    const relayed: Backend = Object.assign(Object.create(backend), { url: `http://127.0.0.1:${relayPort}` });
    const app = await startApp(relayed, {
      sessionSecret: newSessionSecret(),
      env: { BACKEND_MAX_CONNECTIONS: "2" },
    });
    // four deep health checks at once: eight backend requests (two at a time: 1.2 s, within the check's 3 s)
    const answers = await Promise.all(Array.from({ length: 4 }, () => fetch(`${app.url}/healthz?deep=1`)));
    expect(answers.map((a) => a.status)).toEqual(Array(4).fill(200));
    expect(mostOpen, "connections open at once").toBeLessThanOrEqual(2);
    expect(mostOpen).toBeGreaterThan(0);
    await app.stop();
  } finally {
    relay.close();
    await backend.stop();
  }
});
