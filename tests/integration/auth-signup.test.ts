import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  confirmParams,
  latestMessage,
  linksIn,
  messagesTo,
  serverClient,
  uniqueEmail,
} from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";

describe("sign-up, confirmation and password sign-in", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { siteUrl: "http://localhost:5173" } });
  });
  afterAll(() => stack.close());

  it("sends a confirmation email linking to the app, and the token_hash from it signs the user in", async () => {
    const supabase = serverClient(stack.url, stack.anonKey);
    const email = uniqueEmail("signup");
    const { data, error } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { display_name: "Ada" }, emailRedirectTo: "http://localhost:5173/teams?tab=mine" },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toMatchObject({ display_name: "Ada" });
    expect(data.user?.email_confirmed_at).toBeUndefined();

    const signInBefore = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signInBefore.error?.code).toBe("email_not_confirmed");
    expect(signInBefore.error?.status).toBe(400);

    const mail = await latestMessage(stack.url, email);
    expect(mail.Subject).toBe("Confirm Your Signup");
    const { tokenHash, type, next } = confirmParams(mail);
    expect(linksIn(mail)[0].startsWith("http://localhost:5173/auth/confirm?token_hash=")).toBe(true);
    expect(type).toBe("email");
    expect(next).toBe("/teams?tab=mine");
    expect(mail.Text).toMatch(/code: \d{6}/);

    const verified = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: "email" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.access_token).toBeTruthy();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
    expect(verified.data.user?.user_metadata).toMatchObject({ display_name: "Ada", email_verified: true });

    const again = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: "email" });
    expect(again.error?.code).toBe("otp_expired");
    expect(again.error?.status).toBe(403);

    const signIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    expect(signIn.data.session?.token_type).toBe("bearer");
    expect(signIn.data.user?.id).toBe(verified.data.user?.id);
  });

  it("confirms through the GET /verify link with tokens in the fragment (implicit flow)", async () => {
    const email = uniqueEmail("link");
    const res = await fetch(
      `${stack.url}/auth/v1/signup?redirect_to=${encodeURIComponent("http://localhost:5173/welcome")}`,
      {
        method: "POST",
        headers: { apikey: stack.anonKey, "content-type": "application/json" },
        body: JSON.stringify({ email, password: PASSWORD }),
      },
    );
    expect(res.status).toBe(200);
    const mail = await latestMessage(stack.url, email);
    const { tokenHash } = confirmParams(mail);
    const verifyUrl = `${stack.url}/auth/v1/verify?token=${tokenHash}&type=signup&redirect_to=${encodeURIComponent("http://localhost:5173/welcome")}`;
    const redirect = await fetch(verifyUrl, { redirect: "manual" });
    expect(redirect.status).toBe(303);
    const location = new URL(redirect.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe("http://localhost:5173/welcome");
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get("access_token")).toBeTruthy();
    expect(fragment.get("refresh_token")).toBeTruthy();
    expect(fragment.get("type")).toBe("signup");
    expect(fragment.get("token_type")).toBe("bearer");

    const { data } = await serverClient(stack.url, stack.anonKey).auth.getUser(fragment.get("access_token") ?? "");
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeTruthy();

    const reused = await fetch(verifyUrl, { redirect: "manual" });
    expect(reused.status).toBe(303);
    const failed = new URL(reused.headers.get("location") ?? "");
    const errorParams = new URLSearchParams(failed.hash.slice(1));
    expect(errorParams.get("error")).toBe("access_denied");
    expect(errorParams.get("error_code")).toBe("otp_expired");
    expect(errorParams.get("error_description")).toBe("Email link is invalid or has expired");
  });

  it("falls back to the site URL when redirect_to is not allowed", async () => {
    const email = uniqueEmail("evil");
    await serverClient(stack.url, stack.anonKey).auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: "https://evil.example/steal" },
    });
    const mail = await latestMessage(stack.url, email);
    expect(mail.Text).not.toContain("evil.example");
    expect(confirmParams(mail).next).toBe("/");
  });

  it("answers a sign-up for a confirmed address like a new one, without a session or an email", async () => {
    const email = uniqueEmail("taken");
    const admin = serverClient(stack.url, stack.serviceRoleKey);
    const created = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect(created.error).toBeNull();
    const res = await fetch(`${stack.url}/auth/v1/signup`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email, password: "another-pass-2", data: { a: 1 } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.id).not.toBe(created.data.user?.id);
    expect(body.email).toBe(email);
    expect(body.identities).toEqual([]);
    expect(body.user_metadata).toEqual({ a: 1 });
    expect(body).not.toHaveProperty("access_token");
    expect(body).not.toHaveProperty("email_confirmed_at");
    expect(await messagesTo(stack.url, email)).toHaveLength(0);
  });

  it("rejects weak passwords with reasons, and wrong passwords with invalid_credentials", async () => {
    const supabase = serverClient(stack.url, stack.anonKey);
    const weak = await supabase.auth.signUp({ email: uniqueEmail("weak"), password: "short" });
    expect(weak.error?.code).toBe("weak_password");
    expect(weak.error?.status).toBe(422);
    expect((weak.error as unknown as { reasons: string[] }).reasons).toEqual(["length", "characters"]);
    const letters = await supabase.auth.signUp({ email: uniqueEmail("weak"), password: "onlyletters" });
    expect((letters.error as unknown as { reasons: string[] }).reasons).toEqual(["characters"]);

    const email = uniqueEmail("wrong");
    await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    const wrong = await supabase.auth.signInWithPassword({ email, password: "not-the-password-9" });
    expect(wrong.error?.code).toBe("invalid_credentials");
    expect(wrong.error?.message).toBe("Invalid login credentials");
    const nobody = await supabase.auth.signInWithPassword({ email: uniqueEmail("nobody"), password: PASSWORD });
    expect(nobody.error?.code).toBe("invalid_credentials");
  });

  it("resends the confirmation email for an unconfirmed address", async () => {
    const email = uniqueEmail("resend");
    const supabase = serverClient(stack.url, stack.anonKey);
    await supabase.auth.signUp({ email, password: PASSWORD });
    await stack.db.query("update auth.users set confirmation_sent_at = now() - interval '2 minutes' where email = $1", [
      email,
    ]);
    const { error } = await supabase.auth.resend({ type: "signup", email });
    expect(error).toBeNull();
    const mails = await messagesTo(stack.url, email);
    expect(mails).toHaveLength(2);
    const newest = confirmParams(mails[0]).tokenHash;
    expect(newest).not.toBe(confirmParams(mails[1]).tokenHash);
    const stale = await supabase.auth.verifyOtp({ token_hash: confirmParams(mails[1]).tokenHash, type: "email" });
    expect(stale.error?.code).toBe("otp_expired");
    const fresh = await supabase.auth.verifyOtp({ token_hash: newest, type: "email" });
    expect(fresh.error).toBeNull();
  });
});

describe("sign-up with autoconfirm", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { autoconfirm: true } });
  });
  afterAll(() => stack.close());

  it("returns a session at once, sends no email, and reports user_already_exists for a second sign-up", async () => {
    const email = uniqueEmail("auto");
    const supabase = serverClient(stack.url, stack.anonKey);
    const first = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(first.error).toBeNull();
    expect(first.data.session?.access_token).toBeTruthy();
    expect(first.data.user?.email_confirmed_at).toBeTruthy();
    expect(await messagesTo(stack.url, email)).toHaveLength(0);
    const second = await supabase.auth.signUp({ email, password: PASSWORD });
    expect(second.error?.code).toBe("user_already_exists");
    expect(second.error?.status).toBe(422);
  });
});
