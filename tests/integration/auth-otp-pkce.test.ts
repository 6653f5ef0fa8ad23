import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserLikeClient,
  codeIn,
  confirmParams,
  latestMessage,
  messagesTo,
  serverClient,
  uniqueEmail,
} from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PASSWORD = "correct-horse-1";
const APP = "http://localhost:5173";

describe("magic links, email codes and PKCE", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { siteUrl: APP } });
  });
  afterAll(() => stack.close());

  async function confirmedUser(prefix: string) {
    const email = uniqueEmail(prefix);
    const { data } = await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    return { email, id: data.user?.id as string };
  }

  it("signs in with the 6-digit code from the magic link email", async () => {
    const { email, id } = await confirmedUser("code");
    const supabase = serverClient(stack.url, stack.anonKey);
    const sent = await supabase.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(sent.error).toBeNull();
    const mail = await latestMessage(stack.url, email);
    expect(mail.Subject).toBe("Your Magic Link");
    const wrong = await supabase.auth.verifyOtp({ email, token: "000000", type: "email" });
    expect(wrong.error?.code).toBe("otp_expired");
    expect(wrong.error?.message).toBe("Token has expired or is invalid");
    const { data, error } = await supabase.auth.verifyOtp({ email, token: codeIn(mail), type: "email" });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(id);
    expect(data.session?.refresh_token).toBeTruthy();
  });

  it("creates the user on first sign-in unless create_user is false", async () => {
    const supabase = serverClient(stack.url, stack.anonKey);
    const refused = await supabase.auth.signInWithOtp({
      email: uniqueEmail("nouser"),
      options: { shouldCreateUser: false },
    });
    expect(refused.error?.code).toBe("otp_disabled");
    expect(refused.error?.status).toBe(422);

    const email = uniqueEmail("newotp");
    const sent = await supabase.auth.signInWithOtp({ email, options: { data: { display_name: "New" } } });
    expect(sent.error).toBeNull();
    const mail = await latestMessage(stack.url, email);
    expect(mail.Subject).toBe("Confirm Your Signup");
    const { data, error } = await supabase.auth.verifyOtp({ email, token: codeIn(mail), type: "email" });
    expect(error).toBeNull();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.user_metadata.display_name).toBe("New");
  });

  it("round-trips a PKCE magic link: the link redirects with ?code= and the code exchanges for a session", async () => {
    const { email, id } = await confirmedUser("pkce");
    const browser = browserLikeClient(stack.url, stack.anonKey);
    const sent = await browser.auth.signInWithOtp({
      email,
      options: { emailRedirectTo: `${APP}/auth/callback?next=/teams` },
    });
    expect(sent.error).toBeNull();
    const mail = await latestMessage(stack.url, email);
    const { tokenHash } = confirmParams(mail);
    expect(tokenHash.startsWith("pkce_")).toBe(true);

    const res = await fetch(
      `${stack.url}/auth/v1/verify?token=${tokenHash}&type=magiclink&redirect_to=${encodeURIComponent(`${APP}/auth/callback?next=/teams`)}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.pathname).toBe("/auth/callback");
    expect(location.searchParams.get("next")).toBe("/teams");
    const code = location.searchParams.get("code") ?? "";
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const { data, error } = await browser.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.id).toBe(id);
    const claims = JSON.parse(Buffer.from(data.session!.access_token.split(".")[1], "base64url").toString()) as {
      amr: { method: string }[];
    };
    expect(claims.amr[0].method).toBe("magiclink");

    const reused = await browserLikeClient(stack.url, stack.anonKey).auth.exchangeCodeForSession(code);
    expect(reused.error).not.toBeNull();
    const raw = await fetch(`${stack.url}/auth/v1/token?grant_type=pkce`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ auth_code: code, code_verifier: "x".repeat(43) }),
    });
    expect(raw.status).toBe(404);
    expect(await raw.json()).toEqual({
      code: "flow_state_not_found",
      message: "invalid flow state, no valid flow state found",
    });
  });

  it("refuses a code with the wrong verifier and an expired code", async () => {
    const { email } = await confirmedUser("verifier");
    const browser = browserLikeClient(stack.url, stack.anonKey);
    await browser.auth.signInWithOtp({ email });
    const { tokenHash } = confirmParams(await latestMessage(stack.url, email));
    const res = await fetch(
      `${stack.url}/auth/v1/verify?token=${tokenHash}&type=magiclink&redirect_to=${encodeURIComponent(APP)}`,
      {
        redirect: "manual",
      },
    );
    const code = new URL(res.headers.get("location") ?? "").searchParams.get("code") ?? "";
    const exchange = (verifier: string) =>
      fetch(`${stack.url}/auth/v1/token?grant_type=pkce`, {
        method: "POST",
        headers: { apikey: stack.anonKey, "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
        body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
      });
    const wrong = await exchange("a".repeat(50));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      code: "bad_code_verifier",
      message: "code challenge does not match previously saved code verifier",
    });

    // The flow state lives flowStateExpiry (300 s) after the code was issued.
    await stack.db.query(
      "update auth.flow_state set auth_code_issued_at = now() - interval '301 seconds' where auth_code = $1",
      [code],
    );
    const { error } = await browser.auth.exchangeCodeForSession(code);
    expect(error?.code).toBe("flow_state_expired");
    expect(error?.status).toBe(422);
  });

  it("sends PKCE sign-up links whose code confirms and signs in, and errors land in query and fragment", async () => {
    const email = uniqueEmail("pkcesignup");
    const browser = browserLikeClient(stack.url, stack.anonKey);
    await browser.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${APP}/auth/callback` } });
    const { tokenHash } = confirmParams(await latestMessage(stack.url, email));
    const link = `${stack.url}/auth/v1/verify?token=${tokenHash}&type=signup&redirect_to=${encodeURIComponent(`${APP}/auth/callback`)}`;
    const res = await fetch(link, { redirect: "manual" });
    const code = new URL(res.headers.get("location") ?? "").searchParams.get("code") ?? "";
    const { data, error } = await browser.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email_confirmed_at).toBeTruthy();

    const again = await fetch(link, { redirect: "manual" });
    const failed = new URL(again.headers.get("location") ?? "");
    expect(failed.searchParams.get("error_code")).toBe("otp_expired");
    expect(new URLSearchParams(failed.hash.slice(1)).get("error_code")).toBe("otp_expired");
  });

  it("a PKCE sign-up's 6-digit code confirms and signs in from another client, as type email or signup", async () => {
    for (const type of ["email", "signup"] as const) {
      const email = uniqueEmail(`pkcecode-${type}`);
      const browser = browserLikeClient(stack.url, stack.anonKey);
      await browser.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${APP}/auth/callback` } });
      const mail = await latestMessage(stack.url, email);
      expect(mail.Subject).toBe("Confirm Your Signup");
      // another device: no code verifier, only the address and the code
      const elsewhere = serverClient(stack.url, stack.anonKey);
      const wrong = await elsewhere.auth.verifyOtp({ email, token: "000000", type });
      expect(wrong.error?.code).toBe("otp_expired");
      const { data, error } = await elsewhere.auth.verifyOtp({ email, token: codeIn(mail), type });
      expect(error).toBeNull();
      expect(data.user?.email_confirmed_at).toBeTruthy();
      expect(data.session?.refresh_token).toBeTruthy();
      // used once
      const again = await elsewhere.auth.verifyOtp({ email, token: codeIn(mail), type });
      expect(again.error?.code).toBe("otp_expired");
    }
  });

  it("recovers a password through a PKCE recovery link and signs in with the new one", async () => {
    const { email } = await confirmedUser("recover");
    const browser = browserLikeClient(stack.url, stack.anonKey);
    const { error: sendError } = await browser.auth.resetPasswordForEmail(email, {
      redirectTo: `${APP}/reset-password`,
    });
    expect(sendError).toBeNull();
    const mail = await latestMessage(stack.url, email);
    expect(mail.Subject).toBe("Reset Your Password");
    const { tokenHash, type, next } = confirmParams(mail);
    expect(type).toBe("recovery");
    expect(next).toBe("/reset-password");

    const verified = await browser.auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
    expect(verified.error).toBeNull();
    const updated = await browser.auth.updateUser({ password: "brand-new-pass-2" });
    expect(updated.error).toBeNull();
    const old = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({ email, password: PASSWORD });
    expect(old.error?.code).toBe("invalid_credentials");
    const fresh = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({
      email,
      password: "brand-new-pass-2",
    });
    expect(fresh.error).toBeNull();

    const unknown = await browser.auth.resetPasswordForEmail(uniqueEmail("ghost"));
    expect(unknown.error).toBeNull();
  });

  it("secure email change (the default, as hosted): both addresses confirm, each with its own link or code", async () => {
    const { email } = await confirmedUser("secure");
    const supabase = serverClient(stack.url, stack.anonKey);
    await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const newEmail = uniqueEmail("securenew");
    expect((await supabase.auth.updateUser({ email: newEmail })).error).toBeNull();
    const toCurrent = await latestMessage(stack.url, email);
    const toNew = await latestMessage(stack.url, newEmail);
    expect(toCurrent.Subject).toBe("Confirm Email Change");
    expect(toNew.Subject).toBe("Confirm Email Change");
    const current = confirmParams(toCurrent).tokenHash;
    expect(current).not.toBe(confirmParams(toNew).tokenHash);

    // the first link: accepted, GoTrue's message, no session, the address not changed yet
    const first = await fetch(`${stack.url}/auth/v1/verify`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ type: "email_change", token_hash: current }),
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      msg: "Confirmation link accepted. Please proceed to confirm link sent to the other email",
      code: "200",
    });
    const again = await supabase.auth.verifyOtp({ token_hash: current, type: "email_change" });
    expect(again.error?.code).toBe("otp_expired");
    expect((await supabase.auth.getUser()).data.user?.email).toBe(email);

    // the second, by the code in the new address's email: done
    const second = await supabase.auth.verifyOtp({ email: newEmail, token: codeIn(toNew), type: "email_change" });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(newEmail);
    expect(second.data.session).toBeTruthy();
  });

  it("secure email change by links in a browser: the first link comes back with the message, the second signs in", async () => {
    const { email } = await confirmedUser("securelink");
    const supabase = serverClient(stack.url, stack.anonKey);
    await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const newEmail = uniqueEmail("securelinknew");
    await supabase.auth.updateUser({ email: newEmail }, { emailRedirectTo: `${APP}/account/email` });
    // GoTrue's own link (ConfirmationURL) for the token in each email
    const linkOf = async (to: string) =>
      `${stack.url}/auth/v1/verify?${new URLSearchParams({
        token: confirmParams(await latestMessage(stack.url, to)).tokenHash,
        type: "email_change",
        redirect_to: `${APP}/account/email`,
      })}`;
    const newLink = await linkOf(newEmail);
    const first = await fetch(newLink, { redirect: "manual" });
    expect(first.status).toBe(303);
    const back = new URL(first.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(`${APP}/account/email`);
    expect(new URLSearchParams(back.hash.slice(1)).get("message")).toBe(
      "Confirmation link accepted. Please proceed to confirm link sent to the other email",
    );
    const second = await fetch(await linkOf(email), { redirect: "manual" });
    const done = new URLSearchParams(new URL(second.headers.get("location") ?? "").hash.slice(1));
    expect(done.get("access_token")).toBeTruthy();
    expect((await supabase.auth.getUser(done.get("access_token")!)).data.user?.email).toBe(newEmail);
  });

  it("with secure email change off, only the new address confirms and the address switches on its link", async () => {
    const single = await startTestStack({ auth: { siteUrl: APP, secureEmailChange: false } });
    try {
      await singleConfirmation(single);
    } finally {
      await single.close();
    }
  }, 90_000);

  async function singleConfirmation(stack: TestStack) {
    const email = uniqueEmail("change");
    await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    const supabase = serverClient(stack.url, stack.anonKey);
    await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    const newEmail = uniqueEmail("changed");
    const { data, error } = await supabase.auth.updateUser({ email: newEmail, data: { display_name: "Changed" } });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.new_email).toBe(newEmail);
    expect(data.user?.user_metadata.display_name).toBe("Changed");
    expect(await messagesTo(stack.url, email)).toHaveLength(0);
    const mail = await latestMessage(stack.url, newEmail);
    expect(mail.Subject).toBe("Confirm Email Change");
    const { tokenHash, type } = confirmParams(mail);
    expect(type).toBe("email_change");
    const verified = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: "email_change" });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(newEmail);
    const signIn = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({
      email: newEmail,
      password: PASSWORD,
    });
    expect(signIn.error).toBeNull();
    // with one confirmation there is no link for the current address to generate
    const current = await serverClient(stack.url, stack.serviceRoleKey).auth.admin.generateLink({
      type: "email_change_current",
      email: newEmail,
      newEmail: uniqueEmail("again"),
    });
    expect(current.error?.status).toBe(400);
    expect(current.error?.code).toBe("validation_failed");
    expect(current.error?.message).toBe("Enable secure email change to generate link for current email");
  }
});
