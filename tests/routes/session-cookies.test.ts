import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ViteDevServer } from "vite";
import type { TestStack } from "../support/stack.ts";
import { seedTeam, signIn, startRouteStack, type RouteTeam, type RouteUser } from "./support.ts";

/**
 * Every route, answering every way it can (a page, a single-fetch data
 * response, an action's answer, a redirect returned or thrown, a 4xx page or
 * form, a 5xx, a resource route), with a session that has to be refreshed:
 * the answer must leave with the refreshed cookies. Access tokens last 30 s
 * here, inside auth-js's 90-s refresh margin, so every request that asks who
 * is signed in refreshes first (once: app/lib/supabase.server.ts).
 *
 * Through the real thing, not the loaders alone: the app's Vite dev server
 * (the Remix plugin, entry.server, error boundaries, single fetch) with the
 * request scope's hook (vite.config.ts), over HTTP. The production server
 * (server.mjs) opens the same scope with the same hook; the e2e suite's
 * session and cookie specs drive it.
 */
let stack: TestStack;
let team: RouteTeam;
/** the project's "To do" status, which forms name by id */
let todo: string;
let vite: ViteDevServer;
let origin: string;
const cacheDir = path.join(os.tmpdir(), `teamboard-session-cookies-${process.pid}`);

beforeAll(async () => {
  stack = await startRouteStack({ auth: { jwtExpiry: 30 } });
  team = await seedTeam(stack);
  todo = (
    await stack.db.query<{ id: string }>("select id from project_statuses where project_id = $1 and name = 'To do'", [
      team.projectId,
    ])
  ).rows[0].id;
  const { createServer } = await import("vite");
  const port = await freePort();
  vite = await createServer({
    configFile: path.resolve("vite.config.ts"),
    cacheDir,
    logLevel: "warn",
    clearScreen: false,
    optimizeDeps: { noDiscovery: true },
    server: { host: "127.0.0.1", port, strictPort: true, hmr: false, ws: false },
  });
  await vite.listen();
  origin = `http://127.0.0.1:${port}`;
  // the first request compiles the app's server modules (seconds), outside any one case's time
  await fetch(`${origin}/login`);
});
afterAll(async () => {
  await vite?.close();
  await stack?.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

type Role = "owner" | "admin" | "member" | "viewer" | "outsider";

interface Case {
  /** what is asked, as the browser asks it: `GET /teams`, `POST /teams/new`, `GET /teams.data` */
  request: string;
  as?: Role;
  form?: Record<string, string | Blob>;
  status: number;
  /** the session is refreshed (default), signed out (its cookies expired), or never asked about (no refresh, no cookie) */
  session?: "refreshed" | "cleared" | "untouched";
}

/** `:team` in a request, `:task1` / `:task2` / `:todo` in a form: the seeded team's slug, tasks and To do status (known once it is made) */
const board = "/teams/:team/projects/WEB";

const CASES: Case[] = [
  // pages: documents, with every loader of the page (root's included)
  { request: "GET /", status: 302 },
  { request: "GET /no-such-page", status: 404 },
  { request: "GET /account", status: 200 },
  { request: "GET /account/email", status: 200 },
  { request: "GET /account/password", status: 200 },
  { request: "GET /account/security", status: 200 },
  { request: "GET /account/sessions", status: 200 },
  { request: "GET /account/delete", status: 200 },
  { request: "GET /auth/callback", status: 302 },
  { request: "GET /auth/confirm", status: 302 },
  { request: "GET /auth/error?reason=expired", status: 400 },
  { request: "GET /forgot-password", status: 302 },
  { request: "GET /invitations/AAAAAAAAAAAAAAAAAAAAAA", status: 404 },
  { request: "GET /login", status: 302 },
  { request: "GET /login/code", status: 302 },
  { request: "GET /login/mfa", status: 302 },
  { request: "GET /login/oauth", status: 302 },
  // a resource route that never asks who is signed in: nothing to refresh, nothing sent
  { request: "GET /logout", status: 302, session: "untouched" },
  { request: "GET /reset-password", status: 200 },
  { request: "GET /search?q=plan", status: 200 },
  { request: "GET /signup", status: 302 },
  { request: "GET /teams", status: 200 },
  { request: "GET /teams/new", status: 200 },
  { request: `GET /teams/:team`, status: 200 },
  { request: `GET /teams/:team`, as: "outsider", status: 404 },
  { request: `GET /teams/:team/members`, status: 200 },
  { request: `GET /teams/:team/settings`, status: 403 },
  { request: `GET /teams/:team/settings`, as: "owner", status: 200 },
  { request: `GET /teams/:team/projects`, status: 200 },
  { request: `GET /teams/:team/projects/new`, as: "viewer", status: 403 },
  { request: `GET /teams/:team/projects/new`, as: "admin", status: 200 },
  { request: `GET ${board}`, status: 200 },
  { request: `GET /teams/:team/projects/NOPE`, status: 404 },
  { request: `GET ${board}/tasks/new`, status: 200 },
  { request: `GET ${board}/tasks/new`, as: "viewer", status: 403 },
  { request: `GET ${board}/tasks/1`, status: 200 },
  { request: `GET ${board}/tasks/999`, status: 404 },
  // a resource route: its own loader only (the CSV comes from an Edge Function)
  { request: `GET ${board}/export`, status: 200 },
  { request: `GET ${board}/export`, as: "outsider", status: 404 },

  // single-fetch data requests (client navigations)
  { request: "GET /_root.data", status: 202 },
  { request: "GET /account.data", status: 200 },
  { request: "GET /teams.data", status: 200 },
  { request: "GET /login.data", status: 202 },
  { request: `GET ${board}.data`, status: 200 },
  { request: `GET /teams/:team/settings.data`, status: 403 },
  { request: "GET /teams/nope.data", status: 404 },

  // form posts: an action, then (unless it redirects) the page's loaders
  { request: "POST /account", form: { displayName: "Mia Renamed" }, status: 302 },
  { request: "POST /account", form: { displayName: "Mia", username: "no spaces" }, status: 400 },
  { request: "POST /account/email", form: { email: "not-an-address" }, status: 400 },
  { request: "POST /account/password", form: { password: "long-enough-1", confirm: "different-2" }, status: 400 },
  { request: "POST /account/security", form: { intent: "enroll" }, status: 200 },
  { request: "POST /account/security", form: { intent: "explode" }, status: 400 },
  { request: "POST /account/sessions", form: { scope: "others" }, status: 302 },
  { request: "POST /account/delete", form: { email: "someone-else@example.com" }, status: 400 },
  // this server has no service key (SUPABASE_SERVICE_ROLE_KEY), which deleting an account needs: 503, the form kept
  { request: "POST /account/delete", form: { email: ":member-email" }, status: 503 },
  { request: "POST /auth/error", form: { email: "not-an-address" }, status: 400 },
  // signed in, the signed-out pages' forms are answered, then their loaders send the person on
  { request: "POST /forgot-password", form: { email: "not-an-address" }, status: 302 },
  { request: "POST /invitations/AAAAAAAAAAAAAAAAAAAAAA", form: { intent: "accept" }, status: 404 },
  { request: "POST /login", form: { intent: "password", email: "x@example.com", password: "wrong-one" }, status: 302 },
  { request: "POST /login/code", form: { email: "x@example.com", token: "12" }, status: 302 },
  {
    request: "POST /login/mfa",
    form: { factorId: "00000000-0000-0000-0000-000000000000", code: "000000" },
    status: 302,
  },
  { request: "POST /login/oauth", form: { provider: "nope" }, status: 302 },
  { request: "POST /reset-password", form: { password: "long-enough-1", confirm: "different-2" }, status: 400 },
  { request: "POST /signup", form: { email: "not-an-address" }, status: 302 },
  { request: "POST /teams/new", form: { name: "" }, status: 400 },
  { request: "POST /teams/new", form: { name: "Cookie Jar" }, status: 302 },
  { request: `POST /teams/:team/members`, form: { intent: "invite", email: "a@b.co", role: "member" }, status: 403 },
  { request: `POST /teams/:team/members`, form: { intent: "explode" }, status: 404 },
  { request: `POST /teams/:team/settings`, as: "owner", form: { intent: "rename", name: "" }, status: 400 },
  { request: `POST /teams/:team/settings`, as: "owner", form: { intent: "rename", name: "Renamed" }, status: 302 },
  { request: `POST /teams/:team/projects/new`, as: "admin", form: { key: "1", name: "x" }, status: 400 },
  { request: `POST ${board}`, form: { intent: "archive" }, status: 403 },
  {
    request: `POST ${board}.data`,
    form: { intent: "move", taskId: ":task1", status: ":todo", position: "0" },
    status: 200,
  },
  { request: `POST ${board}/tasks/new`, form: { title: "Cookie task", status: ":todo" }, status: 302 },
  { request: `POST ${board}/tasks/new`, as: "viewer", form: { title: "Sneaky" }, status: 403 },
  { request: `POST ${board}/tasks/2`, form: { intent: "update", title: "" }, status: 400 },
  { request: `POST ${board}/tasks/2`, form: { intent: "update", title: "Book the room" }, status: 302 },
  { request: `POST ${board}/tasks/2.data`, form: { intent: "update", title: "Book the room" }, status: 202 },
  { request: `POST ${board}/tasks/2/comments`, form: { intent: "comment", body: "On it." }, status: 302 },
  { request: `POST ${board}/tasks/2/comments`, form: { intent: "comment", body: " " }, status: 400 },
  { request: `POST ${board}/tasks/2/attachments`, form: { intent: "attach" }, status: 400 },
  // a resource route's action: JSON for the task panel's script
  { request: "POST /api/attachments", form: { taskId: "not-a-task" }, status: 404 },
  {
    request: "POST /api/attachments",
    form: { taskId: ":task2", files: new File(["notes"], "notes.txt", { type: "text/plain" }) },
    status: 200,
  },
  // (last for the viewer: they are no longer in the team)
  { request: `POST /teams/:team/members`, as: "viewer", form: { intent: "leave" }, status: 302 },
  // signing out: the answer expires the session's cookies instead
  { request: "POST /logout", form: {}, status: 302, session: "cleared" },
];

describe("every answer leaves with the refreshed session", () => {
  // in this order: some change the team
  for (const c of CASES) {
    it(`${c.request} as ${c.as ?? "member"} → ${c.status}`, async () => {
      const result = await send(c, await signIn(team[c.as ?? "member"]));
      expect(result).toEqual(expected(c));
    });
  }
});

describe("a backend failure after the refresh (5xx) leaves with the refreshed session too", () => {
  // the app may no longer read team memberships: every team page's guard fails with a database error
  beforeAll(() => stack.db.exec("revoke select on public.team_members from authenticated"));
  afterAll(() => stack.db.exec("grant select on public.team_members to authenticated"));

  for (const c of [
    { request: "GET /teams", status: 500 },
    { request: "GET /teams.data", status: 500 },
    { request: `GET ${board}/export`, status: 500 },
    { request: `POST /teams/:team/members`, form: { intent: "leave" }, status: 500 },
  ] satisfies Case[]) {
    it(`${c.request} → ${c.status}`, async () => {
      const result = await send(c, await signIn(team.member));
      expect(result).toEqual(expected(c));
    });
  }
});

function expected(c: Case) {
  const session = c.session ?? "refreshed";
  return {
    status: c.status,
    refreshes: session === "untouched" ? 0 : 1,
    session: session === "untouched" ? "kept" : session,
    setTwice: [],
  };
}

/**
 * Sends the case's request as the browser would, with the user's cookies,
 * and reads what came back: its status, how many refreshes the backend saw,
 * and what the answer's Set-Cookie lines do to the session: "refreshed" (a
 * new refresh token), "cleared" (expired), or "kept" (nothing about it).
 */
async function send(c: Case, user: RouteUser) {
  const named = (text: string) =>
    text
      .replaceAll(":team", team.slug)
      .replace(":task1", team.taskIds[0])
      .replace(":task2", team.taskIds[1])
      .replace(":todo", todo)
      .replace(":member-email", team.member.email);
  const [method, target] = named(c.request).split(" ");
  let body: FormData | URLSearchParams | undefined;
  if (c.form) {
    const files = Object.values(c.form).some((v) => typeof v !== "string");
    body = files ? new FormData() : new URLSearchParams();
    for (const [name, value] of Object.entries(c.form))
      (body as FormData).append(name, typeof value === "string" ? named(value) : value);
  }
  const since = Date.now();
  const response = await fetch(`${origin}${target}`, {
    method,
    headers: { Cookie: user.cookie },
    body,
    redirect: "manual",
  });
  await response.arrayBuffer();
  const refreshes = stack.requests
    .list(since)
    .filter((r) => r.path === "/auth/v1/token" && r.search.includes("grant_type=refresh_token")).length;
  const setCookies = response.headers.getSetCookie();
  const names = setCookies.map((line) => line.slice(0, line.indexOf("=")));
  return {
    status: response.status,
    refreshes,
    session: sessionChange(user.cookie, setCookies),
    // a cookie is set once per answer (a redirect carries the request's cookies and the door writes them again)
    setTwice: names.filter((name, i) => names.indexOf(name) !== i),
  };
}

function sessionChange(sent: string, setCookies: string[]): "refreshed" | "cleared" | "kept" {
  const auth = setCookies.filter((line) => /^sb-[^=]+-auth-token(\.\d+)?=/.test(line));
  if (auth.length === 0) return "kept";
  if (auth.every((line) => /max-age=0/i.test(line) || /^[^=]+=;/.test(line))) return "cleared";
  const before = refreshTokenOf(sent.split("; "));
  const after = refreshTokenOf(auth.map((line) => line.split(";")[0]));
  return after && after !== before ? "refreshed" : "kept";
}

/** The refresh token in an @supabase/ssr session cookie (`base64-` + JSON, maybe in numbered chunks). */
function refreshTokenOf(pairs: string[]): string | null {
  const chunks = pairs
    .map((pair) => /^sb-[^=]+-auth-token(?:\.(\d+))?=(.*)$/.exec(pair))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1] ?? 0) - Number(b[1] ?? 0))
    .map((m) => m[2]);
  const value = chunks.join("");
  if (!value.startsWith("base64-")) return null;
  const session = JSON.parse(Buffer.from(value.slice("base64-".length), "base64url").toString("utf8")) as {
    refresh_token?: string;
  };
  return session.refresh_token ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
