/**
 * What a web page on another site can do to a developer's local stack: call
 * the API with open CORS (as Supabase's gateway allows), but not read the
 * inbox, clear it or reach /_stack; and an OAuth redirect_to with userinfo or
 * an odd host form never sends tokens elsewhere.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const APP = "http://localhost:5173";
const EVIL = "https://evil.example";
const NO_ROUTE = { message: "no Route matched with those values" };
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ auth: { siteUrl: APP } });
});
afterAll(() => stack?.close());

/** A request with exactly these headers (fetch() sets Sec-Fetch-Mode and Host itself). */
function raw(path: string, headers: Record<string, string>, method = "GET") {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(`${stack.url}${path}`, { method, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The status, CORS header and body of a request whose path goes out exactly as written. */
function rawAnswer(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; acao: string | null; body: string }>((resolve, reject) => {
    const req = http.request(`${stack.url}/`, { method: "GET", path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        const acao = res.headers["access-control-allow-origin"];
        resolve({ status: res.statusCode ?? 0, acao: typeof acao === "string" ? acao : null, body });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** The headers a browser sends with a fetch() from a page on evil.example. */
const crossSite = { origin: EVIL, "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" };

describe("the inbox and /_stack refuse other sites", () => {
  it("lets any site call the API, as hosted Supabase does", async () => {
    const r = await fetch(`${stack.url}/auth/v1/settings`, { headers: { apikey: stack.anonKey, ...crossSite } });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe(EVIL);
    const pre = await fetch(`${stack.url}/rest/v1/tasks`, {
      method: "OPTIONS",
      headers: { ...crossSite, "access-control-request-method": "GET" },
    });
    expect(pre.status).toBe(204);
  });

  it("refuses a cross-site read of the inbox, without CORS headers, on every inbox and /_stack path", async () => {
    const supabase = stack.anonClient();
    const email = uniqueEmail("victim");
    await supabase.auth.signInWithOtp({ email });
    for (const path of [
      "/inbox/api/v1/messages",
      `/inbox/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`,
      "/inbox/api/v1/message/latest",
      "/inbox",
      "/_stack/requests",
      "/_stack/cron/jobs",
    ]) {
      for (const headers of [
        crossSite,
        { origin: EVIL },
        { origin: "http://localhost:5173", "sec-fetch-site": "same-site", "sec-fetch-mode": "cors" },
      ]) {
        const r = await fetch(`${stack.url}${path}`, { headers });
        expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(r.headers.get("access-control-allow-origin")).toBeNull();
        expect(await r.text()).not.toContain(email);
      }
      const preflight = await fetch(`${stack.url}${path}`, {
        method: "OPTIONS",
        headers: { ...crossSite, "access-control-request-method": "DELETE" },
      });
      expect(preflight.status).toBe(403);
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    }
    // the developer's own tools (no browser markers) and the inbox page in a tab still work
    const tool = await fetch(`${stack.url}/inbox/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`);
    expect(tool.status).toBe(200);
    expect(tool.headers.get("access-control-allow-origin")).toBeNull();
    expect(((await tool.json()) as { messages: unknown[] }).messages).toHaveLength(1);
    expect(await raw("/inbox", { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" })).toBe(200);
    // following a link from the app (another site) opens the page; that site cannot read it
    expect(await raw("/inbox", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" })).toBe(200);
    expect(await raw("/inbox/api/v1/messages", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" })).toBe(
      403,
    );
  });

  it("refuses every spelling of an inbox or /_stack path, not only the plain one", async () => {
    const email = uniqueEmail("spelled");
    await stack.anonClient().auth.signInWithOtp({ email });
    // what a browser's fetch() from another site can put in the request line (fetch keeps %-escapes and //)
    const spellings = [
      "/%69nbox/api/v1/messages",
      "/%69%6E%62%6F%78/api/v1/messages",
      "/%69nbox",
      "/%69nbox/api/v1/message/latest",
      "/inbox/api/v1/%6dessage/latest",
      "/inbox/%61pi/v1/messages",
      "//inbox/api/v1/messages",
      "/./inbox/api/v1/messages",
      "/x/../inbox/api/v1/messages",
      "/%2e/inbox/api/v1/messages",
      "/x/%2E%2E/inbox/api/v1/messages",
      "/INBOX/api/v1/messages",
      "/Inbox/api/v1/messages",
      "/inbox%2Fapi%2Fv1%2Fmessages",
      "/inbox%2fapi/v1/messages",
      "/inbox/api/v1//messages",
      "/%5fstack/requests",
      "/_st%61ck/requests",
      "//_stack/requests",
      "/_stack%2Frequests",
      "/auth/v1/../../inbox/api/v1/messages",
      "/rest/v1/%2e%2e/%2e%2e/inbox/api/v1/messages",
    ];
    for (const path of spellings) {
      const r = await rawAnswer(path, { ...crossSite, authorization: `Bearer ${stack.serviceRoleKey}` });
      expect(r.body, path).not.toContain(email);
      expect(r.body, path).not.toContain('"method"');
      // refused as the inbox is, or no route at all (which names nothing and may be read by anyone)
      if (r.status === 403) expect(r.acao, path).toBeNull();
      else expect({ status: r.status, body: JSON.parse(r.body) }, path).toEqual({ status: 404, body: NO_ROUTE });
    }
    // the same spellings from this machine's own tools reach the inbox or nothing, never something else
    const tool = await rawAnswer("/%69nbox/api/v1/messages", {});
    expect(tool.status).toBe(200);
    expect(tool.body).toContain(email);
  });

  it("guards the admin API under every spelling of its path", async () => {
    const headers = { apikey: stack.anonKey, authorization: `Bearer ${stack.anonKey}` };
    const plain = await rawAnswer("/auth/v1/admin/users", headers);
    expect(plain.status).toBe(403);
    for (const path of [
      "/auth/v1/%61dmin/users",
      "/auth/v1/%61%64%6D%69%6E/users",
      "/auth/v1/x/../admin/users",
      "/auth/v1/./admin/users",
      "/rest/v1/../../auth/v1/admin/users",
    ]) {
      const r = await rawAnswer(path, headers);
      expect({ status: r.status, body: r.body }, path).toEqual({ status: plain.status, body: plain.body });
    }
  });

  it("refuses a DNS-rebinding Host", async () => {
    expect(await raw("/inbox/api/v1/messages", { host: "evil.example:54321" })).toBe(403);
    expect(await raw("/inbox/api/v1/messages", { host: "localhost:54321" })).toBe(200);
  });

  it("deletes mail only with the service role key or from the inbox page's own form", async () => {
    await stack.anonClient().auth.signInWithOtp({ email: uniqueEmail("keep") });
    const total = async () =>
      ((await (await fetch(`${stack.url}/inbox/api/v1/messages`)).json()) as { total: number }).total;
    const before = await total();
    expect(before).toBeGreaterThan(0);
    expect((await fetch(`${stack.url}/inbox/api/v1/messages`, { method: "DELETE" })).status).toBe(401);
    expect(
      (await fetch(`${stack.url}/inbox/api/v1/messages`, { method: "DELETE", headers: { apikey: stack.anonKey } }))
        .status,
    ).toBe(401);
    // a form on another site posting to the clear button's address
    const forged = await fetch(`${stack.url}/inbox/clear`, {
      method: "POST",
      headers: {
        origin: EVIL,
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "navigate",
        "content-type": "application/x-www-form-urlencoded",
      },
      redirect: "manual",
    });
    expect(forged.status).toBe(403);
    const noMarkers = await fetch(`${stack.url}/inbox/clear`, { method: "POST", redirect: "manual" });
    expect(noMarkers.status).toBe(403);
    expect(await total()).toBe(before);
    // the inbox page's own button
    const own = await fetch(`${stack.url}/inbox/clear`, {
      method: "POST",
      headers: { origin: stack.url, "sec-fetch-site": "same-origin" },
      redirect: "manual",
    });
    expect(own.status).toBe(303);
    expect(await total()).toBe(0);
  });
});

describe("OAuth redirect_to with userinfo or odd hosts", () => {
  it.each([
    "http://localhost:@1572395042/cb",
    "http://localhost:x@93.184.216.34/cb",
    "http://0x5db8d822/cb",
    "http://[::ffff:5db8:d822]/cb",
    "http://evil/cb",
  ])("sends tokens for %s to the site URL instead", async (redirectTo) => {
    const toConsent = await fetch(
      `${stack.url}/auth/v1/authorize?provider=local&redirect_to=${encodeURIComponent(redirectTo)}`,
      { redirect: "manual" },
    );
    const page = await (await fetch(toConsent.headers.get("location") ?? "")).text();
    const state = /name="state" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const submitted = await fetch(`${stack.url}/auth/v1/local-provider/consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ state, email: uniqueEmail("oauth"), name: "" }),
      redirect: "manual",
    });
    expect(submitted.status).toBe(302);
    const location = new URL(submitted.headers.get("location") ?? "");
    expect(location.origin).toBe(APP);
    expect(location.username).toBe("");
  });
});
