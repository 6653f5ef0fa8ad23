import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, createUser, seedTeam, startRouteStack, type RouteTeam, type RouteUser } from "./support.ts";

const FORBIDDEN = "Your role in this team doesn't allow that.";

let stack: TestStack;
let user: RouteUser;
let team: RouteTeam;
let login: typeof import("~/routes/login");
let loginCode: typeof import("~/routes/login_.code");
let loginOAuth: typeof import("~/routes/login_.oauth");
let settings: typeof import("~/routes/teams.$team.settings");
let newProject: typeof import("~/routes/teams.$team.projects.new");
let members: typeof import("~/routes/teams.$team.members");

beforeAll(async () => {
  stack = await startRouteStack();
  [user, team] = await Promise.all([createUser(stack, "Lou Login"), seedTeam(stack)]);
  login = await import("~/routes/login");
  loginCode = await import("~/routes/login_.code");
  loginOAuth = await import("~/routes/login_.oauth");
  settings = await import("~/routes/teams.$team.settings");
  newProject = await import("~/routes/teams.$team.projects.new");
  members = await import("~/routes/teams.$team.members");
});
afterAll(() => stack?.close());

const anonymous = null;
const errorsOf = (data: unknown) => (data as { errors: Record<string, string> }).errors;

describe("/login", () => {
  it("signs in with a password (no intent means the password form) and goes to a safe next", async () => {
    const done = await call(login.action, {
      url: "/login",
      user: anonymous,
      params: {},
      form: { email: user.email, password: user.password, next: "/account" },
    });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/account");
    const unsafe = await call(login.action, {
      url: "/login",
      user: anonymous,
      params: {},
      form: { email: user.email, password: user.password, next: "//evil.example" },
    });
    expect(unsafe.location).toBe("/teams");
  });

  it("refuses a wrong password and a malformed address, keeping the email (never the password)", async () => {
    const wrong = await call(login.action, {
      url: "/login",
      user: anonymous,
      params: {},
      form: { intent: "password", email: user.email, password: "wrong-horse-2" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      intent: "password",
      errors: { form: "Email or password is incorrect." },
      values: { email: user.email },
    });
    expect((wrong.data as { values: Record<string, string> }).values.password).toBeUndefined();
    const malformed = await call(login.action, {
      url: "/login",
      user: anonymous,
      params: {},
      form: { intent: "password", email: "nobody", password: "x" },
    });
    expect(malformed.status).toBe(400);
    expect(errorsOf(malformed.data).email).toBe("Enter a valid email address, like name@example.com.");
  });

  it("emails a link or a code (and says nothing about unknown addresses); an unknown intent is refused", async () => {
    const link = await call(login.action, {
      url: "/login",
      user: anonymous,
      params: {},
      form: { intent: "magiclink", email: user.email },
    });
    expect(link).toMatchObject({ status: 200, data: { intent: "magiclink", sent: user.email } });
    const unknown = await call(login.action, {
      url: "/login",
      user: anonymous,
      params: {},
      form: { intent: "code", email: "nobody-here@example.test" },
    });
    expect(unknown).toMatchObject({ status: 200, data: { intent: "code", sent: "nobody-here@example.test" } });
    const bad = await call(login.action, {
      url: "/login",
      user: anonymous,
      params: {},
      form: { intent: "launch", email: user.email },
    });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.data).form).toBe("Unknown action.");
  });

  it("/login/code refuses a wrong code beside the field and a malformed one, keeping the address", async () => {
    const wrong = await call(loginCode.action, {
      url: "/login/code",
      user: anonymous,
      params: {},
      form: { email: user.email, token: "000000" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      intent: "verify-code",
      sent: user.email,
      errors: { token: "That code is wrong or has expired. Check the latest email or send a new code." },
    });
    const malformed = await call(loginCode.action, {
      url: "/login/code",
      user: anonymous,
      params: {},
      form: { email: user.email, token: "12ab" },
    });
    expect(malformed.status).toBe(400);
    expect(errorsOf(malformed.data).token).toBe("Enter the 6-digit code from the email.");
  });

  it("/login/oauth starts the provider's flow, or says a provider isn't available", async () => {
    const started = await call(loginOAuth.action, {
      url: "/login/oauth",
      user: anonymous,
      params: {},
      form: { provider: "local", next: "/account" },
    });
    expect(started.status).toBe(302);
    expect(started.location).toContain(`${stack.url}/auth/v1/authorize`);
    expect(new URL(started.location!).searchParams.get("redirect_to")).toBe(
      `http://app.test/auth/callback?${new URLSearchParams({ next: "/account" })}`,
    );
    const missing = await call(loginOAuth.action, {
      url: "/login/oauth",
      user: anonymous,
      params: {},
      form: { provider: "myspace" },
    });
    expect(missing.status).toBe(400);
    expect(errorsOf(missing.data).form).toBe("That sign-in provider isn't available.");
  });
});

describe("team settings and new projects", () => {
  const url = () => `/teams/${team.slug}/settings`;
  const p = () => ({ team: team.slug });

  it("admins rename (an empty name says why); members get 403 from the page and the form", async () => {
    expect((await call(settings.loader, { url: url(), user: team.member, params: p() })).status).toBe(403);
    const member = await call(settings.action, {
      url: url(),
      user: team.member,
      params: p(),
      form: { intent: "rename", name: "Mine now" },
    });
    expect(member).toMatchObject({
      status: 403,
      data: { intent: "rename", errors: { form: FORBIDDEN }, values: { name: "Mine now" } },
    });
    const empty = await call(settings.action, {
      url: url(),
      user: team.admin,
      params: p(),
      form: { intent: "rename", name: "  " },
    });
    expect(empty).toMatchObject({ status: 400, data: { intent: "rename", errors: { name: "Enter a team name." } } });
    const renamed = await call(settings.action, {
      url: url(),
      user: team.admin,
      params: p(),
      form: { intent: "rename", name: "Renamed team" },
    });
    expect(renamed).toMatchObject({ status: 302, location: url() });
  });

  it("only the owner transfers or deletes, and deleting needs the slug typed", async () => {
    const admin = await call(settings.action, {
      url: url(),
      user: team.admin,
      params: p(),
      form: { intent: "delete", confirm: team.slug },
    });
    expect(admin.status).toBe(403);
    const typo = await call(settings.action, {
      url: url(),
      user: team.owner,
      params: p(),
      form: { intent: "delete", confirm: "not-it" },
    });
    expect(typo).toMatchObject({
      status: 400,
      data: { intent: "delete", errors: { confirm: `Type ${team.slug} to confirm.` } },
    });
    const noOne = await call(settings.action, {
      url: url(),
      user: team.owner,
      params: p(),
      form: { intent: "transfer", newOwnerId: "" },
    });
    expect(noOne).toMatchObject({
      status: 400,
      data: { intent: "transfer", errors: { newOwnerId: "Choose a member." } },
    });
    expect(
      (await call(settings.action, { url: url(), user: team.owner, params: p(), form: { intent: "shred" } })).status,
    ).toBe(404);
  });

  it("admins create a project (a taken key says so beside the key); members get 403", async () => {
    const projects = `/teams/${team.slug}/projects/new`;
    expect((await call(newProject.loader, { url: projects, user: team.member, params: p() })).status).toBe(403);
    const member = await call(newProject.action, {
      url: projects,
      user: team.member,
      params: p(),
      form: { key: "OPS", name: "Ops" },
    });
    expect(member.status).toBe(403);
    const taken = await call(newProject.action, {
      url: projects,
      user: team.admin,
      params: p(),
      form: { key: "web", name: "Another website" },
    });
    expect(taken).toMatchObject({
      status: 400,
      data: { errors: { key: "That key is taken in this team." }, values: { name: "Another website" } },
    });
    const created = await call(newProject.action, {
      url: projects,
      user: team.admin,
      params: p(),
      form: { key: "ops", name: "Operations" },
    });
    expect(created).toMatchObject({ status: 302, location: `/teams/${team.slug}/projects/OPS` });
  });
});

describe("the members page", () => {
  const url = () => `/teams/${team.slug}/members`;
  const p = () => ({ team: team.slug });

  it("admins change a role and remove a member; members get 403; nobody changes their own role; a bad invitation says why", async () => {
    const member = await call(members.action, {
      url: url(),
      user: team.member,
      params: p(),
      form: { intent: "role", userId: team.viewer.id, role: "admin" },
    });
    expect(member).toMatchObject({ status: 403, data: { intent: "role", errors: { form: FORBIDDEN } } });
    const own = await call(members.action, {
      url: url(),
      user: team.admin,
      params: p(),
      form: { intent: "role", userId: team.admin.id, role: "viewer" },
    });
    expect(own).toMatchObject({ status: 400, data: { errors: { form: "You can't change your own role." } } });
    const badRole = await call(members.action, {
      url: url(),
      user: team.admin,
      params: p(),
      form: { intent: "role", userId: team.viewer.id, role: "owner" },
    });
    expect(badRole).toMatchObject({
      status: 400,
      data: { intent: "role", errors: { role: "Choose guest, viewer, member or admin." } },
    });
    const changed = await call(members.action, {
      url: `${url()}?page=1`,
      user: team.admin,
      params: p(),
      form: { intent: "role", userId: team.viewer.id, role: "member" },
    });
    expect(changed).toMatchObject({ status: 302, location: url() });
    const badInvite = await call(members.action, {
      url: url(),
      user: team.admin,
      params: p(),
      form: { intent: "invite", email: "not-an-address", role: "member" },
    });
    expect(badInvite).toMatchObject({
      status: 400,
      data: {
        intent: "invite",
        errors: { email: "Enter a valid email address." },
        values: { email: "not-an-address" },
      },
    });
    const removed = await call(members.action, {
      url: url(),
      user: team.admin,
      params: p(),
      form: { intent: "remove", userId: team.viewer.id },
    });
    expect(removed.status).toBe(302);
    expect(
      (await call(members.action, { url: url(), user: team.admin, params: p(), form: { intent: "promote" } })).status,
    ).toBe(404);
  });
});
