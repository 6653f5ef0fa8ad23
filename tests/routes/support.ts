import crypto from "node:crypto";
import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { headersTarget, RequestScope, runInRequestScope } from "~/lib/request-scope.server";
import type { StartOptions } from "../../stack/server.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

/**
 * Loader and action tests without a browser: the route modules are called
 * directly, as Remix calls them, with real Requests (cookies, form bodies)
 * against a real test stack, each inside a request scope of its own whose
 * cookies are written into the answer as the server writes them
 * (app/lib/request-scope.server.ts). Fast enough to cover every form's success and
 * failure paths; the e2e suite covers what a browser adds.
 */
export interface RouteUser {
  id: string;
  email: string;
  password: string;
  /** the Cookie header of a signed-in browser (the app's own cookie format) */
  cookie: string;
}

export interface RouteResult {
  status: number;
  /** what the action or loader returned with data() (undefined for a redirect or a thrown page) */
  data: unknown;
  /** a redirect's target */
  location: string | null;
  /** a thrown page's text (404, 403, 503 …) */
  text: string | null;
  /** the Set-Cookie lines the answer leaves with (a refreshed or stepped-up session, a flash message) */
  setCookies: string[];
}

type RouteFn = (args: LoaderFunctionArgs) => unknown;

export async function startRouteStack(options: StartOptions = {}): Promise<TestStack> {
  const stack = await startTestStack(options);
  // the app reads its environment when its modules load: set it before importing them
  process.env.SUPABASE_URL = stack.url;
  process.env.SUPABASE_ANON_KEY = stack.anonKey;
  process.env.SESSION_SECRET = "route-tests-flash-secret-0123456789";
  return stack;
}

/** A confirmed user, signed in through the app's own server client (so the cookies are the app's). */
export async function createUser(stack: TestStack, displayName: string): Promise<RouteUser> {
  const email = `route-${crypto.randomBytes(5).toString("hex")}@example.test`;
  const password = "correct-horse-1";
  const { data, error } = await stack
    .adminClient()
    .auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { display_name: displayName } });
  if (error || !data.user) throw error ?? new Error("no user");
  return signIn({ id: data.user.id, email, password });
}

/** A new browser session for an existing user, signed in with the password through the app's server client. */
export async function signIn({ id, email, password }: Omit<RouteUser, "cookie">): Promise<RouteUser> {
  const { createRequestClient } = await import("~/lib/supabase.server");
  const scope = new RequestScope();
  const answer = await createRequestClient(scope).auth.signInWithPassword({ email, password });
  if (answer.error) throw answer.error;
  const cookie = scope
    .setCookies()
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
  return { id, email, password, cookie };
}

/** Calls a loader (GET) or an action (POST with `form`) the way Remix does, and reads its answer. */
export async function call(
  fn: RouteFn,
  {
    url,
    user,
    params,
    form,
    shed = false,
    client,
  }: {
    url: string;
    user: RouteUser | null;
    params: Record<string, string>;
    form?: Record<string, string> | Array<[string, string]>;
    /** the production server shed the request (server.mjs) */
    shed?: boolean;
    /** the address the server counts the request against (server.mjs's clientOf) */
    client?: string;
  },
): Promise<RouteResult> {
  const headers = new Headers();
  if (user) headers.set("Cookie", user.cookie);
  const request = form
    ? new Request(`http://app.test${url}`, { method: "POST", headers, body: new URLSearchParams(form) })
    : new Request(`http://app.test${url}`, { headers });
  // a fresh scope per request, as the server opens
  const scope = new RequestScope({ cookie: request.headers.get("Cookie"), shed, client });
  let answer: unknown;
  try {
    answer = await runInRequestScope(scope, () => fn({ request, params, context: {} as AppLoadContext }));
  } catch (thrown) {
    answer = thrown;
  }
  // the answer is decided: what the request still reads is cancelled, as the server does once it is sent
  scope.end();
  /** the answer's own headers, then the scope's door (what the server does on the way out) */
  const leaving = (own?: HeadersInit | null) => {
    const headers = new Headers(own ?? undefined);
    scope.writeInto(headersTarget(headers));
    return headers.getSetCookie();
  };
  // duck-typed as Remix's isResponse: the stack's HTTP server (@hono/node-server) replaces the global
  // Response in this process, and Response.json() still makes Node's own, so instanceof would miss it
  if (isResponse(answer)) {
    const location = answer.headers.get("Location");
    return {
      status: answer.status,
      data: undefined,
      location,
      text: location ? null : await answer.text(),
      setCookies: leaving(answer.headers),
    };
  }
  if (answer && typeof answer === "object" && (answer as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = answer as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, data, location: null, text: null, setCookies: leaving(init?.headers) };
  }
  if (answer instanceof Error) throw answer;
  return { status: 200, data: answer, location: null, text: null, setCookies: leaving() };
}

/** The user's browser after it took an answer's cookies (set ones replaced or added, expired ones dropped). */
export function afterCookies(user: RouteUser, result: RouteResult): RouteUser {
  const jar = new Map(
    user.cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as const),
  );
  for (const line of result.setCookies) {
    const pair = line.split(";")[0];
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(pair.indexOf("=") + 1);
    if (!value || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return { ...user, cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") };
}

export interface RouteTeam {
  slug: string;
  id: string;
  owner: RouteUser;
  admin: RouteUser;
  member: RouteUser;
  viewer: RouteUser;
  outsider: RouteUser;
  projectId: string;
  /** tasks WEB-1 (backlog) and WEB-2 (todo) */
  taskIds: [string, string];
}

/** A team with one person per role and an outsider, project WEB with two tasks. */
export async function seedTeam(stack: TestStack): Promise<RouteTeam> {
  const statusIdOf = async (projectId: string, name: string) =>
    (
      await stack.db.query<{ id: string }>("select id from project_statuses where project_id = $1 and name = $2", [
        projectId,
        name,
      ])
    ).rows[0].id;
  const tag = crypto.randomBytes(3).toString("hex");
  const [owner, admin, member, viewer, outsider] = await Promise.all(
    ["Olive Owner", "Adam Admin", "Mia Member", "Vic Viewer", "Otto Outsider"].map((name) =>
      createUser(stack, `${name} ${tag}`),
    ),
  );
  const ownerClient = stack.anonClient();
  await ownerClient.auth.signInWithPassword({ email: owner.email, password: owner.password });
  const slug = `route-${tag}`;
  const team = await ownerClient.rpc("create_team", { name: `Team ${tag}`, slug }).single<{ id: string }>();
  if (team.error) throw team.error;
  const admin_ = stack.adminClient();
  const members = await admin_.from("team_members").insert([
    { team_id: team.data.id, user_id: admin.id, role: "admin" },
    { team_id: team.data.id, user_id: member.id, role: "member" },
    { team_id: team.data.id, user_id: viewer.id, role: "viewer" },
  ]);
  if (members.error) throw members.error;
  const project = await ownerClient
    .from("projects")
    .insert({ team_id: team.data.id, key: "WEB", name: "Website" })
    .select("id")
    .single<{ id: string }>();
  if (project.error) throw project.error;
  const tasks = await ownerClient
    .from("tasks")
    .insert([
      { project_id: project.data.id, title: "Plan the sprint" },
      { project_id: project.data.id, title: "Book the room", status_id: await statusIdOf(project.data.id, "To do") },
    ] as never)
    .select("id, number")
    .order("number");
  if (tasks.error) throw tasks.error;
  const ids = (tasks.data as Array<{ id: string }>).map((t) => t.id);
  return {
    slug,
    id: team.data.id,
    owner,
    admin,
    member,
    viewer,
    outsider,
    projectId: project.data.id,
    taskIds: [ids[0], ids[1]],
  };
}

function isResponse(value: unknown): value is Response {
  const r = value as Response | null;
  return (
    !!r &&
    typeof r === "object" &&
    typeof r.status === "number" &&
    typeof r.statusText === "string" &&
    typeof r.headers === "object" &&
    typeof r.body !== "undefined"
  );
}

/**
 * The loaders of one page called together in one request scope, as Remix
 * runs a document request's matched routes (root, layouts, the page); what
 * each returned (data, or the status of what it threw).
 */
export async function callTogether(
  fns: RouteFn[],
  { url, user, params }: { url: string; user: RouteUser; params: Record<string, string> },
): Promise<Array<{ status: number; data: unknown }>> {
  const request = new Request(`http://app.test${url}`, { headers: { Cookie: user.cookie } });
  const scope = new RequestScope({ cookie: user.cookie, shed: false });
  return runInRequestScope(scope, () =>
    Promise.all(
      fns.map(async (fn) => {
        try {
          const answer = await fn({ request, params, context: {} as AppLoadContext });
          return { status: 200, data: answer };
        } catch (thrown) {
          if (isResponse(thrown)) return { status: thrown.status, data: undefined };
          throw thrown;
        }
      }),
    ),
  );
}
