import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

/**
 * Who sees a project (issue 41; docs/product.md §20), through the app: the settings page's
 * "Visible to" and its chosen people (plain form posts, admins and the owner), a private
 * project answering 404 to a member not chosen (as an unknown project) and leaving the
 * team's project list, and coming back when they are added.
 */
let stack: TestStack;
let team: RouteTeam;
let settings: typeof import("~/routes/teams.$team.projects.$key_.settings");
let board: typeof import("~/routes/teams.$team.projects.$key");
let projects: typeof import("~/routes/teams.$team.projects._index");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  settings = await import("~/routes/teams.$team.projects.$key_.settings");
  board = await import("~/routes/teams.$team.projects.$key");
  projects = await import("~/routes/teams.$team.projects._index");
});
afterAll(() => stack?.close());

const params = { team: "", key: "WEB" };
const url = () => `/teams/${team.slug}/projects/WEB/settings`;
const post = (user: RouteTeam["admin"], form: Record<string, string>) =>
  call(settings.action, { url: url(), user, params: { ...params, team: team.slug }, form });
const openBoard = (user: RouteTeam["admin"]) =>
  call(board.loader, {
    url: `/teams/${team.slug}/projects/WEB`,
    user,
    params: { ...params, team: team.slug },
  });
const listed = async (user: RouteTeam["admin"]) => {
  const result = await call(projects.loader, {
    url: `/teams/${team.slug}/projects`,
    user,
    params: { team: team.slug },
  });
  return JSON.stringify(result.data).includes('"WEB"');
};

describe("a private project in the app", () => {
  it("admins make it private; a member not chosen gets 404 and no listing; added, they see it again", async () => {
    expect(await listed(team.member)).toBe(true);
    // a member may not change who sees it
    const refused = await post(team.member, { intent: "set-visibility", visibility: "private" });
    expect(refused.status).toBe(403);
    expect(await openBoard(team.member)).toMatchObject({ status: 200 });

    const made = await post(team.admin, { intent: "set-visibility", visibility: "private" });
    expect(made.status).toBe(302);
    expect(made.location).toBe(`/teams/${team.slug}/projects/WEB/settings#access`);
    expect((await openBoard(team.member)).status).toBe(404);
    expect((await openBoard(team.viewer)).status).toBe(404);
    expect((await openBoard(team.outsider)).status).toBe(404);
    expect((await openBoard(team.owner)).status).toBe(200);
    expect(await listed(team.member)).toBe(false);
    expect(await listed(team.admin)).toBe(true);

    const page = await call(settings.loader, { url: url(), user: team.admin, params: { ...params, team: team.slug } });
    const access = (page.data as { access: { visibility: string; candidates: Array<{ userId: string }> } }).access;
    expect(access.visibility).toBe("private");
    expect(access.candidates.map((p) => p.userId).sort()).toEqual([team.member.id, team.viewer.id].sort());

    expect((await post(team.admin, { intent: "add-project-member", userId: team.member.id })).status).toBe(302);
    expect((await openBoard(team.member)).status).toBe(200);
    expect(await listed(team.member)).toBe(true);
    expect((await openBoard(team.viewer)).status).toBe(404);

    const again = await post(team.admin, { intent: "add-project-member", userId: team.member.id });
    expect(again).toMatchObject({ status: 400, data: { errors: { form: "That person already sees this project." } } });
    const stranger = await post(team.admin, { intent: "add-project-member", userId: team.outsider.id });
    expect(stranger).toMatchObject({
      status: 400,
      data: { errors: { form: "Only people in the team can be added to a project." } },
    });
    const garbled = await post(team.admin, { intent: "add-project-member", userId: "nobody" });
    expect(garbled).toMatchObject({ status: 400, data: { errors: { userId: "Choose a person." } } });

    expect((await post(team.owner, { intent: "remove-project-member", userId: team.member.id })).status).toBe(302);
    expect((await openBoard(team.member)).status).toBe(404);

    expect((await post(team.admin, { intent: "set-visibility", visibility: "team" })).status).toBe(302);
    expect((await openBoard(team.viewer)).status).toBe(200);
  });
});
