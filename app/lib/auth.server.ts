import type { LoaderFunctionArgs } from "@remix-run/node";
import { backendError, redirect, shedResponse } from "./http.server";
import { isBackendUnavailable } from "./auth-errors.server";
import { requestScope } from "./request-scope.server";
import { pathWithSearch } from "./safe-redirect";
import { hasAuthCookie, requestClient } from "./supabase.server";
import { canonicalTimeZone } from "./time-zones.server";
import { isTheme, type Theme } from "./theme";

/** The verified identity of the person behind a request (from the access token's claims). */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string | null;
  /** the avatar's object in bucket `avatars` (kept in the user's metadata so every page has it from the token) */
  avatarPath: string | null;
  /** the IANA zone dates are shown in (kept in the metadata too; "UTC" when none or one this server doesn't know) */
  timeZone: string;
  sessionId: string | null;
  /** "recovery" when the session came from a password recovery link, "totp" once a code stepped it up */
  amr: string[];
  /** the session's assurance level: "aal2" once a second factor was verified in it */
  aal: "aal1" | "aal2";
  /** the account has a verified second factor (a claim kept by a trigger on auth.mfa_factors) */
  mfaEnrolled: boolean;
  /** the theme chosen on /account (kept in the user's metadata too, for a device without the theme cookie) */
  theme: Theme | null;
  /** when this session last proved who it is (the newest `amr` timestamp, seconds since the epoch) */
  signedInAt: number | null;
}

/**
 * The signed-in person, or null. Uses getClaims(): the access token's
 * signature is checked against the backend's published keys (cached), and an
 * expiring session is refreshed first. Asked once per request (remembered in
 * the request scope), however many loaders (and the action) ask: auth-js
 * counts a session as expiring 90 s before its end, so with short-lived
 * tokens every getClaims() call would refresh again (a load test saw four
 * refreshes per page view with 30-s tokens). Actions that sign someone in or
 * out answer with a redirect, so no loader of the same request asks again.
 *
 * A shed request that carries a session gets a 503 thrown at once: auth-js
 * would otherwise try to refresh an expiring session and, finding the
 * backend "unreachable", retry for up to 30 s.
 */
export async function getUser(): Promise<SessionUser | null> {
  try {
    return await requestScope().remember("claims", readClaims);
  } catch (thrown) {
    // the page's loaders share this answer, so a 503 page thrown by it goes to each of them:
    // each throws its own copy, as Remix reads the body of every thrown page (issue 22 L12)
    if (!(thrown instanceof Response)) throw thrown;
    const copy = thrown.clone();
    throw new Response(copy.body, { status: copy.status, statusText: copy.statusText, headers: copy.headers });
  }
}

async function readClaims(): Promise<SessionUser | null> {
  const scope = requestScope();
  if (scope.shed && hasAuthCookie(scope)) throw shedResponse();
  const supabase = requestClient();
  const { data, error } = await supabase.auth.getClaims();
  if (error) {
    if (isBackendUnavailable(error)) throw backendError(error);
    return null;
  }
  if (!data?.claims) return null;
  const claims = data.claims as Record<string, unknown> & { sub: string; email?: string; session_id?: string };
  const meta = (claims.user_metadata ?? {}) as Record<string, unknown>;
  const appMeta = (claims.app_metadata ?? {}) as Record<string, unknown>;
  const amrEntries = Array.isArray(claims.amr)
    ? (claims.amr as Array<{ method?: string; timestamp?: number } | string>)
    : [];
  const amr = amrEntries.map((a) => (typeof a === "string" ? a : (a.method ?? "")));
  const times = amrEntries.flatMap((a) =>
    typeof a === "object" && typeof a.timestamp === "number" ? [a.timestamp] : [],
  );
  return {
    id: claims.sub,
    email: claims.email ?? "",
    displayName: typeof meta.display_name === "string" ? meta.display_name : null,
    avatarPath: typeof meta.avatar_path === "string" ? meta.avatar_path : null,
    timeZone: canonicalTimeZone(typeof meta.time_zone === "string" ? meta.time_zone : null) ?? "UTC",
    sessionId: claims.session_id ?? null,
    amr,
    aal: claims.aal === "aal2" ? "aal2" : "aal1",
    mfaEnrolled: appMeta.mfa_enrolled === true,
    theme: isTheme(meta.theme) ? meta.theme : null,
    signedInAt: times.length ? Math.max(...times) : null,
  };
}

/**
 * Whether this session must enter a code from the authenticator app before
 * it may open account and team pages: the account has a verified factor and
 * the session has not been stepped up. Decided from the verified token alone
 * (no round trip: docs/decisions/0020-two-factor-sign-in.md).
 */
export function needsSecondFactor(user: Pick<SessionUser, "aal" | "mfaEnrolled">): boolean {
  return user.mfaEnrolled && user.aal !== "aal2";
}

/** `/login/mfa?next=<path>`: where a session at aal1 goes when the account has a second factor. */
export function secondFactorUrl(next: string): string {
  return next === "/" ? "/login/mfa" : `/login/mfa?${new URLSearchParams({ next })}`;
}

/**
 * Throws a redirect to `/login?next=<this page>` when nobody is signed in, and to `/login/mfa?next=<this page>`
 * when the account has a second factor the session hasn't used yet (unless
 * `aal: "any"`, for the page that asks for it).
 */
export async function requireUser(
  request: Request,
  { aal = "required" }: { aal?: "required" | "any" } = {},
): Promise<SessionUser> {
  const user = await getUser();
  if (!user) {
    const next = pathWithSearch(request);
    const target = next === "/" ? "/login" : `/login?${new URLSearchParams({ next })}`;
    throw redirect(target);
  }
  if (aal === "required" && needsSecondFactor(user)) {
    throw redirect(secondFactorUrl(pathWithSearch(request)));
  }
  return user;
}

/**
 * The loader of a page that needs a signed-in person and nothing else
 * (`export const loader = signedInPage;`): the guard, and their email.
 */
export async function signedInPage({ request }: Pick<LoaderFunctionArgs, "request">) {
  const user = await requireUser(request);
  return { email: user.email };
}

/** The loader of a page for signed-out people only (`export const loader = signedOutPage;`). */
export async function signedOutPage() {
  await requireAnonymous();
  return null;
}

/** Signed-in people have no business on /login and /signup. */
export async function requireAnonymous(): Promise<void> {
  const user = await getUser();
  if (user) throw redirect("/teams");
}
