import { redirect } from "@remix-run/node";
import type { SupabaseClient } from "./supabase-types";
import { backendError } from "./http.server";
import { isBackendUnavailable } from "./auth-errors.server";
import { pathWithSearch } from "./safe-redirect";

/** The verified identity of the person behind a request (from the access token's claims). */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string | null;
  /** the avatar's object in bucket `avatars` (kept in the user's metadata so every page has it from the token) */
  avatarPath: string | null;
  sessionId: string | null;
  /** "recovery" when the session came from a password recovery link */
  amr: string[];
}

interface ClaimsSource {
  supabase: SupabaseClient;
  headers: Headers;
}

/**
 * The signed-in person, or null. Uses getClaims(): the access token's
 * signature is checked against the backend's published keys (cached), and an
 * expiring session is refreshed first. Asked once per request, however many
 * loaders (and the action) ask, because they share one client: auth-js counts
 * a session as expiring 90 s before its end, so with short-lived tokens every
 * getClaims() call would refresh again (a load test saw four refreshes per
 * page view with 30-s tokens). Actions that sign someone in or out answer
 * with a redirect, so no loader of the same request asks again.
 */
export function getUser(client: ClaimsSource): Promise<SessionUser | null> {
  let answer = claimsOfRequest.get(client.supabase);
  if (!answer) {
    answer = readClaims(client);
    claimsOfRequest.set(client.supabase, answer);
  }
  return answer;
}

const claimsOfRequest = new WeakMap<SupabaseClient, Promise<SessionUser | null>>();

async function readClaims({ supabase, headers }: ClaimsSource): Promise<SessionUser | null> {
  const { data, error } = await supabase.auth.getClaims();
  if (error) {
    if (isBackendUnavailable(error)) throw backendError(error, headers);
    return null;
  }
  if (!data?.claims) return null;
  const claims = data.claims as Record<string, unknown> & { sub: string; email?: string; session_id?: string };
  const meta = (claims.user_metadata ?? {}) as Record<string, unknown>;
  const amr = Array.isArray(claims.amr)
    ? (claims.amr as Array<{ method?: string } | string>).map((a) => (typeof a === "string" ? a : (a.method ?? "")))
    : [];
  return {
    id: claims.sub,
    email: claims.email ?? "",
    displayName: typeof meta.display_name === "string" ? meta.display_name : null,
    avatarPath: typeof meta.avatar_path === "string" ? meta.avatar_path : null,
    sessionId: claims.session_id ?? null,
    amr,
  };
}

/** Throws a redirect to `/login?next=<this page>` (carrying the cleared cookies) when nobody is signed in. */
export async function requireUser(client: ClaimsSource, request: Request): Promise<SessionUser> {
  const user = await getUser(client);
  if (!user) {
    const next = pathWithSearch(request);
    const target = next === "/" ? "/login" : `/login?${new URLSearchParams({ next })}`;
    throw redirect(target, { headers: client.headers });
  }
  return user;
}

/** Signed-in people have no business on /login and /signup. */
export async function requireAnonymous(client: ClaimsSource): Promise<void> {
  const user = await getUser(client);
  if (user) throw redirect("/teams", { headers: client.headers });
}
