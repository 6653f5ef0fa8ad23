import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam, type RouteUser } from "./support.ts";

/**
 * Saved views (docs/product.md §13, §9): a name of 1–40 characters, one
 * name per person and project, at most 20 per person per project, personal
 * or (admins+) shared, renamed and deleted by whoever may; row-level
 * security checked with the person's own token as well as through the forms.
 */
let stack: TestStack;
let team: RouteTeam;
let views: typeof import("~/routes/teams.$team.projects.$key_.views");
let board: typeof import("~/routes/teams.$team.projects.$key");

const base = () => `/teams/${team.slug}/projects/WEB`;
const params = () => ({ team: team.slug, key: "WEB" });
type View = { id: string; name: string; kind: string; query: string; shared: boolean; mine: boolean };

const save = (user: RouteUser, fields: Record<string, string>) =>
  call(views.action, {
    url: `${base()}/views`,
    user,
    params: params(),
    form: { intent: "save", kind: "list", query: "", ...fields },
  });
const change = (user: RouteUser, fields: Record<string, string>) =>
  call(views.action, { url: `${base()}/views`, user, params: params(), form: fields });
async function seen(user: RouteUser): Promise<View[]> {
  const result = await call(board.loader, { url: base(), user, params: params() });
  expect(result.status).toBe(200);
  return (result.data as { savedViews: View[] }).savedViews;
}
async function signedIn(user: RouteUser) {
  const client = stack.anonClient();
  await client.auth.signInWithPassword({ email: user.email, password: user.password });
  return client;
}

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  views = await import("~/routes/teams.$team.projects.$key_.views");
  board = await import("~/routes/teams.$team.projects.$key");
});
afterAll(() => stack?.close());

describe("saving a view", () => {
  it("keeps the page's filters, sort and grouping (not its page) and opens it again", async () => {
    const result = await save(team.member, {
      name: "  My bugs ",
      query: "assignee=me&label=bug&sort=-due&group=status&page=3&bogus=1",
    });
    expect(result.location).toBe(`${base()}/list?assignee=me&label=bug&sort=-due&group=status`);
    expect(await seen(team.member)).toEqual([
      expect.objectContaining({ name: "My bugs", kind: "list", shared: false, mine: true }),
    ]);
    // nobody else sees a personal view, through the app or the backend
    expect(await seen(team.admin)).toEqual([]);
    const { data } = await (await signedIn(team.admin)).from("saved_views").select("id");
    expect(data).toEqual([]);
  });

  it("keeps a sort, grouping, columns and filters by the fields the team defines", async () => {
    const points = "0b6a4c1e-0000-4000-8000-000000000001";
    const customer = "0b6a4c1e-0000-4000-8000-000000000002";
    const result = await save(team.member, {
      name: "By points",
      query: `sort=-field:${points}&group=field:${customer}&columns=${points}&columns=${customer}&f.${customer}=none&f.${points}=5&page=2`,
    });
    expect(result.location).toBe(
      `${base()}/list?${new URLSearchParams([
        ["sort", `-field:${points}`],
        ["group", `field:${customer}`],
        ["columns", `${points},${customer}`],
        [`f.${customer}`, "none"],
        [`f.${points}`, "5"],
      ])}`,
    );
  });

  it("needs a name of 1–40 characters, once per person and project", async () => {
    expect((await save(team.member, { name: "   " })).status).toBe(400);
    const long = await save(team.member, { name: "x".repeat(41) });
    expect(long.status).toBe(400);
    expect(long.data).toMatchObject({ errors: { name: "A view's name has at most 40 characters." } });
    const twice = await save(team.member, { name: "my BUGS" });
    expect(twice.status).toBe(400);
    expect(twice.data).toMatchObject({ errors: { name: "You have a view with that name already." } });
    // another person may use the same name
    expect((await save(team.viewer, { name: "My bugs" })).location).toBe(`${base()}/list`);
  });

  it("shares only for admins+: a member's shared save is a 403, and the backend refuses it too", async () => {
    const refused = await save(team.member, { name: "Team board", shared: "on" });
    expect(refused.status).toBe(403);
    const direct = await (
      await signedIn(team.member)
    )
      .from("saved_views")
      .insert({ project_id: team.projectId, name: "Sneaky", kind: "board", shared: true });
    expect(direct.error?.code).toBe("42501");
    expect((await save(team.admin, { name: "Team board", kind: "board", shared: "on" })).status).toBe(302);
    expect((await seen(team.viewer)).map((v) => [v.name, v.shared, v.mine])).toContainEqual([
      "Team board",
      true,
      false,
    ]);
  });

  it("keeps at most 20 per person per project (the 21st is a 400 with §16's words)", async () => {
    for (let n = 1; n <= 19; n++) expect((await save(team.viewer, { name: `View ${n}` })).status).toBe(302);
    const over = await save(team.viewer, { name: "View 20" });
    expect(over.status).toBe(400);
    expect(over.data).toMatchObject({ errors: { form: "You can keep at most 20 views in a project." } });
  });
});

describe("renaming and deleting", () => {
  const idOf = async (user: RouteUser, name: string) => (await seen(user)).find((v) => v.name === name)!.id;

  it("the owner renames and deletes their own views", async () => {
    const id = await idOf(team.member, "My bugs");
    const renamed = await change(team.member, { intent: "rename", viewId: id, name: "Bugs of mine" });
    expect(renamed.location).toBe(`${base()}/views`);
    expect((await seen(team.member)).map((v) => v.name)).toContain("Bugs of mine");
    expect((await change(team.member, { intent: "delete", viewId: id })).location).toBe(`${base()}/views`);
    expect((await seen(team.member)).map((v) => v.name)).not.toContain("Bugs of mine");
  });

  it("a shared view is the admins': a member's rename or delete is a 403 and changes nothing", async () => {
    const id = await idOf(team.member, "Team board");
    expect((await change(team.member, { intent: "rename", viewId: id, name: "Mine now" })).status).toBe(403);
    expect((await change(team.member, { intent: "delete", viewId: id })).status).toBe(403);
    expect(await idOf(team.admin, "Team board")).toBe(id);
    expect((await change(team.admin, { intent: "rename", viewId: id, name: "The board" })).status).toBe(302);
  });

  it("someone else's personal view is a 404 (they can't know it exists)", async () => {
    const id = await idOf(team.viewer, "View 1");
    expect((await change(team.admin, { intent: "delete", viewId: id })).status).toBe(404);
    expect((await change(team.outsider, { intent: "delete", viewId: id })).status).toBe(404);
    expect(await idOf(team.viewer, "View 1")).toBe(id);
  });
});
