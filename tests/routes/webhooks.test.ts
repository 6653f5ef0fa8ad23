import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

/**
 * A project's webhooks page (docs/product.md §19): admins add one (its secret
 * shown once), see its deliveries, send one again, turn it off; members
 * can't; a bad address is refused with the catalogue's words and kept.
 */
let stack: TestStack;
let team: RouteTeam;
let page: typeof import("~/routes/teams.$team.projects.$key_.settings_.webhooks");
let server: http.Server;
const received: string[] = [];

const url = () => `/teams/${team.slug}/projects/WEB/settings/webhooks`;
const params = () => ({ team: team.slug, key: "WEB" });
const everything = { evCreated: "on", evChanged: "on", evMoved: "on", evDeleted: "on", evComment: "on" };

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  await stack.db.query("insert into webhook_allowed_hosts (host) values ('127.0.0.1')");
  page = await import("~/routes/teams.$team.projects.$key_.settings_.webhooks");
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push(body);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  server?.close();
  await stack?.close();
});

describe("the webhooks page", () => {
  it("is for admins and the owner", async () => {
    expect((await call(page.loader, { url: url(), user: team.admin, params: params() })).status).toBe(200);
    expect((await call(page.loader, { url: url(), user: team.member, params: params() })).status).toBe(403);
    const tried = await call(page.action, {
      url: url(),
      user: team.member,
      params: params(),
      form: { intent: "create-webhook", url: "https://example.com/x", format: "standard", ...everything },
    });
    expect(tried.status).toBe(403);
  });

  it("refuses an address that isn't http(s), keeping what was typed", async () => {
    const answer = await call(page.action, {
      url: url(),
      user: team.admin,
      params: params(),
      form: { intent: "create-webhook", url: "ftp://example.com/x", format: "slack", ...everything },
    });
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({
      errors: { url: "A webhook needs an http or https address." },
      values: { url: "ftp://example.com/x", format: "slack" },
    });
    const privateOne = await call(page.action, {
      url: url(),
      user: team.admin,
      params: params(),
      form: { intent: "create-webhook", url: "http://169.254.169.254/", format: "standard", ...everything },
    });
    expect(privateOne.status).toBe(400);
    expect(privateOne.data).toMatchObject({
      errors: { url: "That address is on a private network; this deployment doesn't send webhooks there." },
    });
    const noEvents = await call(page.action, {
      url: url(),
      user: team.admin,
      params: params(),
      form: { intent: "create-webhook", url: "https://example.com/x", format: "standard" },
    });
    expect(noEvents.data).toMatchObject({ errors: { events: "Choose at least one event." } });
  });

  it("adds one (secret once), logs its deliveries, sends one again, turns it off", async () => {
    const port = (server.address() as AddressInfo).port;
    const made = await call(page.action, {
      url: url(),
      user: team.admin,
      params: params(),
      form: { intent: "create-webhook", url: `http://127.0.0.1:${port}/in`, format: "standard", ...everything },
    });
    expect(made.status).toBe(200);
    const { secret } = made.data as { secret: string };
    expect(secret).toMatch(/^whsec_/);
    await stack.db.query("update tasks set title = 'Plan the sprint, again' where id = $1", [team.taskIds[0]]);
    const until = Date.now() + 10_000;
    while (received.length < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await stack.db.query("select public.webhooks_tick()");
    const seen = await call(page.loader, { url: url(), user: team.admin, params: params() });
    const [hook] = (seen.data as { webhooks: Array<{ id: string; deliveries: Array<Record<string, unknown>> }> })
      .webhooks;
    expect(JSON.stringify(seen.data)).not.toContain(secret);
    expect(hook.deliveries).toMatchObject([{ event: "task.changed", status: "delivered", response_status: 200 }]);
    expect(hook.deliveries[0].duration_ms).toEqual(expect.any(Number));

    const again = await call(page.action, {
      url: url(),
      user: team.admin,
      params: params(),
      form: { intent: "resend-delivery", deliveryId: String(hook.deliveries[0].id) },
    });
    expect(again.location).toBe(url());
    while (received.length < 2 && Date.now() < until + 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(2);
    expect(received[1]).toBe(received[0]);

    const off = await call(page.action, {
      url: url(),
      user: team.admin,
      params: params(),
      form: { intent: "toggle-webhook", webhookId: hook.id, enabled: "false" },
    });
    expect(off.location).toBe(url());
    const { rows } = await stack.db.query("select enabled from webhooks where id = $1", [hook.id]);
    expect(rows).toEqual([{ enabled: false }]);
  });
});
