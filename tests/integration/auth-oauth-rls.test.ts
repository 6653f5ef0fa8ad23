import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserLikeClient, serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

const APP = "http://localhost:5173";

describe("sign-in with the local OAuth provider", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ auth: { siteUrl: APP } });
  });
  afterAll(() => stack.close());

  /** What a person does in the browser: open the URL, submit the consent form, land back on the app. */
  async function consent(authorizeUrl: string, email: string, name = "") {
    const toConsent = await fetch(authorizeUrl, { redirect: "manual" });
    expect(toConsent.status).toBe(302);
    const consentUrl = toConsent.headers.get("location") ?? "";
    expect(consentUrl).toContain("/auth/v1/local-provider/consent?state=");
    const page = await fetch(consentUrl);
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/auth/v1/local-provider/consent">');
    // on by default here (the site URL is local), and it says what it is
    expect(html).toContain("<strong>Development only.</strong>");
    expect(html).toContain("signs in as any\naddress you type, with no password");
    const state = /name="state" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const submitted = await fetch(`${stack.url}/auth/v1/local-provider/consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ state, email, name }),
      redirect: "manual",
    });
    expect(submitted.status).toBe(302);
    return new URL(submitted.headers.get("location") ?? "");
  }

  it("round-trips signInWithOAuth + exchangeCodeForSession offline (PKCE)", async () => {
    const browser = browserLikeClient(stack.url, stack.anonKey);
    const { data, error } = await browser.auth.signInWithOAuth({
      provider: "local" as "github",
      options: { redirectTo: `${APP}/auth/callback?next=/teams`, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const email = uniqueEmail("oauth");
    const back = await consent(data.url!, email, "Olive Auth");
    expect(`${back.origin}${back.pathname}`).toBe(`${APP}/auth/callback`);
    expect(back.searchParams.get("next")).toBe("/teams");
    const code = back.searchParams.get("code") ?? "";
    const session = await browser.auth.exchangeCodeForSession(code);
    expect(session.error).toBeNull();
    expect(session.data.user?.email).toBe(email);
    expect(session.data.user?.email_confirmed_at).toBeTruthy();
    expect(session.data.user?.app_metadata.provider).toBe("local");
    expect(session.data.user?.identities?.[0]).toMatchObject({ provider: "local" });
    expect(session.data.user?.user_metadata.full_name).toBe("Olive Auth");

    // Signing in again with the same email finds the same user.
    const again = browserLikeClient(stack.url, stack.anonKey);
    const second = await again.auth.signInWithOAuth({
      provider: "local" as "github",
      options: { redirectTo: APP, skipBrowserRedirect: true },
    });
    const code2 = (await consent(second.data.url!, email)).searchParams.get("code") ?? "";
    const s2 = await again.auth.exchangeCodeForSession(code2);
    expect(s2.data.user?.id).toBe(session.data.user?.id);
  });

  it("links the local identity to an existing email user, and returns tokens in the fragment without PKCE", async () => {
    const email = uniqueEmail("linked");
    const created = await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: "correct-horse-1",
      email_confirm: true,
    });
    const back = await consent(
      `${stack.url}/auth/v1/authorize?provider=local&redirect_to=${encodeURIComponent(`${APP}/done`)}`,
      email,
    );
    expect(back.pathname).toBe("/done");
    const fragment = new URLSearchParams(back.hash.slice(1));
    const { data } = await serverClient(stack.url, stack.anonKey).auth.getUser(fragment.get("access_token") ?? "");
    expect(data.user?.id).toBe(created.data.user?.id);
    expect(data.user?.app_metadata.providers).toEqual(expect.arrayContaining(["email", "local"]));
  });

  it("rejects unknown providers and forged state", async () => {
    const res = await fetch(`${stack.url}/auth/v1/authorize?provider=myspace`, {
      headers: { "x-supabase-api-version": "2024-01-01" },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("validation_failed");
    const forged = await fetch(`${stack.url}/auth/v1/local-provider/consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ state: "forged", email: uniqueEmail() }),
      redirect: "manual",
    });
    expect(forged.status).toBe(400);
  });
});

describe("the local provider is for development only", () => {
  it("is off when the site URL is not on this machine, unless a setting turns it on", async () => {
    const stack = await startTestStack({ auth: { siteUrl: "https://teamboard.example.com" } });
    try {
      const settings = await (
        await fetch(`${stack.url}/auth/v1/settings`, { headers: { apikey: stack.anonKey } })
      ).json();
      expect(settings.external.local).toBe(false);
      const authorize = await fetch(`${stack.url}/auth/v1/authorize?provider=local`, {
        headers: { "x-supabase-api-version": "2024-01-01" },
        redirect: "manual",
      });
      expect(authorize.status).toBe(400);
      expect(await authorize.json()).toMatchObject({
        code: "validation_failed",
        message: "Unsupported provider: provider local could not be found",
      });
      // the consent form can't be used either, even with a state signed while it was on
      for (const method of ["GET", "POST"]) {
        const consent = await fetch(`${stack.url}/auth/v1/local-provider/consent?state=x`, {
          method,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: method === "POST" ? new URLSearchParams({ state: "x", email: uniqueEmail() }) : undefined,
          redirect: "manual",
        });
        expect(consent.status).toBe(400);
      }
    } finally {
      await stack.close();
    }
    const forced = await startTestStack({ auth: { siteUrl: "https://teamboard.example.com", localProvider: true } });
    try {
      const toConsent = await fetch(`${forced.url}/auth/v1/authorize?provider=local`, { redirect: "manual" });
      expect(toConsent.status).toBe(302);
      expect(toConsent.headers.get("location")).toContain("/auth/v1/local-provider/consent?state=");
    } finally {
      await forced.close();
    }
    // two stack starts: slow only on a crowded machine
  }, 90_000);
});

describe("row-level security with real access tokens", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
    await stack.db.exec(`
      create table public.auth_notes (id serial primary key, owner uuid not null default auth.uid(), body text not null);
      alter table public.auth_notes enable row level security;
      create policy "own notes" on public.auth_notes for all to authenticated
        using (owner = auth.uid()) with check (owner = auth.uid());
    `);
  });
  afterAll(() => stack.close());

  /** The claims PostgREST would put in request.jwt.claims for this token, after verifying it. */
  async function claimsOf(token: string) {
    return (await stack.keys.verify(token)) as Record<string, unknown> & { role: string; sub: string };
  }

  async function signIn() {
    const email = uniqueEmail("rls");
    await serverClient(stack.url, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password: "correct-horse-1",
      email_confirm: true,
    });
    const { data } = await serverClient(stack.url, stack.anonKey).auth.signInWithPassword({
      email,
      password: "correct-horse-1",
    });
    return claimsOf(data.session!.access_token);
  }

  it("shows each user only their rows and anon nothing", async () => {
    const alice = await signIn();
    const bob = await signIn();
    const as =
      (claims: Record<string, unknown> & { role: string }) =>
      (sql: string, params: unknown[] = []) =>
        stack.db.asRequest({ role: claims.role, claims }, (tx) => tx.query<{ body: string }>(sql, params));

    await as(alice)("insert into auth_notes (body) values ('alice private')");
    await as(bob)("insert into auth_notes (body) values ('bob private')");
    expect((await as(alice)("select body from auth_notes")).rows).toEqual([{ body: "alice private" }]);
    expect((await as(bob)("select body from auth_notes")).rows).toEqual([{ body: "bob private" }]);
    expect((await as(await claimsOf(stack.anonKey))("select body from auth_notes")).rows).toEqual([]);

    await expect(as(bob)("insert into auth_notes (owner, body) values ($1, 'forged')", [alice.sub])).rejects.toThrow(
      /row-level security/,
    );
    const updated = await as(bob)("update auth_notes set body = 'hijacked' where owner = $1", [alice.sub]);
    expect(updated.rowCount).toBe(0);
  });
});
