import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestMessage, linksIn } from "../support/auth-helpers.ts";
import type { TestStack } from "../support/stack.ts";
import { call, createUser, seedTeam, startRouteStack, type RouteTeam, type RouteUser } from "./support.ts";

/**
 * Guests through the app (issue 41; docs/product.md §20): an admin invites a guest to CLIENT on
 * the members page (plain post, the projects ticked), the guest signs up and accepts, and then
 * sees CLIENT only: its board and tasks (and may comment), CLIENT's people on the members page,
 * CLIENT alone in the sidebar; the team-wide WEB board and the pages a guest can't use are 404.
 */
let stack: TestStack;
let team: RouteTeam;
let guest: RouteUser;
let client: string;
let members: typeof import("~/routes/teams.$team.members");
let invitation: typeof import("~/routes/invitations.$token");
let layout: typeof import("~/routes/teams.$team");
let board: typeof import("~/routes/teams.$team.projects.$key");
let task: typeof import("~/routes/teams.$team.projects.$key.tasks.$number");
let comments: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
let labels: typeof import("~/routes/teams.$team.labels");
let newProject: typeof import("~/routes/teams.$team.projects.new");
let settings: typeof import("~/routes/teams.$team.projects.$key_.settings");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  guest = await createUser(stack, "Gail Guest");
  const made = await stack
    .adminClient()
    .from("projects")
    .insert({ team_id: team.id, key: "CLIENT", name: "Client work", visibility: "private" })
    .select("id")
    .single<{ id: string }>();
  if (made.error) throw made.error;
  client = made.data.id;
  await stack.adminClient().from("tasks").insert({ project_id: client, title: "Send the mock-ups" });
  members = await import("~/routes/teams.$team.members");
  invitation = await import("~/routes/invitations.$token");
  layout = await import("~/routes/teams.$team");
  board = await import("~/routes/teams.$team.projects.$key");
  task = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  comments = await import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
  labels = await import("~/routes/teams.$team.labels");
  newProject = await import("~/routes/teams.$team.projects.new");
  settings = await import("~/routes/teams.$team.projects.$key_.settings");
});
afterAll(() => stack?.close());

const at = (path: string, user: RouteUser | null, params: Record<string, string> = {}) =>
  call(
    (
      {
        "": layout.loader,
        "/members": members.loader,
        "/labels": labels.loader,
        "/projects/new": newProject.loader,
      } as unknown as Record<string, typeof layout.loader>
    )[path],
    { url: `/teams/${team.slug}${path}`, user, params: { team: team.slug, ...params } },
  );
const openBoard = (key: string) =>
  call(board.loader, { url: `/teams/${team.slug}/projects/${key}`, user: guest, params: { team: team.slug, key } });

describe("a guest invited to CLIENT", () => {
  it("the invitation form offers the guest role and needs a project for it", async () => {
    const page = await at("/members", team.admin);
    expect((page.data as { projects: { key: string }[] }).projects.map((p) => p.key).sort()).toEqual(["CLIENT", "WEB"]);
    const none = await call(members.action, {
      url: `/teams/${team.slug}/members`,
      user: team.admin,
      params: { team: team.slug },
      form: { intent: "invite", email: guest.email, role: "guest" },
    });
    expect(none).toMatchObject({
      status: 400,
      data: {
        errors: { projectIds: "Choose at least one project for a guest: it is all they will see." },
        values: { email: guest.email, role: "guest" },
      },
    });
    const sent = await call(members.action, {
      url: `/teams/${team.slug}/members`,
      user: team.admin,
      params: { team: team.slug },
      form: [
        ["intent", "invite"],
        ["email", guest.email],
        ["role", "guest"],
        ["projectIds", client],
      ],
    });
    expect(sent).toMatchObject({ status: 302, location: `/teams/${team.slug}/members` });
  });

  it("signs up, accepts, and sees CLIENT only", async () => {
    const message = await latestMessage(stack.url, guest.email);
    expect(message.Text).toContain("as a guest");
    const token = linksIn(message)
      .map((l) => /\/invitations\/([A-Za-z0-9_-]+)/.exec(l)?.[1])
      .find(Boolean)!;
    const accepted = await call(invitation.action, {
      url: `/invitations/${token}`,
      user: guest,
      params: { token },
      form: { intent: "accept" },
    });
    expect(accepted).toMatchObject({ status: 302, location: `/teams/${team.slug}` });

    const shell = await at("", guest);
    const shellData = shell.data as { team: { role: string }; projects: { key: string }[]; can: { seeTeam: boolean } };
    expect(shellData.team.role).toBe("guest");
    expect(shellData.projects.map((p) => p.key)).toEqual(["CLIENT"]);
    expect(shellData.can.seeTeam).toBe(false);
    expect(shell.text ?? "").not.toContain("WEB");

    expect((await openBoard("CLIENT")).status).toBe(200);
    expect((await openBoard("WEB")).status).toBe(404);

    // the members page: CLIENT's people (the admins and the owner, who see every project), not the rest
    const people = (await at("/members", guest)).data as { members: { userId: string }[] };
    expect(people.members.map((m) => m.userId).sort()).toEqual([team.owner.id, team.admin.id, guest.id].sort());

    // pages a guest can't use aren't there
    expect((await at("/labels", guest)).status).toBe(404);
    expect((await at("/projects/new", guest)).status).toBe(404);
    const clientSettings = await call(settings.loader, {
      url: `/teams/${team.slug}/projects/CLIENT/settings`,
      user: guest,
      params: { team: team.slug, key: "CLIENT" },
    });
    expect(clientSettings.status).toBe(404);
  });

  it("opens CLIENT's task, may comment there, edits nothing", async () => {
    const params = { team: team.slug, key: "CLIENT", number: "1" };
    const page = await call(task.loader, { url: `/teams/${team.slug}/projects/CLIENT/tasks/1`, user: guest, params });
    expect(page.status).toBe(200);
    const can = (page.data as { can: { comment: boolean; editTasks: boolean } }).can;
    expect(can).toMatchObject({ comment: true, editTasks: false });
    const posted = await call(comments.action, {
      url: `/teams/${team.slug}/projects/CLIENT/tasks/1`,
      user: guest,
      params,
      form: { intent: "comment", body: "Looks great, thanks." },
    });
    expect(posted.status).toBe(302);
    const webTask = await call(task.loader, {
      url: `/teams/${team.slug}/projects/WEB/tasks/1`,
      user: guest,
      params: { ...params, key: "WEB" },
    });
    expect(webTask.status).toBe(404);
  });

  it("the new-project form (plain posts) makes a project private to the people ticked, or team-wide with a guest", async () => {
    const url = `/teams/${team.slug}/projects/new`;
    const post = (form: Array<[string, string]>) =>
      call(newProject.action, { url, user: team.admin, params: { team: team.slug }, form });
    const offered = (await at("/projects/new", team.admin)).data as { people: { userId: string }[] };
    expect(offered.people.map((p) => p.userId).sort()).toEqual([team.member.id, team.viewer.id, guest.id].sort());

    const bad = await post([
      ["name", "Hiring"],
      ["key", "HIRE"],
      ["visibility", "secret"],
      ["memberIds", team.member.id],
    ]);
    expect(bad).toMatchObject({
      status: 400,
      data: {
        errors: { visibility: "Choose who sees the project." },
        values: { name: "Hiring", memberIds: team.member.id },
      },
    });
    const hire = await post([
      ["name", "Hiring"],
      ["key", "HIRE"],
      ["visibility", "private"],
      ["memberIds", team.member.id],
    ]);
    expect(hire).toMatchObject({ status: 302, location: `/teams/${team.slug}/projects/HIRE` });
    const open = (user: RouteUser, key: string) =>
      call(board.loader, { url: `/teams/${team.slug}/projects/${key}`, user, params: { team: team.slug, key } });
    expect((await open(team.member, "HIRE")).status).toBe(200);
    expect((await open(team.viewer, "HIRE")).status).toBe(404);
    expect((await open(guest, "HIRE")).status).toBe(404);

    const docs = await post([
      ["name", "Docs"],
      ["key", "DOCS"],
      ["visibility", "team"],
      ["memberIds", guest.id],
    ]);
    expect(docs.status).toBe(302);
    expect((await open(team.viewer, "DOCS")).status).toBe(200);
    expect((await open(guest, "DOCS")).status).toBe(200);
  });
});
