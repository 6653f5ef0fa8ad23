import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

/**
 * Same-site request forgery (issue 22 L8): a page on another port of this
 * host is the same *site*, so the browser sends the session cookie with its
 * form posts. Every action of every route — page routes and resource routes
 * alike (/logout, /api/attachments) — refuses a post whose Origin is not the
 * app's own, before it reads the session or calls the backend.
 */

let stack: TestStack;
let team: RouteTeam;

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
});
afterAll(() => stack?.close());

const ROUTES_DIR = path.resolve("app/routes");
const withActions = fs
  .readdirSync(ROUTES_DIR)
  .filter(
    (file) =>
      /\.tsx?$/.test(file) &&
      /export (async )?function action/.test(fs.readFileSync(path.join(ROUTES_DIR, file), "utf8")),
  );

async function crossSitePost(file: string, origin: string) {
  const route = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, file))) as {
    action: Parameters<typeof call>[0];
  };
  const url = "/teams/x/projects/WEB/tasks/1";
  const request = new Request(`http://app.test${url}`, {
    method: "POST",
    headers: { Cookie: team.owner.cookie, Origin: origin, Host: "app.test" },
    body: new URLSearchParams({ intent: "delete", scope: "global", name: "x" }),
  });
  try {
    const answer = await route.action({ request, params: { team: team.slug, key: "WEB", number: "1" }, context: {} });
    return answer instanceof Response ? answer.status : 200;
  } catch (thrown) {
    return thrown instanceof Response ? thrown.status : -1;
  }
}

describe("every action refuses a post from another origin", () => {
  it("finds the routes with actions", () => {
    expect(withActions).toEqual(expect.arrayContaining(["logout.tsx", "api.attachments.tsx", "account.delete.tsx"]));
  });

  for (const file of withActions) {
    it(`${file}: 403 from another port of this host and from another site`, async () => {
      expect(await crossSitePost(file, "http://app.test:5174")).toBe(403);
      expect(await crossSitePost(file, "https://evil.example")).toBe(403);
    });
  }

  it("a cross-site 'log out on every device' ends no session", async () => {
    const logout = await import("~/routes/logout");
    const sessions = async () =>
      (await stack.db.query("select 1 from auth.sessions where user_id = $1", [team.viewer.id])).rows.length;
    const before = await sessions();
    expect(before).toBeGreaterThan(0);
    const request = new Request("http://app.test/logout", {
      method: "POST",
      headers: { Cookie: team.viewer.cookie, Origin: "http://app.test:5174", Host: "app.test" },
      body: new URLSearchParams({ scope: "global" }),
    });
    await logout.action({ request, params: {}, context: {} }).catch((thrown: unknown) => thrown);
    expect(await sessions()).toBe(before);
  });
});
