/**
 * `text_references` (docs/product.md §14): what a team's texts refer to, as
 * the caller may see it. Called through supabase-js with each person's own
 * token: a member gets the team's tasks, members and attachments; someone
 * outside the team gets nothing, so a reference reveals nothing.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
const clients = {} as Record<"member" | "outsider", SupabaseClient>;
let attachmentId: string;

beforeAll(async () => {
  stack = await startTestStack();
  const ids = {} as Record<"member" | "outsider", string>;
  for (const name of ["member", "outsider"] as const) {
    const { rows } = await stack.db.query<{ id: string }>(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
       values (gen_random_uuid(), $1, 'authenticated', 'authenticated', jsonb_build_object('display_name', $2::text), now(), now(), now())
       returning id`,
      [`${name}@refs.test`, name === "member" ? "Mia Member" : "Otto Outsider"],
    );
    ids[name] = rows[0].id;
    const token = await stack.keys.sign(
      { sub: ids[name], role: "authenticated", aud: "authenticated" },
      { expiresIn: 3600 },
    );
    clients[name] = createClient(stack.url, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
      global: { headers: { Authorization: `Bearer ${token}` } },
    });
  }
  await stack.db.transaction(async (tx) => {
    const one = async (sql: string, params: unknown[]) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
    const team = await one("insert into teams (name, slug, created_by) values ('Acme', 'acme', $1) returning id", [
      ids.member,
    ]);
    await tx.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'owner')", [team, ids.member]);
    const project = await one("insert into projects (team_id, key, name) values ($1, 'WEB', 'Web') returning id", [
      team,
    ]);
    const task = await one(
      "insert into tasks (project_id, title, created_by) values ($1, 'Secret plan', $2) returning id",
      [project, ids.member],
    );
    attachmentId = await one(
      `insert into attachments (task_id, object_path, file_name, size_bytes, content_type, uploaded_by)
       values ($1, $2, 'plan.png', 10, 'image/png', $3) returning id`,
      [task, `${task}/plan.png`, ids.member],
    );
  });
});
afterAll(() => stack?.close());

const ask = (who: "member" | "outsider") =>
  clients[who].rpc("text_references", {
    team_slug: "acme",
    task_keys: ["WEB-1", "WEB-2"],
    usernames: ["mia_member", "otto_outsider"],
    attachment_ids: [attachmentId],
  });

describe("text_references", () => {
  it("a member gets the team's task, member and attachment, and nothing that isn't there", async () => {
    const { data, error } = await ask("member");
    expect(error).toBeNull();
    expect(data).toEqual({
      tasks: [{ key: "WEB-1", number: 1, project_key: "WEB", title: "Secret plan" }],
      people: [{ username: "mia_member", display_name: "Mia Member" }],
      attachments: [{ id: attachmentId, file_name: "plan.png", content_type: "image/png" }],
    });
  });

  it("someone outside the team learns nothing, not even that the team exists", async () => {
    const { data, error } = await ask("outsider");
    expect(error).toBeNull();
    expect(data).toEqual({ tasks: [], people: [], attachments: [] });
  });

  it("the anon key may not call it", async () => {
    const { error } = await stack.anonClient().rpc("text_references", { team_slug: "acme" });
    expect(error?.code).toBe("42501");
  });
});
