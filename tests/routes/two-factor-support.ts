import { expect } from "vitest";
import { totp } from "../support/totp.ts";
import { afterCookies, call, type RouteUser } from "./support.ts";

/** Helpers of the two-factor route tests (tests/routes/two-factor*.test.ts). */
export interface Enrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

/** The claims of the session in a cookie jar (the app's chunked base64 cookie). */
export function claimsOf(user: RouteUser): Record<string, unknown> {
  const pairs = user.cookie.split("; ").filter((p) => /^sb-.+-auth-token(\.\d+)?=/.test(p));
  pairs.sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const raw = pairs.map((p) => p.slice(p.indexOf("=") + 1)).join("");
  const session = JSON.parse(Buffer.from(raw.replace(/^base64-/, ""), "base64url").toString("utf8")) as {
    access_token: string;
  };
  return JSON.parse(Buffer.from(session.access_token.split(".")[1], "base64url").toString("utf8"));
}

/**
 * Enrols an authenticator app through /account/security (a fresh sign-in, so no password is asked) and
 * returns the browser (now at aal2), the secret, and the recovery codes the page showed.
 */
export async function enrolThroughPage(
  security: typeof import("~/routes/account.security"),
  user: RouteUser,
): Promise<{ user: RouteUser; secret: string; factorId: string; recoveryCodes: string[] }> {
  const started = await call(security.action, {
    url: "/account/security",
    user,
    params: {},
    form: { intent: "enroll", friendlyName: "Work phone" },
  });
  expect(started.status).toBe(200);
  const { enrolment } = started.data as { enrolment: Enrolment };
  const confirmed = await call(security.action, {
    url: "/account/security",
    user,
    params: {},
    form: { intent: "confirm", ...enrolment, code: totp(enrolment.secret) },
  });
  // the first app comes with ten recovery codes, shown on the page once
  expect(confirmed.status).toBe(200);
  const { recoveryCodes } = confirmed.data as { recoveryCodes: string[] };
  expect(recoveryCodes).toHaveLength(10);
  return { user: afterCookies(user, confirmed), secret: enrolment.secret, factorId: enrolment.factorId, recoveryCodes };
}
