import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { hotpAt, nextTotp, totp, wrongTotp } from "../support/totp.ts";
import { afterCookies, call, createUser, signIn, startRouteStack } from "./support.ts";
import { claimsOf, enrolThroughPage, type Enrolment } from "./two-factor-support.ts";

/**
 * Two-factor sign-in (issue 12 §4): enrolling on /account/security, the aal
 * decision every signed-in page makes (requireUser), and /login/mfa.
 */

let stack: TestStack;
let security: typeof import("~/routes/account.security");
let account: typeof import("~/routes/account");
let teams: typeof import("~/routes/teams._index");
let loginMfa: typeof import("~/routes/login_.mfa");
let auth: typeof import("~/lib/auth.server");

beforeAll(async () => {
  stack = await startRouteStack();
  security = await import("~/routes/account.security");
  account = await import("~/routes/account");
  teams = await import("~/routes/teams._index");
  loginMfa = await import("~/routes/login_.mfa");
  auth = await import("~/lib/auth.server");
});
afterAll(() => stack?.close());

/** Backend requests served while `work` ran, as "METHOD /path" lines. */
async function backendRequests(work: () => Promise<unknown>): Promise<string[]> {
  const headers = { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` };
  await fetch(`${stack.url}/_stack/requests`, { method: "DELETE", headers });
  await work();
  const served = (await (await fetch(`${stack.url}/_stack/requests`, { headers })).json()) as Array<{
    method: string;
    path: string;
  }>;
  return served.map((r) => `${r.method} ${r.path}`);
}

describe("the TOTP helper the tests use", () => {
  it("gives RFC 6238's SHA-1 test values", () => {
    const key = Buffer.from("12345678901234567890");
    expect(hotpAt(key, 59_000, 8)).toBe("94287082");
    expect(hotpAt(key, 1_111_111_109_000, 8)).toBe("07081804");
    expect(hotpAt(key, 20_000_000_000_000, 8)).toBe("65353130");
  });
});

describe("needsSecondFactor (the aal decision)", () => {
  it("asks for a code only when the account has a verified factor and the session is at aal1", () => {
    expect(auth.needsSecondFactor({ aal: "aal1", mfaEnrolled: false })).toBe(false);
    expect(auth.needsSecondFactor({ aal: "aal1", mfaEnrolled: true })).toBe(true);
    expect(auth.needsSecondFactor({ aal: "aal2", mfaEnrolled: true })).toBe(false);
    // a session stepped up before its last app was removed stays fine
    expect(auth.needsSecondFactor({ aal: "aal2", mfaEnrolled: false })).toBe(false);
  });

  it("sends to /login/mfa with the page as next", () => {
    expect(auth.secondFactorUrl("/teams/acme?tab=1")).toBe("/login/mfa?next=%2Fteams%2Facme%3Ftab%3D1");
    expect(auth.secondFactorUrl("/")).toBe("/login/mfa");
  });
});

describe("two-factor sign-in", () => {
  it("enrols with a code, then asks every new session for one before account and team pages", async () => {
    const first = await createUser(stack, "Tess Totp");
    expect(claimsOf(first)).toMatchObject({ aal: "aal1" });

    // a wrong code keeps the QR code and the secret on the page
    const started = await call(security.action, {
      url: "/account/security",
      user: first,
      params: {},
      form: { intent: "enroll" },
    });
    const { enrolment } = started.data as { enrolment: Enrolment };
    expect(enrolment.qrCode).toMatch(/^data:image\/svg\+xml,%3Csvg/);
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = await call(security.action, {
      url: "/account/security",
      user: first,
      params: {},
      form: { intent: "confirm", ...enrolment, code: wrongTotp(enrolment.secret) },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      intent: "confirm",
      errors: { code: "That code isn't right. Enter the 6-digit code your authenticator app shows now." },
      enrolment,
    });
    expect((wrong.data as { values: Record<string, string> }).values.code).toBeUndefined();
    const right = await call(security.action, {
      url: "/account/security",
      user: first,
      params: {},
      form: { intent: "confirm", ...enrolment, code: totp(enrolment.secret) },
    });
    expect(right.status).toBe(200);
    const stepped = afterCookies(first, right);
    expect(claimsOf(stepped)).toMatchObject({ aal: "aal2", app_metadata: { mfa_enrolled: true } });
    const listed = await call(security.loader, { url: "/account/security", user: stepped, params: {} });
    expect(listed.data).toMatchObject({
      factors: [{ id: enrolment.factorId, name: "Authenticator app" }],
      codesLeft: 10,
      passwordNeeded: false,
    });

    // a new sign-in is at aal1: account and team pages send it to /login/mfa
    const again = await signIn(first);
    expect(claimsOf(again)).toMatchObject({ aal: "aal1", app_metadata: { mfa_enrolled: true } });
    const accountPage = await call(account.loader, { url: "/account/email", user: again, params: {} });
    expect(accountPage.location).toBe("/login/mfa?next=%2Faccount%2Femail");
    const teamsPage = await call(teams.loader, { url: "/teams", user: again, params: {} });
    expect(teamsPage.location).toBe("/login/mfa?next=%2Fteams");

    const asked = await call(loginMfa.loader, { url: "/login/mfa?next=%2Faccount%2Femail", user: again, params: {} });
    expect(asked.status).toBe(200);
    expect(asked.data).toMatchObject({ next: "/account/email", factors: [{ id: enrolment.factorId }] });

    const refused = await call(loginMfa.action, {
      url: "/login/mfa",
      user: again,
      params: {},
      form: { factorId: enrolment.factorId, code: wrongTotp(enrolment.secret), next: "/account/email" },
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      errors: { code: "That code isn't right. Enter the 6-digit code your authenticator app shows now." },
    });

    const unsafe = await call(loginMfa.action, {
      url: "/login/mfa",
      user: again,
      params: {},
      // the code the app shows now enrolled the app; a code works once, so the next one
      form: { factorId: enrolment.factorId, code: nextTotp(enrolment.secret), next: "//evil.example" },
    });
    expect(unsafe.status).toBe(302);
    expect(unsafe.location).toBe("/teams");
    const through = afterCookies(again, unsafe);
    expect(claimsOf(through)).toMatchObject({ aal: "aal2" });
    expect((await call(account.loader, { url: "/account", user: through, params: {} })).status).toBe(200);
    // nothing left to ask: /login/mfa goes straight on
    const done = await call(loginMfa.loader, { url: "/login/mfa?next=%2Faccount", user: through, params: {} });
    expect(done.location).toBe("/account");
  });

  it("removing the last app turns it off for new sessions", async () => {
    const person = await createUser(stack, "Rita Remove");
    const { user, factorId } = await enrolThroughPage(security, person);
    const removed = await call(security.action, {
      url: "/account/security",
      user,
      params: {},
      form: { intent: "remove", factorId },
    });
    expect(removed.status).toBe(302);
    const fresh = await signIn(person);
    expect(claimsOf(fresh)).toMatchObject({ aal: "aal1", app_metadata: { mfa_enrolled: false } });
    expect((await call(account.loader, { url: "/account", user: fresh, params: {} })).status).toBe(200);
  });

  it("an aal1 session can't remove a verified app", async () => {
    const person = await createUser(stack, "Ari Aal1");
    const { factorId } = await enrolThroughPage(security, person);
    const aal1 = await signIn(person);
    const attempt = await call(security.action, {
      url: "/account/security",
      user: aal1,
      params: {},
      form: { intent: "remove", factorId },
    });
    expect(attempt.location).toBe("/login/mfa?next=%2Faccount%2Fsecurity");
  });

  it("decides aal from the token: a page makes the same backend requests with or without two factors", async () => {
    const plain = await createUser(stack, "Pat Plain");
    const { user: enrolled } = await enrolThroughPage(security, await createUser(stack, "Eve Enrolled"));
    const plainCalls = await backendRequests(() => call(account.loader, { url: "/account", user: plain, params: {} }));
    const enrolledCalls = await backendRequests(async () => {
      const page = await call(account.loader, { url: "/account", user: enrolled, params: {} });
      expect(page.status).toBe(200);
    });
    expect(enrolledCalls).toEqual(plainCalls);
    // and the redirect to /login/mfa costs no request of its own
    const aal1 = await signIn({ ...enrolled, email: enrolled.email });
    const redirectCalls = await backendRequests(() =>
      call(account.loader, { url: "/account", user: aal1, params: {} }),
    );
    expect(redirectCalls).toEqual(plainCalls);
    expect(redirectCalls.filter((line) => line.includes("/auth/v1/user"))).toEqual([]);
  });

  it("an unconfirmed enrolment doesn't turn anything on, and a second start replaces it", async () => {
    const person = await createUser(stack, "Una Unconfirmed");
    const start = () =>
      call(security.action, { url: "/account/security", user: person, params: {}, form: { intent: "enroll" } });
    const one = (await start()).data as { enrolment: Enrolment };
    const two = (await start()).data as { enrolment: Enrolment };
    expect(two.enrolment.factorId).not.toBe(one.enrolment.factorId);
    const fresh = await signIn(person);
    expect(claimsOf(fresh).app_metadata).not.toMatchObject({ mfa_enrolled: true });
    expect((await call(account.loader, { url: "/account", user: fresh, params: {} })).status).toBe(200);
    const page = await call(security.loader, { url: "/account/security", user: fresh, params: {} });
    expect(page.data).toEqual({ factors: [], codesLeft: null, passwordNeeded: false, log: [] });
  });

  it("sends a session that needs no code straight on from /login/mfa", async () => {
    const person = await createUser(stack, "Nat Nocode");
    const answer = await call(loginMfa.action, {
      url: "/login/mfa",
      user: person,
      params: {},
      form: { factorId: crypto.randomUUID(), code: "12ab" },
    });
    expect(answer.location).toBe("/teams");
    const page = await call(loginMfa.loader, { url: "/login/mfa?next=%2Faccount", user: person, params: {} });
    expect(page.location).toBe("/account");
  });
});
