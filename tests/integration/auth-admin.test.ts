import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestMessage, serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";

describe("the admin API", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  const admin = () => serverClient(stack.url, stack.serviceRoleKey).auth.admin;

  it("is refused without the service role key", async () => {
    const email = uniqueEmail("member");
    await admin().createUser({ email, password: PASSWORD, email_confirm: true });
    const { data } = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    for (const token of [stack.anonKey, data.session!.access_token]) {
      const res = await fetch(`${stack.url}/auth/v1/admin/users`, {
        headers: { apikey: stack.anonKey, authorization: `Bearer ${token}`, "x-supabase-api-version": "2024-01-01" },
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ code: "not_admin", message: "User not allowed" });
    }
    const none = await fetch(`${stack.url}/auth/v1/admin/users`, { headers: { apikey: stack.anonKey } });
    expect(none.status).toBe(401);
    const viaAnonClient = await serverClient(stack.url, stack.anonKey).auth.admin.listUsers();
    expect(viaAnonClient.error?.status).toBe(403);
  });

  it("creates, reads, lists, updates and deletes users", async () => {
    const email = uniqueEmail("admin");
    const created = await admin().createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { display_name: "Grace" },
      app_metadata: { plan: "pro" },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user?.email_confirmed_at).toBeTruthy();
    expect(created.data.user?.app_metadata).toMatchObject({ provider: "email", providers: ["email"], plan: "pro" });
    expect(created.data.user?.identities?.[0]).toMatchObject({ provider: "email", user_id: id });

    const duplicate = await admin().createUser({ email, password: PASSWORD });
    expect(duplicate.error?.code).toBe("email_exists");
    expect(duplicate.error?.status).toBe(422);

    const fetched = await admin().getUserById(id);
    expect(fetched.data.user?.user_metadata).toMatchObject({ display_name: "Grace" });

    const list = await admin().listUsers({ page: 1, perPage: 100 });
    expect(list.error).toBeNull();
    expect(list.data.users.map((u) => u.id)).toContain(id);

    const updated = await admin().updateUserById(id, {
      user_metadata: { display_name: "Grace H." },
      password: "new-pass-456",
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata.display_name).toBe("Grace H.");
    const signIn = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({
      email,
      password: "new-pass-456",
    });
    expect(signIn.error).toBeNull();

    const banned = await admin().updateUserById(id, { ban_duration: "24h" });
    expect(banned.data.user?.banned_until).toBeTruthy();
    const bannedSignIn = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({
      email,
      password: "new-pass-456",
    });
    expect(bannedSignIn.error?.code).toBe("user_banned");

    const deleted = await admin().deleteUser(id);
    expect(deleted.error).toBeNull();
    const missing = await admin().getUserById(id);
    expect(missing.error?.code).toBe("user_not_found");
    expect(missing.error?.status).toBe(404);
    const notUuid = await fetch(`${stack.url}/auth/v1/admin/users/not-a-uuid`, {
      headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    expect(notUuid.status).toBe(404);
  });

  it("generates links without sending email, for each link type", async () => {
    const email = uniqueEmail("links");
    const signup = await admin().generateLink({
      type: "signup",
      email,
      password: PASSWORD,
      options: { redirectTo: "http://localhost:5173/x" },
    });
    expect(signup.error).toBeNull();
    expect(signup.data.properties).toMatchObject({
      verification_type: "signup",
      redirect_to: "http://localhost:5173/x",
    });
    expect(signup.data.properties?.email_otp).toMatch(/^\d{6}$/);
    expect(signup.data.properties?.action_link).toContain(
      `/auth/v1/verify?token=${signup.data.properties?.hashed_token}&type=signup`,
    );
    const res = await fetch(`${stack.url}/inbox/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`);
    expect(((await res.json()) as { messages: unknown[] }).messages).toEqual([]);

    const anon = serverClient(stack.url, stack.anonKey);
    const confirmed = await anon.auth.verifyOtp({ token_hash: signup.data.properties!.hashed_token, type: "signup" });
    expect(confirmed.error).toBeNull();

    const magic = await admin().generateLink({ type: "magiclink", email });
    const viaMagic = await anon.auth.verifyOtp({ token_hash: magic.data.properties!.hashed_token, type: "magiclink" });
    expect(viaMagic.data.user?.email).toBe(email);

    const recovery = await admin().generateLink({ type: "recovery", email });
    const viaCode = await anon.auth.verifyOtp({ email, token: recovery.data.properties!.email_otp, type: "recovery" });
    expect(viaCode.error).toBeNull();

    // secure email change (the default): one link per address, both needed
    const newEmail = uniqueEmail("moved");
    const change = await admin().generateLink({ type: "email_change_new", email, newEmail });
    expect(change.error).toBeNull();
    const current = await admin().generateLink({ type: "email_change_current", email, newEmail });
    expect(current.error).toBeNull();
    expect(current.data.properties!.hashed_token).not.toBe(change.data.properties!.hashed_token);
    const half = await anon.auth.verifyOtp({ token_hash: change.data.properties!.hashed_token, type: "email_change" });
    expect(half.error).toBeNull();
    expect(half.data.session).toBeNull();
    const changed = await anon.auth.verifyOtp({
      token_hash: current.data.properties!.hashed_token,
      type: "email_change",
    });
    expect(changed.data.user?.email).toBe(newEmail);

    const nobody = await admin().generateLink({ type: "recovery", email: uniqueEmail("nobody") });
    expect(nobody.error?.code).toBe("user_not_found");

    const invitee = uniqueEmail("invitee");
    const invite = await admin().generateLink({ type: "invite", email: invitee });
    expect(invite.data.user?.invited_at).toBeTruthy();
    const accepted = await anon.auth.verifyOtp({ token_hash: invite.data.properties!.hashed_token, type: "invite" });
    expect(accepted.data.session).toBeTruthy();
  });

  it("invites by email", async () => {
    const email = uniqueEmail("invited");
    const { data, error } = await admin().inviteUserByEmail(email, {
      data: { team: "core" },
      redirectTo: "http://localhost:5173/join",
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    const mail = await latestMessage(stack.url, email);
    expect(mail.Subject).toBe("You have been invited");
    expect(mail.Text).toContain("type=invite");
    expect(mail.Text).toContain("next=%2Fjoin");
  });
});
