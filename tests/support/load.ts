/**
 * Many people at once, with autocannon: each person signs in through the app
 * (POST /login), then browses teams → team → board → task panel, reorders a
 * task on the board (the drag-and-drop fetcher's request) and comments, over
 * and over, with their own cookies. Two connections per person, so a
 * person's requests run side by side with the same (expiring) session, as a
 * browser's do; whatever session cookie a response sets is what that
 * person's next request sends. Counts what a person would notice: errors,
 * being signed out, requests the server shed (503 with Retry-After: too many
 * in flight), and rounds through all six steps that went through.
 */
import autocannon from "autocannon";
import type { Backend } from "./app-cluster.ts";

export interface Person {
  email: string;
  password: string;
  cookies: Map<string, string>;
}

export interface Workload {
  team: string;
  project: string;
  /** tasks of the project: number, id and status (a move reorders within the column, always allowed) */
  tasks: Array<{ number: number; id: string; status: string }>;
}

export interface RouteFigures {
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface LoadResult {
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  routes: Record<string, RouteFigures>;
  /** responses other than 2xx/3xx, by status (shed requests not included) */
  errors: Record<string, number>;
  /** requests the server shed: 503 with Retry-After, answered at once because too many were in flight */
  shed: number;
  /** rounds through all six steps in which every step went through (2xx/3xx, nobody signed out), per person */
  roundsPerPerson: number[];
  /** responses that signed the person out (redirect to /login, or auth cookies cleared) */
  logouts: number;
  /** autocannon's socket errors and timeouts */
  transportErrors: number;
}

const ROUTES = ["teams", "team", "board", "task", "move", "comment"] as const;
type Route = (typeof ROUTES)[number];

/** Fifty (or n) confirmed people, members of the seeded team, created with the stack's admin API. */
export async function createPeople(backend: Backend, n: number, teamSlug: string): Promise<Person[]> {
  const admin = {
    apikey: backend.serviceRoleKey,
    authorization: `Bearer ${backend.serviceRoleKey}`,
    "content-type": "application/json",
  };
  const teams = (await (
    await fetch(`${backend.url}/rest/v1/teams?slug=eq.${teamSlug}&select=id`, { headers: admin })
  ).json()) as Array<{ id: string }>;
  if (!teams[0]) throw new Error(`no team ${teamSlug}: is the stack seeded?`);
  const stamp = Date.now().toString(36);
  const people: Person[] = [];
  for (let i = 0; i < n; i++) {
    const email = `load-${stamp}-${i}@example.com`;
    const password = `load-password-${i}`;
    const created = await fetch(`${backend.url}/auth/v1/admin/users`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({
        email,
        password,
        email_confirm: true,
        user_metadata: { display_name: `Load Person ${i}` },
      }),
    });
    if (!created.ok) throw new Error(`creating ${email}: ${created.status} ${await created.text()}`);
    const user = (await created.json()) as { id: string };
    const member = await fetch(`${backend.url}/rest/v1/team_members`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ team_id: teams[0].id, user_id: user.id, role: "member" }),
    });
    if (!member.ok) throw new Error(`adding ${email} to ${teamSlug}: ${member.status} ${await member.text()}`);
    people.push({ email, password, cookies: new Map() });
  }
  return people;
}

export async function readWorkload(backend: Backend, team: string, project: string): Promise<Workload> {
  const admin = { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` };
  const response = await fetch(
    `${backend.url}/rest/v1/tasks?select=id,number,status:status_id,projects!inner(key,teams!inner(slug))&projects.key=eq.${project}&projects.teams.slug=eq.${team}&order=number`,
    { headers: admin },
  );
  if (!response.ok) throw new Error(`reading tasks: ${response.status} ${await response.text()}`);
  const tasks = (await response.json()) as Array<{ id: string; number: number; status: string }>;
  if (tasks.length === 0) throw new Error(`no tasks in ${team}/${project}`);
  return { team, project, tasks: tasks.map(({ id, number, status }) => ({ id, number, status })) };
}

/** Signs a person in through the app's login form, as a browser without JavaScript would. */
export async function signIn(baseUrl: string, person: Person) {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    body: new URLSearchParams({ intent: "password", email: person.email, password: person.password }),
  });
  if (response.status !== 302) throw new Error(`sign-in of ${person.email}: ${response.status}`);
  keepCookies(person, response.headers.getSetCookie());
}

/** Returns true when the response signed the person out. */
function keepCookies(person: Person, setCookies: string[]): boolean {
  let signedOut = false;
  for (const header of setCookies) {
    const [pair, ...attributes] = header.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
    if (expired) {
      person.cookies.delete(name);
      if (/^sb-.+-auth-token(\.0)?$/.test(name)) signedOut = true;
    } else {
      person.cookies.set(name, value);
    }
  }
  return signedOut;
}

const cookieHeader = (person: Person) => [...person.cookies].map(([name, value]) => `${name}=${value}`).join("; ");

/**
 * Runs the workload against `baseUrl` for `seconds`. `perPersonRate`:
 * requests per second per person (think time), or undefined for as fast as
 * the server answers (saturation). With `untilEveryoneRounds`, the run goes
 * on after `seconds` until every person has been through all steps that
 * many times (at most `maxSeconds`), so that a slow machine makes a test
 * slower, not failed.
 */
export async function runLoad(options: {
  baseUrl: string;
  people: Person[];
  workload: Workload;
  seconds: number;
  perPersonRate?: number;
  untilEveryoneRounds?: number;
  maxSeconds?: number;
}): Promise<LoadResult> {
  const { baseUrl, people, workload, seconds } = options;
  const board = `/teams/${workload.team}/projects/${workload.project}`;
  const latencies = Object.fromEntries(ROUTES.map((r) => [r, [] as number[]])) as Record<Route, number[]>;
  const errors: Record<string, number> = {};
  let logouts = 0;
  let nextPerson = 0;
  let nextTask = 0;

  let shed = 0;
  const rounds = people.map(() => 0);

  // a connection's context lives for one round through the steps (autocannon resets it after the last)
  type Context = { person?: number; task?: number; started?: number; ok?: number };
  const person = (context: Context) => people[context.person!];
  const step = (
    route: Route,
    build: (context: Context) => { method?: string; path: string; body?: string; form?: boolean },
  ) => ({
    setupRequest(request: Record<string, unknown>, context: Context) {
      if (context.person === undefined) {
        // each round through the steps is one visit by the next person (two connections per person on average)
        context.person = nextPerson++ % people.length;
        context.task = nextTask++ % workload.tasks.length;
      }
      const { method = "GET", path, body, form } = build(context);
      context.started = performance.now();
      return {
        ...request,
        method,
        path,
        body,
        headers: {
          cookie: cookieHeader(person(context)),
          ...(form ? { "content-type": "application/x-www-form-urlencoded", origin: baseUrl } : {}),
        },
      };
    },
    onResponse(status: number, body: string, context: Context, headers: Record<string, string | string[]>) {
      latencies[route].push(performance.now() - context.started!);
      const retryAfter = headers["retry-after"] ?? headers["Retry-After"];
      if (status === 503 && retryAfter !== undefined) shed++;
      else if (status >= 400) errors[`${route} ${status}`] = (errors[`${route} ${status}`] ?? 0) + 1;
      const setCookie = headers["set-cookie"] ?? headers["Set-Cookie"];
      const cookies = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
      const location = String(
        headers.location ?? headers.Location ?? headers["x-remix-redirect"] ?? headers["X-Remix-Redirect"] ?? "",
      );
      // single fetch answers a data request's redirect with 202 and the target in the body
      const dataRedirectToLogin = status === 202 && body.includes('"/login');
      const signedOut = keepCookies(person(context), cookies) || location.startsWith("/login") || dataRedirectToLogin;
      if (signedOut) logouts++;
      if (status < 400 && !signedOut) context.ok = (context.ok ?? 0) + 1;
      if (route === ROUTES[ROUTES.length - 1] && context.ok === ROUTES.length) rounds[context.person!]++;
    },
  });

  const task = (context: Context) => workload.tasks[context.task!];
  const requests = [
    step("teams", () => ({ path: "/teams" })),
    step("team", () => ({ path: `/teams/${workload.team}` })),
    step("board", () => ({ path: board })),
    step("task", (c) => ({ path: `${board}/tasks/${task(c).number}` })),
    step("move", (c) => ({
      method: "POST",
      path: `${board}.data`,
      form: true,
      body: new URLSearchParams({
        intent: "move",
        taskId: task(c).id,
        status: task(c).status,
        position: "0",
      }).toString(),
    })),
    step("comment", (c) => ({
      method: "POST",
      path: `${board}/tasks/${task(c).number}/comments`,
      form: true,
      body: new URLSearchParams({ intent: "comment", body: `Load comment from ${person(c).email}` }).toString(),
    })),
  ];

  const connections = people.length * 2;
  const started = performance.now();
  const until = options.untilEveryoneRounds;
  const run = autocannon({
    url: baseUrl,
    connections,
    duration: until ? Math.max(seconds, options.maxSeconds ?? 120) : seconds,
    timeout: 30,
    requests: requests as never,
    ...(options.perPersonRate ? { overallRate: Math.max(1, Math.round(options.perPersonRate * people.length)) } : {}),
  }) as unknown as PromiseLike<autocannon.Result> & { stop(): void };
  const watch = until
    ? setInterval(() => {
        if (performance.now() - started >= seconds * 1000 && rounds.every((n) => n >= until)) run.stop();
      }, 250)
    : undefined;
  let result: autocannon.Result;
  try {
    result = await run; // a thenable (no .finally)
  } finally {
    clearInterval(watch);
  }
  const elapsed = (performance.now() - started) / 1000;

  const routes = Object.fromEntries(
    ROUTES.map((r) => {
      const sorted = [...latencies[r]].sort((a, b) => a - b);
      const at = (p: number) =>
        sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
      return [r, { count: sorted.length, p50: at(50), p95: at(95), p99: at(99) }];
    }),
  );
  const total = Object.values(latencies).reduce((n, l) => n + l.length, 0);
  return {
    seconds: elapsed,
    requests: total,
    requestsPerSecond: total / elapsed,
    routes,
    errors,
    shed,
    roundsPerPerson: rounds,
    logouts,
    transportErrors: result.errors + result.timeouts,
  };
}

/** The stack's running counts of token refreshes, by outcome. */
export async function refreshTally(backend: Backend) {
  const response = await fetch(`${backend.url}/_stack/requests/tally`, {
    headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
  });
  const tally = (await response.json()) as Record<string, number>;
  let done = 0;
  let alreadyUsed = 0;
  let failed = 0;
  for (const [key, n] of Object.entries(tally)) {
    if (!key.startsWith("POST /auth/v1/token?grant_type=refresh_token ")) continue;
    if (key.endsWith(" 200")) done += n;
    else {
      failed += n;
      if (key.includes("refresh_token_already_used")) alreadyUsed += n;
    }
  }
  return { done, alreadyUsed, failed };
}

export async function resetTally(backend: Backend) {
  await fetch(`${backend.url}/_stack/requests`, {
    method: "DELETE",
    headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
  });
}
