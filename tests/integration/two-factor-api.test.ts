/**
 * Two-factor at the API (issue 22 H3, docs/decisions/0020): the backend
 * itself, not only the app's pages, refuses a password-only session of an
 * account that has an authenticator app. Every API is called the way anyone
 * holding a token could call it — REST, RPC, Storage, Realtime and the Edge
 * Functions — with three tokens:
 *   aal1      Erin signed in with her password only (she has an app)
 *   aal2      Erin after entering the app's code
 *   unenrolled  Uma, who has no app, signed in with her password (aal1)
 * plus `stale`: Erin's token from a sign-in made just before she turned the
 * app on (its claims still say "not enrolled"; valid until it expires).
 * Codes come from tests/support/totp.ts, as an authenticator app computes them.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import * as jose from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { clientFor, Inbox, sleep, subscribed } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";
import { totp } from "../support/totp.ts";

type Who = "aal1" | "aal2" | "unenrolled" | "stale";
const WHO: Who[] = ["aal1", "aal2", "unenrolled", "stale"];
/** who may act, for a rule open to both people */
const ALLOWED: Record<Who, boolean> = { aal1: false, aal2: true, unenrolled: true, stale: false };
const TWO_FACTOR = /two-factor sign-in/;

let stack: TestStack;
const tokens = {} as Record<Who, string>;
const clients = {} as Record<Who, SupabaseClient>;
const ids = { erin: "", uma: "", team: "", project: "", task: "", status: "", comment: "" };
let n = 0;

async function signIn(email: string, password: string) {
  const client = serverClient(stack.url, stack.anonKey);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ?? new Error("no session");
  return { client, token: data.session.access_token, id: data.user.id };
}

async function person(name: string) {
  const email = uniqueEmail(name);
  const password = `${name}-password-1`;
  const { error } = await stack.adminClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { display_name: name },
  });
  if (error) throw error;
  return { email, password };
}

beforeAll(async () => {
  stack = await startTestStack();
  const erin = await person("erin");
  const uma = await person("uma");
  // a sign-in before the app is turned on: its token says "not enrolled"
  const early = await signIn(erin.email, erin.password);
  tokens.stale = early.token;
  ids.erin = early.id;

  const { client: phone } = await signIn(erin.email, erin.password);
  const { data: factor, error } = await phone.auth.mfa.enroll({ factorType: "totp" });
  if (error || !factor) throw error;
  const verified = await phone.auth.mfa.challengeAndVerify({ factorId: factor.id, code: totp(factor.totp.secret) });
  if (verified.error) throw verified.error;
  tokens.aal2 = verified.data.access_token;
  const later = await signIn(erin.email, erin.password);
  tokens.aal1 = later.token;
  const uma1 = await signIn(uma.email, uma.password);
  tokens.unenrolled = uma1.token;
  ids.uma = uma1.id;

  expect(jose.decodeJwt(tokens.aal1)).toMatchObject({ aal: "aal1", app_metadata: { mfa_enrolled: true } });
  expect(jose.decodeJwt(tokens.aal2)).toMatchObject({ aal: "aal2" });
  const stale = jose.decodeJwt(tokens.stale) as { aal: string; app_metadata: { mfa_enrolled?: boolean } };
  expect([stale.aal, stale.app_metadata.mfa_enrolled === true]).toEqual(["aal1", false]);
  for (const who of WHO) clients[who] = clientFor(stack, tokens[who]);

  // Erin owns the team, Uma is a member; written as the database owner
  await stack.db.transaction(async (tx) => {
    const one = async (sql: string, params: unknown[]) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
    ids.team = await one("insert into teams (name, slug, created_by) values ('Two', 'two-factor', $1) returning id", [
      ids.erin,
    ]);
    await tx.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')", [
      ids.team,
      ids.erin,
      ids.uma,
    ]);
    ids.project = await one("insert into projects (team_id, key, name) values ($1, 'TWO', 'Two') returning id", [
      ids.team,
    ]);
    ids.task = await one("insert into tasks (project_id, title, created_by) values ($1, 'Guarded', $2) returning id", [
      ids.project,
      ids.erin,
    ]);
    ids.status = await one("select status_id as id from tasks where id = $1", [ids.task]);
    ids.comment = await one("insert into comments (task_id, author_id, body) values ($1, $2, 'Hi') returning id", [
      ids.task,
      ids.erin,
    ]);
    await tx.query(
      "insert into invitations (team_id, email, token_hash, invited_by) values ($1, 'x@example.com', $2, $3)",
      [ids.team, "0".repeat(64), ids.erin],
    );
  });
});
afterAll(() => stack?.close());

describe("REST: every table reads nothing and writes nothing at aal1", () => {
  const reads: [table: string, column: string, filter: () => [string, string]][] = [
    ["profiles", "id", () => ["id", ids.erin]],
    ["teams", "id", () => ["id", ids.team]],
    ["team_members", "user_id", () => ["team_id", ids.team]],
    ["invitations", "id", () => ["team_id", ids.team]],
    ["projects", "id", () => ["id", ids.project]],
    ["tasks", "id", () => ["id", ids.task]],
    ["comments", "id", () => ["id", ids.comment]],
    ["project_statuses", "id", () => ["project_id", ids.project]],
  ];
  for (const [table, column, filter] of reads) {
    it(`${table}: rows for aal2 and for an account without an app, none at aal1`, async () => {
      for (const who of WHO) {
        // Uma is not an admin: invitations are Erin's to see
        const expected = ALLOWED[who] && !(table === "invitations" && who === "unenrolled");
        const { data, error } = await clients[who]
          .from(table)
          .select(column)
          .eq(...filter());
        expect(error, who).toBeNull();
        expect((data ?? []).length > 0, `${table} as ${who}`).toBe(expected);
      }
    });
  }

  it("comments: inserting is refused (403) at aal1, allowed otherwise", async () => {
    for (const who of WHO) {
      const { status, error } = await clients[who].from("comments").insert({ task_id: ids.task, body: `By ${who}` });
      expect(status, who).toBe(ALLOWED[who] ? 201 : 403);
      if (!ALLOWED[who]) expect(error?.code).toBe("42501");
    }
    const { rows } = await stack.db.query<{ body: string }>("select body from comments where task_id = $1", [ids.task]);
    expect(rows.map((r) => r.body).sort()).toEqual(["By aal2", "By unenrolled", "Hi"]);
  });

  it("tasks and profiles: updates at aal1 change nothing", async () => {
    await clients.aal1.from("tasks").update({ title: "Changed" }).eq("id", ids.task);
    await clients.aal1.from("profiles").update({ display_name: "Mallory" }).eq("id", ids.erin);
    const { rows } = await stack.db.query<{ title: string; display_name: string }>(
      "select t.title, p.display_name from tasks t, profiles p where t.id = $1 and p.id = $2",
      [ids.task, ids.erin],
    );
    expect(rows[0]).toEqual({ title: "Guarded", display_name: "erin" });
  });
});

describe("RPC: security definer functions refuse aal1 themselves", () => {
  const calls: [name: string, args: () => Record<string, unknown>][] = [
    ["move_task", () => ({ task_id: ids.task, status_id: ids.status, position: 0 })],
    ["create_team", () => ({ name: "Another", slug: `another-${++n}` })],
    ["my_invitations", () => ({})],
    ["team_has_member_email", () => ({ team_id: ids.team, email: "x@example.com" })],
    ["transfer_ownership", () => ({ team_id: ids.team, new_owner_id: ids.erin })],
    ["leave_team", () => ({ team_id: ids.team })],
    ["accept_invitation", () => ({ token: "no-such-token" })],
    ["decline_invitation", () => ({ token: "no-such-token" })],
  ];
  for (const [name, args] of calls) {
    it(`${name}: 403 with the reason at aal1 (for a token that says enrolled and one that is older)`, async () => {
      for (const who of ["aal1", "stale"] as const) {
        const { status, error } = await clients[who].rpc(name, args());
        expect(status, who).toBe(403);
        expect(error?.message, who).toMatch(TWO_FACTOR);
      }
    });
  }

  it("move_task moves at aal2 and for an account without an app", async () => {
    for (const who of ["aal2", "unenrolled"] as const) {
      const { error } = await clients[who].rpc("move_task", { task_id: ids.task, status_id: ids.status, position: 0 });
      expect(error, who).toBeNull();
    }
  });

  it("my_project_ids(), the tasks policy's list, is empty at aal1", async () => {
    // a policy helper (schema private): not callable through the API, so asked as a request would
    const projectsOf = (who: Who) =>
      stack.db.asRequest(
        { role: "authenticated", claims: jose.decodeJwt(tokens[who]) as Record<string, unknown> },
        async (tx) => (await tx.query<{ id: string }>("select private.my_project_ids() as id")).rows.map((r) => r.id),
      );
    expect(await projectsOf("aal1")).toEqual([]);
    expect(await projectsOf("stale")).toEqual([]);
    expect(await projectsOf("aal2")).toEqual([ids.project]);
    expect((await clients.aal2.rpc("my_project_ids")).error).toMatchObject({ code: "PGRST202" });
  });

  it("the page reads (security invoker) find nothing at aal1", async () => {
    for (const who of WHO) {
      const board = await clients[who].rpc("board_view", { team_slug: "two-factor", project_key: "TWO" });
      expect(board.data === null, who).toBe(!ALLOWED[who]);
      const search = await clients[who].rpc("search_tasks", { query: "guarded" });
      expect((search.data ?? []).length > 0, who).toBe(ALLOWED[who]);
    }
  });
});

describe("Storage", () => {
  it("attachments: upload, download, signed URL and list refused at aal1", async () => {
    const path = `${ids.task}/notes.txt`;
    const owner = stack.adminClient().storage.from("attachments");
    await owner.upload(path, new Blob(["team notes"], { type: "text/plain" }));
    for (const who of WHO) {
      const bucket = clients[who].storage.from("attachments");
      const up = await bucket.upload(`${ids.task}/${who}.txt`, new Blob([who], { type: "text/plain" }));
      expect(up.error === null, `upload as ${who}`).toBe(ALLOWED[who]);
      const down = await bucket.download(path);
      expect(down.error === null, `download as ${who}`).toBe(ALLOWED[who]);
      const signed = await bucket.createSignedUrl(path, 60);
      expect(signed.error === null, `signed URL as ${who}`).toBe(ALLOWED[who]);
      const listed = await bucket.list(ids.task);
      expect(
        (listed.data ?? []).some((o) => o.name === "notes.txt"),
        `list as ${who}`,
      ).toBe(ALLOWED[who]);
    }
  });

  it("avatars: writing into one's own folder refused at aal1", async () => {
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });
    for (const who of WHO) {
      const id = who === "unenrolled" ? ids.uma : ids.erin;
      const up = await clients[who].storage.from("avatars").upload(`${id}/${who}.png`, png);
      expect(up.error === null, who).toBe(ALLOWED[who]);
    }
  });
});

describe("Realtime", () => {
  it("a task's private presence channel refuses aal1", async () => {
    for (const who of WHO) {
      const id = who === "unenrolled" ? ids.uma : ids.erin;
      const channel = clients[who].channel(`task:${ids.task}`, { config: { private: true, presence: { key: id } } });
      if (ALLOWED[who]) await expect(subscribed(channel), who).resolves.toBeTruthy();
      else await expect(subscribed(channel), who).rejects.toThrow("Unauthorized");
      await clients[who].removeChannel(channel);
    }
  });

  it("postgres_changes: an aal1 subscriber is told nothing of a new comment", async () => {
    const inboxes = {} as Record<Who, Inbox<unknown>>;
    for (const who of WHO) {
      inboxes[who] = new Inbox();
      await subscribed(
        clients[who]
          .channel(`comments-${who}`)
          .on("postgres_changes", { event: "INSERT", schema: "public", table: "comments" }, inboxes[who].push),
      );
    }
    await stack.db.query("insert into comments (task_id, author_id, body) values ($1, $2, 'Live')", [
      ids.task,
      ids.uma,
    ]);
    await inboxes.aal2.until(1);
    await inboxes.unenrolled.until(1);
    await sleep(300);
    expect(inboxes.aal1.items).toEqual([]);
    expect(inboxes.stale.items).toEqual([]);
  });
});

describe("Edge Functions", () => {
  it("export-project: 403 insufficient_aal at aal1, the CSV at aal2 and without an app", async () => {
    for (const who of ["aal1", "aal2", "unenrolled"] as const) {
      const res = await fetch(`${stack.url}/functions/v1/export-project?project_id=${ids.project}`, {
        headers: { Authorization: `Bearer ${tokens[who]}`, apikey: stack.anonKey },
      });
      const body = await res.text();
      expect(res.status, who).toBe(who === "aal1" ? 403 : 200);
      if (who === "aal1") expect(JSON.parse(body)).toMatchObject({ code: "insufficient_aal" });
      else expect(body).toContain("TWO-1,Guarded");
    }
    // the older token's claims say "not enrolled": the function lets it through to the
    // database, whose policies find the factor and show it nothing
    const res = await fetch(`${stack.url}/functions/v1/export-project?project_id=${ids.project}`, {
      headers: { Authorization: `Bearer ${tokens.stale}`, apikey: stack.anonKey },
    });
    expect(res.status).toBe(404);
  });

  it("send-invitation: 403 insufficient_aal at aal1", async () => {
    const res = await fetch(`${stack.url}/functions/v1/send-invitation`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.aal1}`, apikey: stack.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ team_id: ids.team, email: "new@example.com", role: "member" }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "insufficient_aal" });
  });
});

describe("the catalog: nothing added later can forget the rule", () => {
  it("every table the API roles can reach has the restrictive aal2 policy", async () => {
    const { rows } = await stack.db.query<{ table: string }>(
      `select c.oid::regclass::text as table
       from pg_class c
       where c.relkind in ('r', 'p') and c.relrowsecurity
         and (c.relnamespace = 'public'::regnamespace or c.oid in ('storage.objects'::regclass, 'realtime.messages'::regclass))
         and not exists (
           select 1 from pg_policy p
           where p.polrelid = c.oid and not p.polpermissive and p.polcmd = '*'
             and pg_get_expr(p.polqual, p.polrelid) like '%has_required_aal()%'
             and pg_get_expr(p.polwithcheck, p.polrelid) like '%has_required_aal()%'
         )`,
    );
    expect(rows.map((r) => r.table)).toEqual([]);
  });

  it("every security definer function a signed-in person can call checks it (or says why not)", async () => {
    const open = new Map([
      // anon may call it too: whoever holds an invitation link may see what it invites to
      ["invitation_preview", "the link's holder, signed in or not"],
      // which way in the invitation page offers first: asked only of a pending link (issue 42)
      ["invitation_has_account", "the link's holder, signed in or not"],
      // an email's unsubscribe link works without signing in (RFC 8058): its token is the key
      ["unsubscribe_from_emails", "the link's holder, signed in or not"],
      ["unsubscribe_link_status", "the link's holder, signed in or not"],
      // a calendar app fetches the feed without signing in: the secret address is the key
      ["calendar_feed", "the feed address's holder, signed in or not"],
      // a public read-only link's page reads without signing in: the secret address is the key (issue 41)
      ["shared_board", "the link's holder, signed in or not"],
      // the rule itself
      ["has_required_aal", "the rule"],
      ["require_aal", "the rule"],
      // per-row role helpers: a yes/no about the caller's own role for an id they pass; the
      // rows they guard are refused by the restrictive policies (checking here too costs per row)
      ["is_member", "per-row role helper"],
      ["has_role", "per-row role helper"],
      ["shares_team_with", "per-row role helper"],
      ["has_project_role", "per-row role helper"],
      ["has_task_role", "per-row role helper"],
      ["may_comment", "per-row role helper"],
      // the way past the authenticator app when it is lost: called at aal1 on purpose
      ["redeem_recovery_code", "the recovery code itself is the second factor"],
    ]);
    const { rows } = await stack.db.query<{ name: string }>(
      `select p.proname as name
       from pg_proc p
       where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace) and p.prosecdef
         and has_function_privilege('authenticated', p.oid, 'execute')
         and p.prosrc not like '%has_required_aal()%' and p.prosrc not like '%require_aal()%'
       order by 1`,
    );
    expect(rows.map((r) => r.name).filter((name) => !open.has(name))).toEqual([]);
  });
});
