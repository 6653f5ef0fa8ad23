/**
 * Odd input is answered 4xx in words, never 500 (issue 35 L3): a NUL byte or
 * a value the database can't read in an address (every loader that passes a
 * URL value on to the backend: the activity, search, board and list filters,
 * an unsubscribe link), a body that isn't a form (refused before Remix, where
 * cross-site posts are), and a form whose bytes arrived garbled.
 */
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/messages";
import { handleInRequestScope, RequestScope, runInRequestScope } from "~/lib/request-scope.server";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

let stack: TestStack;
let team: RouteTeam;
beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
});
afterAll(() => stack?.close());

describe("a value in the address the database can't read", () => {
  it("is a 400 with words on every page that hands URL values to the backend", async () => {
    const t = () => ({ team: team.slug });
    const w = () => ({ team: team.slug, key: "WEB" });
    const probes: Array<[string, string, Record<string, string>]> = [
      ["teams.$team.activity", `/teams/${team.slug}/activity?person=%00`, t()],
      ["teams.$team.activity", `/teams/${team.slug}/activity?project=WEB%00`, t()],
      ["search", "/search?q=%00", {}],
      ["unsubscribe.$token", "/unsubscribe/%00", { token: "\0" }],
      ["teams.$team.projects.$key", `/teams/${team.slug}/projects/WEB?q=a%00b`, w()],
      ["teams.$team.projects.$key", `/teams/${team.slug}/projects/WEB?assignee=%00&label=%00`, w()],
      ["teams.$team.projects.$key_.list", `/teams/${team.slug}/projects/WEB/list?q=%00`, w()],
      [
        "teams.$team.projects.$key_.list",
        `/teams/${team.slug}/projects/WEB/list?assignee=%00&label=%00&status=%00`,
        w(),
      ],
    ];
    for (const [route, url, params] of probes) {
      const mod = (await import(`~/routes/${route}.tsx`)) as { loader: Parameters<typeof call>[0] };
      const result = await call(mod.loader, { url, user: team.member, params });
      expect(result.status, url).toBe(400);
      expect(result.text, url).toBe(MESSAGES.unreadableAddress);
    }
  });

  it("text where an id goes, and other odd values, answer 4xx or the page (never 500)", async () => {
    const w = () => ({ team: team.slug, key: "WEB" });
    const probes: Array<[string, string, Record<string, string>]> = [
      ["teams.$team.activity", `/teams/${team.slug}/activity?before=2026-01-01T00:00:00Z~nope`, { team: team.slug }],
      ["attachments.$id", "/attachments/nope", { id: "nope" }],
      ["notifications.$id", "/notifications/nope", { id: "nope" }],
      ["invitations.$token", "/invitations/%00", { token: "\0" }],
      ["calendar.$feed", "/calendar/%00.ics", { feed: "\0.ics" }],
      ["teams.$team.projects.$key", `/teams/${team.slug}/projects/WEB?assignee=nope&label=nope`, w()],
      [
        "teams.$team.projects.$key_.list",
        `/teams/${team.slug}/projects/WEB/list?assignee=nope&label=x&status=y&view=z`,
        w(),
      ],
      [
        "teams.$team.projects.$key.tasks.$number",
        `/teams/${team.slug}/projects/WEB/tasks/99999999999999`,
        { ...w(), number: "99999999999999" },
      ],
      ["my-work", "/my-work?sort=%00", {}],
      ["notifications._index", "/notifications?before=%00", {}],
    ];
    for (const [route, url, params] of probes) {
      const mod = (await import(`~/routes/${route}.tsx`)) as { loader: Parameters<typeof call>[0] };
      const result = await call(mod.loader, { url, user: team.member, params });
      expect(result.status, url).toBeLessThan(500);
    }
  });
});

describe("a body that isn't a form", () => {
  const post = (path: string, headers: Record<string, string>, body: string) =>
    new Request(`http://app.test${path}`, {
      method: "POST",
      headers: { cookie: team.member.cookie, ...headers },
      body,
    });

  it("is refused before any route runs: 415 in words (JSON to /api/preview, plain text, none, multipart without a boundary)", async () => {
    for (const [path, type, body] of [
      ["/api/preview", "application/json", JSON.stringify({ text: "*hi*", team: team.slug })],
      ["/login", "text/plain", "email=a@b.c"],
      ["/login", "", ""],
      ["/api/attachments", "multipart/form-data", "--x--"],
    ]) {
      let ran = false;
      const answer = await handleInRequestScope(
        post(path, type ? { "content-type": type } : {}, body),
        {},
        async () => {
          ran = true;
          return new Response("the route ran");
        },
      );
      expect(answer.status, `${path} ${type}`).toBe(415);
      expect(await answer.text()).toBe(MESSAGES.notAForm);
      expect(ran).toBe(false);
    }
    // forms go through
    const form = await handleInRequestScope(
      post("/login", { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" }, "a=1"),
      {},
      async () => new Response("the route ran"),
    );
    expect(await form.text()).toBe("the route ran");
  });

  it("a multipart form whose bytes are garbled: 400 in words from /api/preview and from a page's form", async () => {
    const garbled = { "content-type": "multipart/form-data; boundary=x" };
    const preview = await import("~/routes/api.preview");
    const answer = (await runInRequestScope(new RequestScope({ cookie: team.member.cookie }), () =>
      preview.action({ request: post("/api/preview", garbled, "garbage"), params: {}, context: {} as AppLoadContext }),
    )) as Response;
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ html: null, message: MESSAGES.notAForm });

    const logout = await import("~/routes/logout");
    const out = (await runInRequestScope(new RequestScope({ cookie: team.member.cookie }), () =>
      logout.action({ request: post("/logout", garbled, "garbage"), params: {}, context: {} as AppLoadContext }),
    )) as Response;
    expect([out.status, await out.text()]).toEqual([400, MESSAGES.notAForm]);

    // every page's action (each is wrapped in keepingTheForm)
    const web = { team: team.slug, key: "WEB", number: "1" };
    for (const [route, path, params] of [
      ["teams.$team.projects.new", `/teams/${team.slug}/projects/new`, { team: team.slug }],
      ["teams.$team.projects.$key.tasks.$number.checklist", `/teams/${team.slug}/projects/WEB/tasks/1/checklist`, web],
      ["teams.$team.projects.$key.tasks.$number.relations", `/teams/${team.slug}/projects/WEB/tasks/1/relations`, web],
      ["teams.$team.projects.$key_.list", `/teams/${team.slug}/projects/WEB/list`, web],
      ["account.notifications", "/account/notifications", {}],
    ] as const) {
      const mod = (await import(`~/routes/${route}.tsx`)) as {
        action: (args: {
          request: Request;
          params: Record<string, string>;
          context: AppLoadContext;
        }) => Promise<unknown>;
      };
      const page = (await runInRequestScope(new RequestScope({ cookie: team.member.cookie }), () =>
        mod.action({ request: post(path, garbled, "garbage"), params, context: {} as AppLoadContext }),
      )) as { data: { errors: Record<string, string> }; init: ResponseInit };
      expect(page.init.status, route).toBe(400);
      expect(page.data.errors.form, route).toBe(MESSAGES.notAForm);
    }
  });
});
