/**
 * send-invitation and export-project (supabase/functions) on the stack's
 * Deno runtime, called as the app calls them: supabase-js's functions.invoke
 * with a signed-in person's token. Each role's rights come from row-level
 * security, never from the request body; the invitation email goes out over
 * SMTP and lands in the inbox.
 */
import crypto from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestMessage, linksIn, messagesTo, serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ auth: { siteUrl: "http://app.test" } });
});
afterAll(() => stack?.close());

const PASSWORD = "invite-test-1";
const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

async function person(name: string, email = uniqueEmail(name.toLowerCase().replace(/\W/g, ""))) {
  const { data, error } = await stack
    .adminClient()
    .auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { display_name: name } });
  if (error) throw error;
  const client = serverClient(stack.url, stack.anonKey);
  const signIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signIn.error) throw signIn.error;
  return { id: data.user.id, email, client };
}
type Person = Awaited<ReturnType<typeof person>>;

let n = 0;
async function team(roles: Partial<Record<"admin" | "member" | "viewer", Person>> = {}) {
  const owner = await person("Olive Owner");
  const { data, error } = await owner.client.rpc("create_team", {
    name: "Rocket Team",
    slug: `rocket-${process.pid}-${++n}`,
  });
  if (error) throw error;
  for (const [role, p] of Object.entries(roles)) {
    await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, $3)", [
      data.id,
      p.id,
      role,
    ]);
  }
  return { id: data.id as string, slug: data.slug as string, owner };
}

async function invite(client: SupabaseClient, body: Record<string, unknown>) {
  const result = await client.functions.invoke("send-invitation", { body });
  if (!result.error) return { status: 201, body: result.data };
  const res = result.error.context as Response;
  return { status: res.status, body: await res.json() };
}

describe("send-invitation", () => {
  it("an admin invites an address: a pending invitation valid 7 days, stored by the hash of a token that only the email carries", async () => {
    const admin = await person("Ada Admin");
    const t = await team({ admin });
    const email = uniqueEmail("guest");
    const before = Date.now();
    const res = await invite(admin.client, { team_id: t.id, email: email.toUpperCase(), role: "member" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, role: "member" });
    const days = (Date.parse(res.body.expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);

    const message = await latestMessage(stack.url, email);
    expect(message.Subject).toBe("Ada Admin invited you to Rocket Team on Teamboard");
    expect(message.Text).toContain("as a member");
    const link = linksIn(message).find((l) => l.startsWith("http://app.test/invitations/"));
    expect(link).toBeDefined();
    const token = link!.slice("http://app.test/invitations/".length);
    const { rows } = await stack.db.query<{ token_hash: string; invited_by: string }>(
      "select token_hash, invited_by from invitations where id = $1",
      [res.body.id],
    );
    expect(rows[0]).toEqual({ token_hash: sha256(token), invited_by: admin.id });
    const stored = JSON.stringify(
      (await stack.db.query("select * from invitations where id = $1", [res.body.id])).rows,
    );
    expect(stored).not.toContain(token);

    // the invited person, signed in, accepts with the link's token and joins with the role
    const guest = await person("Gus Guest", email);
    const { data: preview } = await guest.client.rpc("invitation_preview", { token });
    expect(preview).toEqual([
      expect.objectContaining({
        team_name: "Rocket Team",
        inviter_name: "Ada Admin",
        role: "member",
        email,
        status: "pending",
      }),
    ]);
    expect((await guest.client.rpc("accept_invitation", { token })).error).toBeNull();
    expect((await guest.client.rpc("accept_invitation", { token })).error?.message).toBe(
      "This invitation was already used.",
    );
    const members = await stack.db.query("select role from team_members where team_id = $1 and user_id = $2", [
      t.id,
      guest.id,
    ]);
    expect(members.rows).toEqual([{ role: "member" }]);
  });

  it("the owner invites too; members, viewers and strangers are refused, whatever the body says", async () => {
    const member = await person("Mo Member");
    const viewer = await person("Vi Viewer");
    const stranger = await person("Stan Stranger");
    const t = await team({ member, viewer });
    expect((await invite(t.owner.client, { team_id: t.id, email: uniqueEmail("o"), role: "admin" })).status).toBe(201);
    expect(await invite(member.client, { team_id: t.id, email: uniqueEmail("m"), role: "viewer" })).toEqual({
      status: 403,
      body: { code: "forbidden", error: "Your role in this team doesn't allow that." },
    });
    expect((await invite(viewer.client, { team_id: t.id, email: uniqueEmail("v"), role: "viewer" })).status).toBe(403);
    expect(
      await invite(stranger.client, { team_id: t.id, email: uniqueEmail("s"), role: "viewer", invited_by: t.owner.id }),
    ).toEqual({
      status: 404,
      body: { code: "team_not_found", error: "Team not found." },
    });
    const anon = await invite(stack.anonClient(), { team_id: t.id, email: uniqueEmail("a"), role: "viewer" });
    expect(anon).toEqual({ status: 401, body: { code: "not_signed_in", error: "Sign in first." } });
    const { rows } = await stack.db.query<{ count: number }>(
      "select count(*)::int as count from invitations where team_id = $1",
      [t.id],
    );
    expect(rows[0].count).toBe(1);
  });

  it("refuses the owner role, a bad address, and someone already in the team", async () => {
    const admin = await person("Ada Admin");
    const t = await team({ admin });
    expect(await invite(admin.client, { team_id: t.id, email: uniqueEmail("x"), role: "owner" })).toEqual({
      status: 400,
      body: { code: "invalid_role", error: "An invitation can't make someone the owner. Transfer ownership instead." },
    });
    expect((await invite(admin.client, { team_id: t.id, email: "not-an-address", role: "member" })).body.code).toBe(
      "invalid_email",
    );
    expect(await invite(admin.client, { team_id: t.id, email: t.owner.email.toUpperCase(), role: "member" })).toEqual({
      status: 409,
      body: { code: "already_member", error: `${t.owner.email} is already a member of this team.` },
    });
  });

  it("a guest needs projects of the team (issue 41): none, another team's, or not ids are refused; they are stored", async () => {
    const admin = await person("Ada Admin");
    const t = await team({ admin });
    const other = await team();
    const projectOf = async (teamId: string, key: string) =>
      (
        await stack.db.query<{ id: string }>(
          "insert into projects (team_id, key, name) values ($1, $2, $2) returning id",
          [teamId, key],
        )
      ).rows[0].id;
    const mine = await projectOf(t.id, "CLIENT");
    const theirs = await projectOf(other.id, "ELSE");
    const body = (extra: Record<string, unknown>) => ({
      team_id: t.id,
      email: uniqueEmail("g"),
      role: "guest",
      ...extra,
    });
    expect(await invite(admin.client, body({}))).toEqual({
      status: 400,
      body: { code: "invalid_projects", error: "Choose at least one project for a guest: it is all they will see." },
    });
    expect(await invite(admin.client, body({ project_ids: [theirs] }))).toEqual({
      status: 400,
      body: { code: "invalid_projects", error: "Choose projects of this team." },
    });
    expect((await invite(admin.client, body({ project_ids: ["nope"] }))).body.code).toBe("invalid_projects");
    const sent = await invite(admin.client, body({ project_ids: [mine] }));
    expect(sent.status).toBe(201);
    const { rows } = await stack.db.query<{ role: string; project_ids: string[] }>(
      "select role, project_ids from invitations where id = $1",
      [sent.body.id],
    );
    expect(rows).toEqual([{ role: "guest", project_ids: [mine] }]);
  });

  it("sends one invitation email per address per 60 s; a later one replaces the pending invitation", async () => {
    const admin = await person("Ada Admin");
    const t = await team({ admin });
    const other = await team({ admin });
    const email = uniqueEmail("twice");
    const first = await invite(admin.client, { team_id: t.id, email, role: "viewer" });
    expect(first.status).toBe(201);
    const again = await invite(admin.client, { team_id: other.id, email, role: "viewer" });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe("over_email_send_rate_limit");
    expect(again.body.error).toMatch(/^An invitation was just sent to .+\. Try again in \d+ seconds\.$/);
    expect(await messagesTo(stack.url, email)).toHaveLength(1);

    // a minute later (moved back in time here) the resend goes out and the old link stops working
    await stack.db.query("update invitations set created_at = created_at - interval '61 seconds' where id = $1", [
      first.body.id,
    ]);
    const resent = await invite(admin.client, { team_id: t.id, email, role: "admin" });
    expect(resent.status).toBe(201);
    const { rows } = await stack.db.query<{ id: string; role: string; revoked: boolean }>(
      "select id, role, revoked_at is not null as revoked from invitations where team_id = $1 order by created_at",
      [t.id],
    );
    expect(rows).toEqual([
      { id: first.body.id, role: "viewer", revoked: true },
      { id: resent.body.id, role: "admin", revoked: false },
    ]);
    expect(await messagesTo(stack.url, email)).toHaveLength(2);
  });
});

describe("invitation states", () => {
  async function invitation(then?: string) {
    const t = await team();
    const token = `tok-${crypto.randomUUID()}`;
    const email = uniqueEmail("state");
    await stack.db.query(
      "insert into invitations (team_id, email, role, token_hash, invited_by) values ($1, $2, 'viewer', $3, $4)",
      [t.id, email, sha256(token), t.owner.id],
    );
    if (then) await stack.db.query(`update invitations set ${then} where token_hash = $1`, [sha256(token)]);
    return { token, email, team: t };
  }
  const preview = async (token: string) =>
    (await stack.anonClient().rpc("invitation_preview", { token })).data?.[0]?.status;

  it("the link shows pending, expired, revoked and accepted, to anyone holding it", async () => {
    expect(await preview((await invitation()).token)).toBe("pending");
    expect(await preview((await invitation("expires_at = now() - interval '1 minute'")).token)).toBe("expired");
    expect(await preview((await invitation("revoked_at = now()")).token)).toBe("revoked");
    expect(await preview((await invitation("accepted_at = now()")).token)).toBe("accepted");
    expect((await stack.anonClient().rpc("invitation_preview", { token: "nothing" })).data).toEqual([]);
  });

  it("the invited person declines: the invitation ends and can't be accepted", async () => {
    const { token, email } = await invitation();
    const guest = await person("Dee Decliner", email);
    expect((await guest.client.rpc("decline_invitation", { token })).error).toBeNull();
    expect(await preview(token)).toBe("revoked");
    expect((await guest.client.rpc("accept_invitation", { token })).error?.message).toBe(
      "This invitation was withdrawn.",
    );
    expect((await stack.anonClient().rpc("decline_invitation", { token })).error).not.toBeNull();
  });

  it("only admins may ask whether an address is in the team", async () => {
    const member = await person("Mo Member");
    const t = await team({ member });
    expect((await t.owner.client.rpc("team_has_member_email", { team_id: t.id, email: member.email })).data).toBe(true);
    expect(
      (await member.client.rpc("team_has_member_email", { team_id: t.id, email: t.owner.email })).error?.message,
    ).toBe("Your role in this team doesn't allow that.");
  });
});
