import { redirect } from "@remix-run/node";
import type { SupabaseClient } from "@supabase/supabase-js";
import { backendError } from "./http.server";
import { isBackendUnavailable } from "./auth-errors.server";
import { pathWithSearch } from "./safe-redirect";

/** The verified identity of the person behind a request (from the access token's claims). */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string | null;
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
 * expiring session is refreshed first — once per request, however many
 * loaders ask, because they share one client.
 */
export async function getUser({ supabase, headers }: ClaimsSource): Promise<SessionUser | null> {
  const { data, error } = await supabase.auth.getClaims();
  if (error) {
    if (isBackendUnavailable(error)) throw backendError(error, headers);
    return null;
  }
  if (!data?.claims) return null;
  const claims = data.claims as Record<string, unknown> & { sub: string; email?: string; session_id?: string };
  const meta = (claims.user_metadata ?? {}) as Record<string, unknown>;
  const amr = Array.isArray(claims.amr) ? (claims.amr as Array<{ method?: string } | string>).map((a) => (typeof a === "string" ? a : a.method ?? "")) : [];
  return {
    id: claims.sub,
    email: claims.email ?? "",
    displayName: typeof meta.display_name === "string" ? meta.display_name : null,
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
