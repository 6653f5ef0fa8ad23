import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestScope, runInRequestScope } from "~/lib/request-scope.server";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

/**
 * Public read-only links (issue 41; docs/product.md §20), through the app: the project's links
 * page (admins and the owner make and revoke; plain form posts), and /shared/<secret> opened
 * with no cookie at all — the page, its noindex and cache headers, no cookie set, no script, no
 * email; 404 once revoked or unknown; 429 past 60 views a minute from one address.
 */
let stack: TestStack;
let team: RouteTeam;
let links: typeof import("~/routes/teams.$team.projects.$key_.settings_.links");
let shared: typeof import("~/routes/shared.$secret");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  links = await import("~/routes/teams.$team.projects.$key_.settings_.links");
  shared = await import("~/routes/shared.$secret");
  const field = await stack.db.query<{ id: string }>(
    "insert into fields (project_id, name, kind) values ($1, 'Customer', 'text') returning id",
    [team.projectId],
  );
  await stack.db.query(`insert into field_values (task_id, field_id, value) values ($1, $2, '"Globex"')`, [
    team.taskIds[0],
    field.rows[0].id,
  ]);
  fieldId = field.rows[0].id;
  await stack.db.query("insert into comments (task_id, author_id, body) values ($1, $2, 'Not before Friday')", [
    team.taskIds[0],
    team.member.id,
  ]);
});
afterAll(() => stack?.close());

let fieldId: string;
const url = () => `/teams/${team.slug}/projects/WEB/settings/links`;
const params = () => ({ team: team.slug, key: "WEB" });
const post = (user: RouteTeam["admin"], form: Array<[string, string]>) =>
  call(links.action, { url: url(), user, params: params(), form });

/** Makes a link through the page; its secret. */
async function makeLink(form: Array<[string, string]> = []) {
  const made = await post(team.admin, [["intent", "create-link"], ["target", "board"], ...form]);
  expect(made.status).toBe(200);
  const address = (made.data as { address: string }).address;
  expect(address).toMatch(/^http:\/\/app\.test\/shared\/[A-Za-z0-9_-]{43}$/);
  return address.slice(address.lastIndexOf("/") + 1);
}

/** GET /shared/<secret> as a browser with no cookie, from `client`. */
async function open(secret: string, client?: string): Promise<Response> {
  const request = new Request(`http://app.test/shared/${secret}`);
  return runInRequestScope(new RequestScope({ client }), async () => {
    try {
      return (await shared.loader({ request, params: { secret }, context: {} as AppLoadContext })) as Response;
    } catch (thrown) {
      return thrown as Response;
    }
  });
}

describe("the links page", () => {
  it("is for admins and the owner: a member gets 403 for the page and the post", async () => {
    expect((await call(links.loader, { url: url(), user: team.member, params: params() })).status).toBe(403);
    const refused = await post(team.member, [
      ["intent", "create-link"],
      ["target", "board"],
    ]);
    expect(refused.status).toBe(403);
    const page = await call(links.loader, { url: url(), user: team.admin, params: params() });
    expect(page.status).toBe(200);
  });

  it("a view that isn't one of the project's shared views is refused with a message", async () => {
    const refused = await post(team.admin, [
      ["intent", "create-link"],
      ["target", "00000000-0000-4000-8000-000000000000"],
    ]);
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ errors: { target: "Choose the board or one of the team's shared views." } });
  });
});

describe("a shared saved view", () => {
  it("admins get a Share link on the saved views page; the view's link shows its tasks only", async () => {
    const views = await import("~/routes/teams.$team.projects.$key_.views");
    const view = await stack.db.query<{ id: string }>(
      "insert into saved_views (project_id, owner_id, name, kind, query, shared) values ($1, $2, 'Rooms', 'board', 'q=room', true) returning id",
      [team.projectId, team.owner.id],
    );
    const viewId = view.rows[0].id;
    const shareHref = async (user: RouteTeam["admin"]) => {
      const page = await call(views.loader, { url: `/teams/${team.slug}/projects/WEB/views`, user, params: params() });
      return (page.data as { views: Array<{ id: string; shareHref: string | null }> }).views.find(
        (v) => v.id === viewId,
      )?.shareHref;
    };
    expect(await shareHref(team.admin)).toBe(`${url()}?view=${viewId}`);
    expect(await shareHref(team.member)).toBeNull();
    const picked = await call(links.loader, { url: `${url()}?view=${viewId}`, user: team.admin, params: params() });
    expect((picked.data as { picked: string }).picked).toBe(viewId);

    const made = await post(team.admin, [
      ["intent", "create-link"],
      ["target", viewId],
    ]);
    const address = (made.data as { address: string }).address;
    const html = await (await open(address.slice(address.lastIndexOf("/") + 1))).text();
    expect(html).toContain("Website: Rooms");
    expect(html).toContain("Book the room");
    expect(html).not.toContain("Plan the sprint");
  });
});

describe("/shared/<secret>", () => {
  it("shows the board without cookies or JavaScript, noindex, privately cached, with only what was chosen", async () => {
    const secret = await makeLink([["field", fieldId]]);
    const page = await open(secret);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("X-Robots-Tag")).toBe("noindex, nofollow");
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(page.headers.get("Set-Cookie")).toBeNull();
    const html = await page.text();
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(html).not.toContain("<script");
    for (const shown of [
      "Website",
      "WEB-1",
      "Plan the sprint",
      "WEB-2",
      "Book the room",
      "To do",
      "Customer",
      "Globex",
    ])
      expect(html).toContain(shown);
    // no emails, no comments unless chosen
    for (const email of [team.owner.email, team.admin.email, team.member.email]) expect(html).not.toContain(email);
    expect(html).not.toContain("@example.test");
    expect(html).not.toContain("Not before Friday");
  });

  it("shows comments when chosen, and no field that wasn't", async () => {
    const html = await (await open(await makeLink([["comments", "on"]]))).text();
    expect(html).toContain("Not before Friday");
    expect(html).not.toContain("Globex");
  });

  it("answers 404 with nothing in it once revoked, and for an unknown or malformed address", async () => {
    const secret = await makeLink();
    expect((await open(secret)).status).toBe(200);
    const page = await call(links.loader, { url: url(), user: team.admin, params: params() });
    const live = (page.data as { links: Array<{ id: string; revokedAt: string | null }> }).links.filter(
      (l) => !l.revokedAt,
    );
    // the newest first: the one just made
    const revoked = await post(team.admin, [
      ["intent", "revoke-link"],
      ["linkId", live[0].id],
    ]);
    expect(revoked.status).toBe(302);
    expect(revoked.location).toBe(url());
    const gone = await open(secret);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("X-Robots-Tag")).toBe("noindex, nofollow");
    expect(await gone.text()).toBe("");
    // revoking it again: not found
    expect(
      (
        await post(team.admin, [
          ["intent", "revoke-link"],
          ["linkId", live[0].id],
        ])
      ).status,
    ).toBe(404);
    expect((await open("A".repeat(43))).status).toBe(404);
    expect((await open("not-a-secret")).status).toBe(404);
  });

  it("answers 429 with Retry-After past 60 views a minute from one address, found or not; other addresses go on", async () => {
    const secret = await makeLink();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await open("x", "203.0.113.7")).status);
    expect(statuses.every((s) => s === 404)).toBe(true);
    const refused = await open(secret, "203.0.113.7");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect((await open(secret, "203.0.113.8")).status).toBe(200);
  });
});
