/**
 * Personal API tokens (docs/product.md §19): a script trades its `tb_…` token at
 * the api-token Edge Function (real Deno) for a 60-second access token and
 * calls the REST API with the official client or plain HTTP. It reaches
 * what its person could, narrowed to its team and mode; revoked or expired,
 * 401; the person's security log records it.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import ws from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newApiToken } from "../../app/lib/api-tokens.server.ts";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
let olive: { id: string; client: SupabaseClient };
let acme: { team: string; project: string; todo: string; done: string };
let other: { team: string; project: string };

async function person(name: string) {
  const email = uniqueEmail("tokens");
  const { data, error } = await stack.adminClient().auth.admin.createUser({
    email,
    password: "tokens-test-1",
    email_confirm: true,
    user_metadata: { display_name: name },
  });
  if (error) throw error;
  const client = serverClient(stack.url, stack.anonKey);
  await client.auth.signInWithPassword({ email, password: "tokens-test-1" });
  return { id: data.user.id, client };
}

async function teamWithProject(slug: string, key: string) {
  const { data: team, error } = await olive.client.rpc("create_team", { name: slug, slug: `${slug}-${process.pid}` });
  if (error) throw error;
  const { rows } = await stack.db.query<{ id: string }>(
    "insert into projects (team_id, key, name) values ($1, $2, $2) returning id",
    [team.id, key],
  );
  await stack.db.query(`insert into tasks (project_id, title) values ($1, $2 || ' one'), ($1, $2 || ' two')`, [
    rows[0].id,
    key,
  ]);
  return { team: team.id as string, project: rows[0].id };
}

async function makeToken(options: { team: string | null; mode: "read" | "write"; days?: number; name?: string }) {
  const made = newApiToken();
  const { data, error } = await olive.client.rpc("create_api_token", {
    name: options.name ?? `${options.mode} token`,
    team_id: options.team,
    mode: options.mode,
    days: options.days ?? 30,
    token_hash: made.hash,
    prefix: made.prefix,
  });
  if (error) throw error;
  return { id: data as string, token: made.token };
}

function exchange(token: string) {
  return fetch(`${stack.url}/functions/v1/api-token`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
}

async function accessToken(token: string): Promise<string> {
  const res = await exchange(token);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string; expires_in: number; user_id: string };
  expect(body.expires_in).toBe(60);
  expect(body.user_id).toBe(olive.id);
  return body.access_token;
}

/** What the docs show: supabase-js with the exchange as its accessToken (fetched again when it nears its end). */
function tokenClient(token: string): SupabaseClient {
  let cached: { value: string; until: number } | null = null;
  return createClient(stack.url, stack.anonKey, {
    accessToken: async () => {
      if (!cached || cached.until - Date.now() < 10_000) {
        const res = await exchange(token);
        const body = (await res.json()) as { access_token: string; expires_at: number };
        cached = { value: body.access_token, until: body.expires_at * 1000 };
      }
      return cached.value;
    },
    realtime: { transport: ws as unknown as typeof WebSocket },
  });
}

function rest(path: string, access: string, init: RequestInit = {}) {
  return fetch(`${stack.url}/rest/v1${path}`, {
    ...init,
    headers: {
      apikey: stack.anonKey,
      Authorization: `Bearer ${access}`,
      "Content-Type": "application/json",
      ...init.headers,
    },
  });
}

beforeAll(async () => {
  stack = await startTestStack();
  olive = await person("Olive Owner");
  const a = await teamWithProject("acme", "ACM");
  const { rows } = await stack.db.query<{ name: string; id: string }>(
    "select name, id from project_statuses where project_id = $1",
    [a.project],
  );
  const status = (name: string) => rows.find((r) => r.name === name)!.id;
  acme = { ...a, todo: status("To do"), done: status("Done") };
  other = await teamWithProject("other", "OTH");
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe("a read-only token for one team", () => {
  let token: { id: string; token: string };
  let access: string;

  beforeAll(async () => {
    token = await makeToken({ team: acme.team, mode: "read" });
    access = await accessToken(token.token);
  }, 60_000);

  it("lists that team's tasks and nothing of another team", async () => {
    const res = await rest("/tasks?select=title&order=title", access);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ title: "ACM one" }, { title: "ACM two" }]);
    const teams = await rest("/teams?select=id", access);
    expect(await teams.json()).toEqual([{ id: acme.team }]);
    // the person's session sees both teams
    const { data } = await olive.client.from("tasks").select("title");
    expect(data).toHaveLength(4);
  });

  it("gets 403 for a write, a table's or a function's", async () => {
    const insert = await rest("/tasks", access, {
      method: "POST",
      body: JSON.stringify({ project_id: acme.project, title: "Sneaky" }),
    });
    expect(insert.status).toBe(403);
    expect(await insert.json()).toMatchObject({ code: "42501", message: "This API token is read-only." });
    const [{ id }] = (await (await rest("/tasks?select=id&limit=1", access)).json()) as { id: string }[];
    const move = await rest("/rpc/move_task", access, {
      method: "POST",
      body: JSON.stringify({ task_id: id, status_id: acme.done }),
    });
    expect(move.status).toBe(403);
    const { rows } = await stack.db.query("select 1 from tasks where title = 'Sneaky'");
    expect(rows).toEqual([]);
  });

  it("can't make tokens, nor use Auth's own endpoints", async () => {
    const made = await rest("/rpc/create_api_token", access, {
      method: "POST",
      body: JSON.stringify({
        name: "x",
        team_id: null,
        mode: "write",
        days: 1,
        token_hash: "0".repeat(64),
        prefix: "tb_",
      }),
    });
    expect(made.status).toBe(403);
    const user = await fetch(`${stack.url}/auth/v1/user`, {
      headers: { apikey: stack.anonKey, Authorization: `Bearer ${access}` },
    });
    expect(user.status).toBe(403);
  });

  it("uploads nothing to Storage (no pre-request there: restrictive policies), while a write token may", async () => {
    const png = new Blob([Buffer.from("89504e470d0a1a0a", "hex")], { type: "image/png" });
    const reader = tokenClient(token.token);
    const refused = await reader.storage.from("avatars").upload(`${olive.id}/read.png`, png);
    expect(refused.error).not.toBeNull();
    const writer = tokenClient((await makeToken({ team: null, mode: "write" })).token);
    const allowed = await writer.storage.from("avatars").upload(`${olive.id}/write.png`, png);
    expect(allowed.error).toBeNull();
  });

  it("after Revoke: 401 at once with the access token it had, and no new one", async () => {
    const { error } = await olive.client.rpc("revoke_api_token", { token_id: token.id });
    expect(error).toBeNull();
    const res = await rest("/tasks?select=title", access);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "This API token was revoked or has expired." });
    expect((await exchange(token.token)).status).toBe(401);
  });
});

describe("a read-write token for all teams", () => {
  it("creates and moves a task with supabase-js; the activity shows the person", async () => {
    const { token } = await makeToken({ team: null, mode: "write" });
    const client = tokenClient(token);
    const { data: task, error } = await client
      .from("tasks")
      .insert({ project_id: acme.project, title: "Made by a script" })
      .select("id, number")
      .single();
    expect(error).toBeNull();
    const { error: moveError } = await client.rpc("move_task", { task_id: task!.id, status_id: acme.done });
    expect(moveError).toBeNull();
    const { rows } = await stack.db.query<{ kind: string; actor_id: string }>(
      "select kind, actor_id from task_events where task_id = $1 order by created_at",
      [task!.id],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.actor_id === olive.id)).toBe(true);
    // and it reaches the other team too
    const { data: all } = await client.from("tasks").select("title").eq("project_id", other.project);
    expect(all).toHaveLength(2);
  });

  it("a token for one team can't write into another", async () => {
    const { token } = await makeToken({ team: acme.team, mode: "write" });
    const client = tokenClient(token);
    const { error } = await client.from("tasks").insert({ project_id: other.project, title: "Elsewhere" });
    expect(error).not.toBeNull();
    const { rows } = await stack.db.query("select 1 from tasks where title = 'Elsewhere'");
    expect(rows).toEqual([]);
  });
});

describe("expiry and the security log", () => {
  it("an expired token gets 401", async () => {
    const { id, token } = await makeToken({ team: null, mode: "read", days: 1 });
    const access = await accessToken(token);
    await stack.db.query(
      "update api_tokens set created_at = now() - interval '2 days', expires_at = now() - interval '1 second' where id = $1",
      [id],
    );
    expect((await rest("/tasks?select=id", access)).status).toBe(401);
    expect((await exchange(token)).status).toBe(401);
  });

  it("a token lasts at most a year", async () => {
    const made = newApiToken();
    const { error } = await olive.client.rpc("create_api_token", {
      name: "Forever",
      team_id: null,
      mode: "read",
      days: 366,
      token_hash: made.hash,
      prefix: made.prefix,
    });
    expect(error).toMatchObject({ code: "22023", message: "A token lasts at most a year." });
  });

  it("records creation, use and revocation, and hides the hash", async () => {
    const { data: log } = await olive.client.from("security_events").select("kind, detail").order("id");
    const kinds = (log ?? []).map((e) => e.kind);
    expect(kinds).toContain("api_token_created");
    expect(kinds).toContain("api_token_used");
    expect(kinds).toContain("api_token_revoked");
    expect(log!.find((e) => e.kind === "api_token_created")!.detail).toMatch(/“read token” \(acme, read-only, until /);
    const { error } = await olive.client.from("api_tokens").select("token_hash");
    expect(error).not.toBeNull();
  });
});
