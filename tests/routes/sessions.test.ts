import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, createUser, signIn, startRouteStack } from "./support.ts";
import { claimsOf } from "./two-factor-support.ts";

/**
 * "Log out on every device" (issue 22 M4): it says it worked only when the
 * backend ended the sessions. When the backend refuses (this session already
 * ended elsewhere: auth-js takes that 403 as done) or the request was shed,
 * the page says nothing was signed out and keeps the choice on the form.
 */

let stack: TestStack;
let sessions: typeof import("~/routes/account.sessions");
let logout: typeof import("~/routes/logout");

beforeAll(async () => {
  stack = await startRouteStack();
  sessions = await import("~/routes/account.sessions");
  logout = await import("~/routes/logout");
});
afterAll(() => stack?.close());

const liveSessions = async (userId: string) =>
  (await stack.db.query("select id from auth.sessions where user_id = $1", [userId])).rows.length;

describe("signing out every session", () => {
  it("ends them all and says so", async () => {
    const person = await createUser(stack, "Ada Everywhere");
    await signIn(person);
    expect(await liveSessions(person.id)).toBe(2);
    const answer = await call(sessions.action, {
      url: "/account/sessions",
      user: person,
      params: {},
      form: { scope: "global" },
    });
    expect(answer.location).toBe("/login");
    expect(await liveSessions(person.id)).toBe(0);
  });

  it("when the backend refuses, says nothing was signed out and keeps 'every session' chosen", async () => {
    const person = await createUser(stack, "Bo Gone");
    await signIn(person); // another device
    // this browser's session was ended elsewhere; its access token still checks out until it expires
    await stack.db.query("delete from auth.sessions where id = $1", [claimsOf(person).session_id]);
    const answer = await call(sessions.action, {
      url: "/account/sessions",
      user: person,
      params: {},
      form: { scope: "global" },
    });
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({
      errors: { form: expect.stringContaining("Nothing was signed out.") },
      values: { scope: "global" },
    });
    expect(await liveSessions(person.id)).toBe(1);
  });

  it("/logout with scope=global: the same refusal, as text, and the cookies stay", async () => {
    const person = await createUser(stack, "Cy Cookie");
    await signIn(person);
    await stack.db.query("delete from auth.sessions where id = $1", [claimsOf(person).session_id]);
    const answer = await call(logout.action, { url: "/logout", user: person, params: {}, form: { scope: "global" } });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("Nothing was signed out");
    expect(answer.setCookies.filter((c) => /auth-token/.test(c))).toEqual([]);
    expect(await liveSessions(person.id)).toBe(1);
  });

  it("a shed request claims nothing: 503, the sessions live on", async () => {
    const person = await createUser(stack, "Di Shed");
    const viaLogout = await call(logout.action, {
      url: "/logout",
      user: person,
      params: {},
      form: { scope: "global" },
      shed: true,
    });
    expect(viaLogout.status).toBe(503);
    expect(viaLogout.text).toContain("Nothing was signed out");
    const viaPage = await call(sessions.action, {
      url: "/account/sessions",
      user: person,
      params: {},
      form: { scope: "global" },
      shed: true,
    });
    expect(viaPage.status).toBe(503);
    expect(await liveSessions(person.id)).toBe(1);
  });
});
