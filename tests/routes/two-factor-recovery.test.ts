import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { afterCookies, call, createUser, signIn, startRouteStack, type RouteUser } from "./support.ts";
import { claimsOf, enrolThroughPage, type Enrolment } from "./two-factor-support.ts";

/**
 * Issue 22: recovery codes (H3) — ten shown once when the first
 * authenticator app is turned on, one of them signs in on /login/mfa without
 * the phone (the apps are removed and the person sets one up again), new ones
 * replace the old — and re-authentication before the first app (L2).
 */

let stack: TestStack;
let security: typeof import("~/routes/account.security");
let account: typeof import("~/routes/account");
let loginMfa: typeof import("~/routes/login_.mfa");

beforeAll(async () => {
  stack = await startRouteStack();
  // the server removes a lost app with the service role
  process.env.SUPABASE_SERVICE_ROLE_KEY = stack.serviceRoleKey;
  security = await import("~/routes/account.security");
  account = await import("~/routes/account");
  loginMfa = await import("~/routes/login_.mfa");
});
afterAll(() => stack?.close());

/** As if the session had signed in `minutes` ago: its sign-in times are moved back and its token made to refresh. */
async function signedInAgo(user: RouteUser, minutes: number): Promise<RouteUser> {
  await stack.db.query(
    `update auth.mfa_amr_claims set created_at = now() - make_interval(mins => $2), updated_at = now() - make_interval(mins => $2)
     where session_id in (select id from auth.sessions where user_id = $1)`,
    [user.id, minutes],
  );
  // an access token that has run out: the next request refreshes it, and the new one carries the older times
  const pairs = user.cookie.split("; ");
  const auth = pairs.filter((p) => /^sb-.+-auth-token(\.\d+)?=/.test(p));
  auth.sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const name = auth[0].slice(0, auth[0].indexOf("=")).replace(/\.\d+$/, "");
  const raw = auth.map((p) => p.slice(p.indexOf("=") + 1)).join("");
  const session = JSON.parse(Buffer.from(raw.replace(/^base64-/, ""), "base64url").toString("utf8"));
  session.expires_at = Math.floor(Date.now() / 1000) - 10;
  const value = `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`;
  const others = pairs.filter((p) => !auth.includes(p));
  return { ...user, cookie: [...others, `${name}=${value}`].join("; ") };
}

function enroll(user: RouteUser, form: Record<string, string> = {}) {
  return call(security.action, { url: "/account/security", user, params: {}, form: { intent: "enroll", ...form } });
}

describe("the first authenticator app needs the password again (L2)", () => {
  it("after ten minutes: none or a wrong one is refused with the name kept; the right one starts", async () => {
    const person = await createUser(stack, "Stella Stale");
    const stale = await signedInAgo(person, 11);
    const page = await call(security.loader, { url: "/account/security", user: stale, params: {} });
    expect(page.data).toMatchObject({ passwordNeeded: true });
    const user = afterCookies(stale, page);

    const missing = await enroll(user, { friendlyName: "Phone" });
    expect(missing.status).toBe(400);
    expect(missing.data).toMatchObject({
      errors: { password: "Enter your password to turn this on." },
      values: { friendlyName: "Phone" },
    });
    const wrong = await enroll(user, { friendlyName: "Phone", password: "not-the-password" });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ errors: { password: "That password isn't right." } });
    expect((wrong.data as { values: Record<string, string> }).values.password).toBeUndefined();

    const right = await enroll(user, { friendlyName: "Phone", password: person.password });
    expect(right.status).toBe(200);
    expect((right.data as { enrolment: Enrolment }).enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    // the check's own sign-in was ended at once: the person has the one session they had
    const { rows } = await stack.db.query("select 1 from auth.sessions where user_id = $1", [person.id]);
    expect(rows).toHaveLength(1);
  });

  it("within ten minutes of signing in, no password is asked", async () => {
    const person = await createUser(stack, "Fresh Fran");
    const page = await call(security.loader, { url: "/account/security", user: person, params: {} });
    expect(page.data).toMatchObject({ passwordNeeded: false });
    expect((await enroll(person)).status).toBe(200);
  });
});

describe("recovery codes", () => {
  it("one of the codes shown at enrolment signs in without the phone, and two-factor must be set up again", async () => {
    const person = await createUser(stack, "Lou Lostphone");
    const { recoveryCodes } = await enrolThroughPage(security, person);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const aal1 = await signIn(person);
    const recover = (recoveryCode: string) =>
      call(loginMfa.action, {
        url: "/login/mfa?next=%2Fteams",
        user: aal1,
        params: {},
        form: { intent: "recover", recoveryCode, next: "/teams" },
      });
    const wrong = await recover("aaaaa-bbbbb");
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      intent: "recover",
      errors: { recoveryCode: "That isn't one of your unused recovery codes." },
    });
    expect((wrong.data as { values: Record<string, string> }).values.recoveryCode).toBeUndefined();
    expect((await recover("not a code")).data).toMatchObject({
      errors: { recoveryCode: "A recovery code is 10 letters and digits, like abcde-fghjk." },
    });

    const used = await recover(` ${recoveryCodes[3].toUpperCase()} `);
    expect(used.status).toBe(302);
    expect(used.location).toBe("/account/security");
    const recovered = afterCookies(aal1, used);
    expect(claimsOf(recovered)).toMatchObject({ aal: "aal1", app_metadata: { mfa_enrolled: false } });
    expect((await call(account.loader, { url: "/account", user: recovered, params: {} })).status).toBe(200);
    const page = await call(security.loader, { url: "/account/security", user: recovered, params: {} });
    expect(page.data).toMatchObject({ factors: [], codesLeft: null });
    // every code went with the app
    const { rows } = await stack.db.query("select 1 from mfa_recovery_codes where user_id = $1", [person.id]);
    expect(rows).toEqual([]);
  });

  it("new codes replace the old ones", async () => {
    const person = await createUser(stack, "Rene Regenerate");
    const { user, recoveryCodes: old } = await enrolThroughPage(security, person);
    const made = await call(security.action, { url: "/account/security", user, params: {}, form: { intent: "codes" } });
    expect(made.status).toBe(200);
    const fresh = (made.data as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => old.includes(code))).toEqual([]);

    const aal1 = await signIn(person);
    const recover = (recoveryCode: string) =>
      call(loginMfa.action, {
        url: "/login/mfa",
        user: aal1,
        params: {},
        form: { intent: "recover", recoveryCode },
      });
    expect((await recover(old[0])).status).toBe(400);
    expect((await recover(fresh[0])).location).toBe("/account/security");
  });
});
