/**
 * npm run bench:pages — every page of docs/product.md §2 and the main form posts,
 * through the BUILT app's Remix request handler against a local stack loaded
 * with the demo seed, signed in as its owner. For each: backend requests per
 * view, sequential depth (the longest chain of backend requests that waited
 * for one another, from the stack's request log with 20 ms latency), and
 * server time p50/p95 with 0 ms and with 20 ms added to every backend request
 * (`stack --latency`). Builds the app first when build/server/index.js is
 * missing. Prints a table only. BENCH_RUNS=N views per figure (default 15);
 * BENCH_ONLY=text measures only the rows whose name contains it.
 */
import fs from "node:fs";
import { sequentialDepth, type LoggedRequest } from "../stack/request-log.ts";
import { loadBuiltApp, signInWithCookies } from "../tests/support/built-app.ts";
import { startTestStack } from "../tests/support/stack.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 2;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const APP_ORIGIN = "http://127.0.0.1:4999";
const OWNER = { email: "owner@teamboard.local", password: "teamboard-demo-1" };

const stack = await startTestStack({ auth: { siteUrl: APP_ORIGIN } });
try {
  await stack.db.exec(fs.readFileSync("supabase/seed.sql", "utf8"));
  const handle = await loadBuiltApp(stack);
  const cookie = (await signInWithCookies(stack, OWNER)).cookie();
  const web = "/teams/acme/projects/WEB";
  // the move reorders a task within its column (always allowed), so every run succeeds alike
  const { rows: tasks } = await stack.db.query<{ id: string; status: string }>(
    "select t.id, t.status from public.tasks t join public.projects p on p.id = t.project_id where p.key = 'WEB' and t.number = 2",
  );

  type Case = {
    name: string;
    url: string;
    signedIn?: boolean;
    method?: "POST";
    form?: () => Record<string, string>;
    status: number;
  };
  const cases: Case[] = [
    { name: "/ (signed out)", url: "/", signedIn: false, status: 200 },
    { name: "/login", url: "/login", signedIn: false, status: 200 },
    { name: "/signup", url: "/signup", signedIn: false, status: 200 },
    { name: "/forgot-password", url: "/forgot-password", signedIn: false, status: 200 },
    { name: "/auth/error", url: "/auth/error?reason=expired", signedIn: false, status: 400 },
    { name: "/ (signed in)", url: "/", status: 302 },
    { name: "/account", url: "/account", status: 200 },
    { name: "/account/email", url: "/account/email", status: 200 },
    { name: "/account/password", url: "/account/password", status: 200 },
    { name: "/account/sessions", url: "/account/sessions", status: 200 },
    { name: "/account/delete", url: "/account/delete", status: 200 },
    { name: "/teams", url: "/teams", status: 200 },
    { name: "/teams/new", url: "/teams/new", status: 200 },
    { name: "/teams/:team", url: "/teams/acme", status: 200 },
    { name: "/teams/:team/members", url: "/teams/acme/members", status: 200 },
    { name: "/teams/:team/settings", url: "/teams/acme/settings", status: 200 },
    { name: "/teams/:team/projects", url: "/teams/acme/projects", status: 200 },
    { name: "/teams/:team/projects/new", url: "/teams/acme/projects/new", status: 200 },
    { name: "board /projects/:key", url: web, status: 200 },
    { name: "board, filtered", url: `${web}?q=task&assignee=me`, status: 200 },
    { name: "tasks/new", url: `${web}/tasks/new`, status: 200 },
    { name: "task panel tasks/:number", url: `${web}/tasks/1`, status: 200 },
    { name: "/search?q=", url: "/search?q=task", status: 200 },
    // form posts as the browser sends them without JavaScript (the board's drag-and-drop move is a fetcher: single fetch .data)
    {
      name: "POST /login",
      url: "/login",
      signedIn: false,
      method: "POST",
      form: () => ({ intent: "password", ...OWNER }),
      status: 302,
    },
    {
      name: "POST tasks/new",
      url: `${web}/tasks/new`,
      method: "POST",
      form: () => ({ title: "Bench task", status: "todo", priority: "none" }),
      status: 302,
    },
    {
      name: "POST board move (fetcher)",
      url: `${web}.data`,
      method: "POST",
      form: () => ({ intent: "move", taskId: tasks[0].id, status: tasks[0].status, position: "0" }),
      status: 200,
    },
    {
      name: "POST comment",
      url: `${web}/tasks/1/comments`,
      method: "POST",
      form: () => ({ intent: "comment", body: "A comment from the benchmark." }),
      status: 302,
    },
  ];

  const view = async (c: Case) => {
    const headers: Record<string, string> = {};
    if (c.signedIn !== false) headers.cookie = cookie;
    const init: RequestInit = { headers };
    if (c.method === "POST") {
      init.method = "POST";
      init.body = new URLSearchParams(c.form!());
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers.origin = APP_ORIGIN;
      headers.host = new URL(APP_ORIGIN).host;
    }
    const started = performance.now();
    const response = await handle(new Request(`${APP_ORIGIN}${c.url}`, init));
    const body = await response.text();
    const ms = performance.now() - started;
    if (response.status !== c.status)
      throw new Error(`${c.name}: status ${response.status}, expected ${c.status}: ${body.slice(0, 300)}`);
    return ms;
  };

  const timings = async (c: Case) => {
    for (let w = 0; w < WARMUP; w++) await view(c);
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) times.push(await view(c));
    return { p50: percentile(times, 50), p95: percentile(times, 95) };
  };

  const rows: string[][] = [
    [
      "page or form post",
      "requests",
      "depth",
      "p50 0ms",
      "p95 0ms",
      `p50 ${LATENCY_MS}ms`,
      `p95 ${LATENCY_MS}ms`,
      "backend requests",
    ],
  ];
  for (const c of cases.filter((c) => !process.env.BENCH_ONLY || c.name.includes(process.env.BENCH_ONLY))) {
    stack.setLatency(0);
    const fast = await timings(c);
    stack.setLatency(LATENCY_MS);
    const slow = await timings(c);
    const before = Date.now();
    await view(c);
    const logged = stack.requests.list().filter((r) => r.start >= before);
    stack.setLatency(0);
    rows.push([
      c.name,
      String(logged.length),
      String(sequentialDepth(logged)),
      fast.p50.toFixed(1),
      fast.p95.toFixed(1),
      slow.p50.toFixed(1),
      slow.p95.toFixed(1),
      summarise(logged),
    ]);
  }
  console.log(
    `server time in ms over ${RUNS} views each (after ${WARMUP} warm-up views); depth measured with ${LATENCY_MS} ms per backend request\n`,
  );
  console.log(table(rows));
} finally {
  await stack.close();
}

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summarise(entries: LoggedRequest[]) {
  const counts = new Map<string, number>();
  for (const e of entries) {
    const rpc = e.path
      .replace(/^\/rest\/v1\/rpc\//, "rpc ")
      .replace(/^\/rest\/v1\//, "")
      .replace(/^\/auth\/v1\//, "auth ");
    counts.set(rpc, (counts.get(rpc) ?? 0) + 1);
  }
  return [...counts].map(([p, n]) => (n > 1 ? `${n}× ${p}` : p)).join(", ");
}

function table(rows: string[][]) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    "| " +
    r
      .map((cell, i) => (i === 0 || i === r.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join(" | ") +
    " |";
  return [
    line(rows[0]),
    "|" +
      widths
        .map((w, i) => (i === 0 || i === widths.length - 1 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":"))
        .join("|") +
      "|",
    ...rows.slice(1).map(line),
  ].join("\n");
}
