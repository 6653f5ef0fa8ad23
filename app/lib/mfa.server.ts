import { createClient, type Factor } from "@supabase/supabase-js";
import WebSocket from "ws";
import type { SessionUser } from "./auth.server";
import { describeAuthError, type AuthFailure } from "./auth-errors.server";
import { env } from "./env.server";
import { textResponse } from "./http.server";
import type { SupabaseClient } from "./supabase-types";

/**
 * Two-factor sign-in with an authenticator app (TOTP), through the backend's
 * MFA API on the request's own client: the session in the cookies is the one
 * that enrols, steps up to aal2 and removes. See
 * docs/decisions/0020-two-factor-sign-in.md.
 */

export interface TotpFactor {
  id: string;
  name: string;
  createdAt: string;
}

/** What the person needs to add the app: a QR code (an SVG data URL) and the same secret as text. */
export interface Enrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

const DEFAULT_NAME = "Authenticator app";

/** The account's verified authenticator apps (and the unverified ones, left by an enrolment never confirmed). */
export async function listTotpFactors(
  supabase: SupabaseClient,
): Promise<{ verified: TotpFactor[]; unverified: TotpFactor[] } | AuthFailure> {
  // one round trip (GET /user): the factors are not in the token
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error || !data) return describeAuthError(error);
  const totp = data.all.filter((f: Factor) => f.factor_type === "totp");
  const shape = (f: Factor): TotpFactor => ({
    id: f.id,
    name: f.friendly_name || DEFAULT_NAME,
    createdAt: f.created_at,
  });
  return {
    verified: totp.filter((f) => f.status === "verified").map(shape),
    unverified: totp.filter((f) => f.status !== "verified").map(shape),
  };
}

/**
 * Starts adding an app: drops enrolments that were never confirmed (so a
 * second try doesn't collide with the first's name), then asks for a new
 * secret. Unnamed apps get "Authenticator app", then "… 2", "… 3".
 */
export async function startEnrolment(
  supabase: SupabaseClient,
  requestedName: string | undefined,
  listed?: { verified: TotpFactor[]; unverified: TotpFactor[] },
): Promise<Enrolment | AuthFailure> {
  const factors = listed ?? (await listTotpFactors(supabase));
  if ("status" in factors) return factors;
  for (const stale of factors.unverified) {
    const { error } = await supabase.auth.mfa.unenroll({ factorId: stale.id });
    if (error) return describeAuthError(error);
  }
  const taken = new Set(factors.verified.map((f) => f.name));
  let friendlyName = requestedName || DEFAULT_NAME;
  for (let n = 2; !requestedName && taken.has(friendlyName); n++) friendlyName = `${DEFAULT_NAME} ${n}`;
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName });
  if (error || !data || data.type !== "totp") return describeAuthError(error);
  return { factorId: data.id, qrCode: svgDataUrl(data.totp.qr_code), secret: data.totp.secret };
}

/**
 * auth-js hands the backend's SVG back as `data:image/svg+xml;utf-8,<svg…>`,
 * unescaped; an `<img>` wants the SVG percent-encoded.
 */
export function svgDataUrl(qrCode: string): string {
  const svg = qrCode.startsWith("data:") ? qrCode.slice(qrCode.indexOf(",") + 1) : qrCode;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/**
 * An enrolment shown again after a wrong code comes back from the form's
 * hidden fields; only what the page could have shown is accepted.
 */
export function enrolmentFromForm(form: FormData, factorId: string): Enrolment | null {
  const qrCode = form.get("qrCode");
  const secret = form.get("secret");
  if (typeof qrCode !== "string" || typeof secret !== "string") return null;
  if (!qrCode.startsWith("data:image/svg+xml,") || qrCode.length > 50_000) return null;
  if (!/^[A-Z2-7]{16,128}=*$/.test(secret)) return null;
  return { factorId, qrCode, secret };
}

/**
 * Checks a code against a factor (challenge + verify, one after the other).
 * On success the session is at aal2 and its new cookies go out with the
 * request's answer.
 */
export async function verifyTotp(
  supabase: SupabaseClient,
  factorId: string,
  code: string,
): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  return error ? describeAuthError(error) : null;
}

/** A failure where a page was wanted (a loader's read): its message as a plain page with its status. */
export function failurePage(failure: AuthFailure): Response {
  return textResponse(failure.message, failure.status >= 500 ? failure.status : 500);
}

/** How recent a sign-in must be for the first authenticator app to be added without the password again. */
export const FRESH_SIGN_IN_SECONDS = 10 * 60;

/**
 * Turning on two-factor sign-in changes how the account signs in, so a
 * session that only holds a cookie may not do it alone (issue 22 L2): the
 * first app needs the password again, or a sign-in of the last ten minutes
 * (for accounts that sign in with a link or a provider and have no password).
 * Later apps need the session at aal2, which the backend requires anyway.
 */
export function needsPasswordToEnrol(user: Pick<SessionUser, "signedInAt">, verifiedFactors: number): boolean {
  if (verifiedFactors > 0) return false;
  return user.signedInAt === null || Date.now() / 1000 - user.signedInAt > FRESH_SIGN_IN_SECONDS;
}

/**
 * Checks the account's password with a sign-in of its own (a client that
 * keeps nothing), then ends that extra session at once. The backend's own
 * limits on wrong passwords apply. null when it is right.
 */
export async function checkPassword(email: string, password: string): Promise<AuthFailure | null> {
  const check = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await check.auth.signInWithPassword({ email, password });
  if (error) {
    const failure = describeAuthError(error);
    return failure.code === "invalid_credentials"
      ? { ...failure, field: "password", message: "That password isn't right." }
      : failure;
  }
  await check.auth.signOut({ scope: "local" });
  return null;
}

export async function removeFactor(supabase: SupabaseClient, factorId: string): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  return error ? describeAuthError(error) : null;
}
