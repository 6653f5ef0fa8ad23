import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/messages";
import { RequestScope, runInRequestScope } from "~/lib/request-scope.server";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

/**
 * A request the production server sheds (too many in flight, server.mjs and
 * app/lib/admission.server.ts) reaches the app with `shed` set in its request
 * scope. The app must answer it as it answers an unreachable backend
 * (503; a form keeps what was typed) without sending the backend anything:
 * above all no token refresh, whose late arrival is what signed people out
 * under overload, and no cleared cookies. Access tokens last 30 s here, inside
 * auth-js's 90-s refresh margin, so every request that reaches the backend
 * refreshes first.
 */
let stack: TestStack;
let team: RouteTeam;
let board: typeof import("~/routes/teams.$team.projects.$key");
let login: typeof import("~/routes/login");
let root: typeof import("~/root");

beforeAll(async () => {
  stack = await startRouteStack({ auth: { jwtExpiry: 30 } });
  team = await seedTeam(stack);
  board = await import("~/routes/teams.$team.projects.$key");
  login = await import("~/routes/login");
  root = await import("~/root");
});
afterAll(() => stack?.close());

const boardArgs = () => ({
  url: `/teams/${team.slug}/projects/WEB`,
  params: { team: team.slug, key: "WEB" },
});

/** What `run` sent the backend (paths, with the token grant for token requests). */
async function backendRequests(run: () => Promise<unknown>) {
  const since = Date.now();
  await run();
  return stack.requests
    .list(since)
    .filter((r) => !r.path.includes("/.well-known/"))
    .map((r) => `${r.path}${r.search.includes("grant_type=refresh_token") ? "?grant_type=refresh_token" : ""}`);
}

describe("a shed request", () => {
  it("a page answers 503 without calling the backend: no refresh, no cookie touched", async () => {
    // the same page, not shed: it refreshes the expiring session and sends the new cookies
    let served = await call(board.loader, { ...boardArgs(), user: team.member });
    const normal = await backendRequests(async () => {
      served = await call(board.loader, { ...boardArgs(), user: team.member });
    });
    expect(served.status).toBe(200);
    expect(normal).toContain("/auth/v1/token?grant_type=refresh_token");
    expect(served.setCookies.length).toBeGreaterThan(0);

    let shed = served;
    const sent = await backendRequests(async () => {
      shed = await call(board.loader, { ...boardArgs(), user: team.member, shed: true });
    });
    expect(shed.status).toBe(503);
    expect(shed.text).toBe(MESSAGES.backendDown);
    expect(sent).toEqual([]);
    expect(shed.setCookies).toEqual([]);
  });

  it("a form keeps what was typed, and the backend is not asked", async () => {
    let shed: Awaited<ReturnType<typeof call>> | null = null;
    const sent = await backendRequests(async () => {
      shed = await call(login.action, {
        url: "/login",
        user: null,
        params: {},
        form: { intent: "password", email: team.member.email, password: team.member.password },
        shed: true,
      });
    });
    expect(shed!.status).toBe(503);
    const answer = shed!.data as { errors: Record<string, string>; values: Record<string, string> };
    expect(answer.errors.form).toBe(MESSAGES.backendDown);
    expect(answer.values.email).toBe(team.member.email);
    expect(answer.values.password).toBeUndefined();
    expect(sent).toEqual([]);
    expect(shed!.setCookies).toEqual([]);

    // the page around the form: signed out, there is nothing to ask the backend, so it renders
    const page = await call(root.loader, { url: "/login", user: null, params: {}, shed: true });
    expect(page.status).toBe(200);
    expect((page.data as { user: unknown }).user).toBeNull();
  });
});

describe("a shed form post of a signed-in person, without JavaScript (issue 22 L12)", () => {
  it("answers a page that says it wasn't sent and holds what was typed, to send again", async () => {
    const { default: handleRequest } = await import("~/entry.server");
    const body = new URLSearchParams({
      intent: "comment",
      body: 'Ship it on Friday <b>"really"</b>',
      password: "never-shown-1",
    });
    const url = `http://app.test/teams/${team.slug}/projects/WEB/tasks/1/comments?index`;
    const request = new Request(url, {
      method: "POST",
      headers: { Cookie: team.member.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    // as Remix calls it, in the request's scope, for a document whose action and loaders answered 503 (shed)
    const scope = new RequestScope({ cookie: request.headers.get("Cookie"), shed: true });
    const answer = await runInRequestScope(scope, () =>
      handleRequest(request, 503, new Headers(), {} as never, {} as never),
    );
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
    const page = await answer.text();
    expect(page).toContain(MESSAGES.backendDown.replace(/'/g, "&#39;"));
    expect(page).toContain(`<form method="post" action="/teams/${team.slug}/projects/WEB/tasks/1/comments?index">`);
    expect(page).toContain('name="body" value="Ship it on Friday &lt;b&gt;&quot;really&quot;&lt;/b&gt;"');
    expect(page).toContain('name="intent" value="comment"');
    expect(page).not.toContain("never-shown-1");
    expect(page).toContain("Passwords, codes and files are not kept");
    expect(page).toContain("Send again");
  });
});
