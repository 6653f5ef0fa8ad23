/**
 * One request must not be able to stop the others (issue 22, H2). A regular
 * expression with back-references (`imatch.(.*)(.*)(.*)(.*)(.*)\1\2\3\4\5$`)
 * runs for minutes; on PGlite it used to run on the stack's only thread,
 * where no timer fires, so every service stopped until a restart. Now the
 * statement is cut at the role's statement_timeout on both databases (57014)
 * and the others are answered: a teammate's read, another user's read, Auth.
 * Every way the audit reached the regex engine is tried: match and imatch,
 * an `or=(…)` tree, a filter on an embedded resource, a function's argument
 * (POST and GET), a long pattern without back-references, and a seeded fuzz
 * of random patterns through those routes (FUZZ_SEED=<n> for another).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ADMISSION } from "../../stack/db/admission.ts";
import { seededRandom } from "../support/random.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const TIMEOUT_MS = 1000;
/** an answer well past the timeout, and the reopening of the embedded database; before the fix: minutes */
const ANSWERED_WITHIN_MS = 20_000;
const EVIL = String.raw`(.*)(.*)(.*)(.*)(.*)\1\2\3\4\5$`;
const LONG_TITLE = "Quarterly rotation of the database password for every service we run";

let stack: TestStack;
let attacker: string;
let bystander: string;

async function tokenFor(email: string): Promise<string> {
  const { data, error } = await stack.anonClient().auth.signInWithPassword({ email, password: "runaway-password-1" });
  if (error) throw error;
  return data.session!.access_token;
}

/** A team with a project and tasks (long titles, long comments), owned by `userId`. */
async function teamOf(userId: string, slug: string) {
  await stack.db.transaction(async (tx) => {
    const one = async (sql: string, params: unknown[]) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
    const team = await one("insert into teams (name, slug, created_by) values ($1, $1, $2) returning id", [
      slug,
      userId,
    ]);
    await tx.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'owner')", [team, userId]);
    const project = await one(
      "insert into projects (team_id, key, name) values ($1, 'OPS', 'Operations') returning id",
      [team],
    );
    for (let i = 0; i < 3; i++) {
      const task = await one("insert into tasks (project_id, title, created_by) values ($1, $2, $3) returning id", [
        project,
        `${LONG_TITLE} ${i}`,
        userId,
      ]);
      await tx.query("insert into comments (task_id, author_id, body) values ($1, $2, $3)", [task, userId, LONG_TITLE]);
    }
  });
}

beforeAll(async () => {
  stack = await startTestStack({
    rest: {
      statementTimeout: { anon: TIMEOUT_MS, authenticated: TIMEOUT_MS, service_role: 0 },
      // each test here sends runaway statements as the same user; refusing a caller after one
      // (issue 35, H1) is tested in stack-runaway-callers.test.ts
      admission: { ...DEFAULT_ADMISSION, cooldownMs: 0 },
    },
  });
  const admin = stack.adminClient();
  const ids: string[] = [];
  for (const email of ["attacker@example.test", "bystander@example.test"]) {
    const { data, error } = await admin.auth.admin.createUser({
      email,
      password: "runaway-password-1",
      email_confirm: true,
    });
    if (error) throw error;
    ids.push(data.user.id);
  }
  await teamOf(ids[0], "attackers");
  await teamOf(ids[1], "bystanders");
  // a function of the app's kind that takes a pattern from its caller
  await stack.db.exec(`
    create function public.tasks_matching(pattern text) returns setof public.tasks
      language sql stable security invoker as 'select * from public.tasks where title ~ pattern';
    grant execute on function public.tasks_matching(text) to authenticated;`);
  const { reloadSchemaCache } = await import("../../stack/rest/index.ts");
  await reloadSchemaCache(stack.db);
  attacker = await tokenFor("attacker@example.test");
  bystander = await tokenFor("bystander@example.test");
});
afterAll(() => stack?.close());

function rest(token: string, path: string, init: RequestInit = {}) {
  return fetch(`${stack.url}/rest/v1${path}`, {
    ...init,
    headers: { apikey: stack.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
    signal: AbortSignal.timeout(ANSWERED_WITHIN_MS),
  });
}

const q = encodeURIComponent;
const VARIANTS: [name: string, path: string, init?: RequestInit][] = [
  ["imatch on a column", `/tasks?select=id&title=imatch.${q(EVIL)}`],
  ["match on a column", `/tasks?select=id&title=match.${q(EVIL)}`],
  // quoted in the tree, where a backslash escapes the next character
  ["an or=(…) tree", `/tasks?select=id&or=${q(`(title.imatch."${EVIL.replace(/\\/g, "\\\\")}",id.is.null)`)}`],
  ["a filter on an embedded resource", `/tasks?select=id,comments!inner(id)&comments.body=match.${q(EVIL)}`],
  ["a function's argument (POST)", "/rpc/tasks_matching", { method: "POST", body: JSON.stringify({ pattern: EVIL }) }],
  ["a function's argument (GET)", `/rpc/tasks_matching?select=id&pattern=${q(EVIL)}`],
];

describe("a statement that would run for minutes", () => {
  it.each(VARIANTS)(
    "through %s is cut at the role's statement_timeout (57014), on both databases",
    async (_n, path, init) => {
      const before = stack.db.kind === "pglite" ? (stack.db as unknown as { recoveries: number }).recoveries : 0;
      const started = performance.now();
      const r = await rest(attacker, path, init);
      expect(r.status).toBe(500);
      expect(await r.json()).toMatchObject({ code: "57014", message: "canceling statement due to statement timeout" });
      expect(performance.now() - started).toBeLessThan(ANSWERED_WITHIN_MS);
      if (stack.db.kind === "pglite") {
        expect((stack.db as unknown as { recoveries: number }).recoveries).toBe(before + 1);
      }
    },
  );

  it("does not stop the others meanwhile: another user's read, the attacker's next request and Auth are answered", async () => {
    const evil = rest(attacker, `/tasks?select=id&title=imatch.${q(EVIL)}`);
    // the others arrive while it runs
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS / 4));
    const [theirs, health, next] = await Promise.all([
      rest(bystander, "/tasks?select=title&order=title"),
      fetch(`${stack.url}/auth/v1/health`, { signal: AbortSignal.timeout(ANSWERED_WITHIN_MS) }),
      rest(attacker, "/tasks?select=title&title=imatch.rotation&order=title"),
    ]);
    expect((await evil).status).toBe(500);
    expect(theirs.status).toBe(200);
    expect(await theirs.json()).toEqual([0, 1, 2].map((i) => ({ title: `${LONG_TITLE} ${i}` })));
    expect(health.status).toBe(200);
    expect(next.status).toBe(200);
    expect(await next.json()).toHaveLength(3);
  });

  it("keeps what was committed before it", async () => {
    const r = await rest(bystander, "/comments?select=body");
    expect(await r.json()).toEqual([0, 1, 2].map(() => ({ body: LONG_TITLE })));
    const { data } = await stack.adminClient().auth.admin.listUsers();
    expect(data.users.map((u) => u.email).sort()).toEqual(["attacker@example.test", "bystander@example.test"]);
  });

  it("a long pattern without back-references is answered too, within the timeout or cut at it", async () => {
    const long = "(?=.*a)".repeat(400) + "x";
    const r = await rest(attacker, `/tasks?select=id&title=imatch.${q(long)}`);
    expect([200, 500]).toContain(r.status);
    if (r.status === 500) expect((await r.json()).code).toBe("57014");
    const theirs = await rest(bystander, "/tasks?select=id");
    expect(theirs.status).toBe(200);
  });

  it("fuzz: random regular expressions through every route answer 2xx, 400 or 57014 in time, and the others keep working", async () => {
    const random = seededRandom(Number(process.env.FUZZ_SEED ?? 22));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const pieces = [
      "(.*)",
      "(a|aa)*",
      "(.+)+",
      ".{0,50}",
      "[a-z]+",
      "(?=.*a)",
      "(?!x)",
      "\\d*",
      "x*?",
      "^",
      "$",
      "o",
      "r",
      " ",
      "(",
      ")",
      "[",
      "{2,1}",
      "\\1",
      "\\2",
      "\\3",
    ];
    const failures: string[] = [];
    for (let i = 0; i < 40; i++) {
      const pattern = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(pieces)).join("");
      const routes: [string, RequestInit?][] = [
        [`/tasks?select=id&title=${pick(["match", "imatch"])}.${q(pattern)}`],
        [
          `/tasks?select=id&or=${q(`(title.imatch."${pattern.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}",id.is.null)`)}`,
        ],
        [`/tasks?select=id,comments!inner(id)&comments.body=match.${q(pattern)}`],
        ["/rpc/tasks_matching", { method: "POST", body: JSON.stringify({ pattern }) }],
      ];
      const [path, init] = pick(routes);
      const started = performance.now();
      try {
        const r = await rest(attacker, path, init);
        const body = (await r.json()) as { code?: string };
        const ok = r.status === 200 || r.status === 400 || (r.status === 500 && body.code === "57014");
        if (!ok) failures.push(`${r.status} ${body.code} ${path}`);
      } catch (error) {
        failures.push(`${(error as Error).name} after ${Math.round(performance.now() - started)} ms: ${path}`);
      }
    }
    expect(failures).toEqual([]);
    const theirs = await rest(bystander, "/tasks?select=id");
    expect(theirs.status).toBe(200);
    expect(await theirs.json()).toHaveLength(3);
  }, 300_000);
});
