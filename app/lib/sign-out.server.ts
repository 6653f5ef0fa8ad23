import { describeAuthError, type AuthFailure } from "./auth-errors.server";
import { MESSAGES } from "./messages";
import { requestScope } from "./request-scope.server";
import { clearAuthCookies, requestClient } from "./supabase.server";

export type SignOutScope = "local" | "others" | "global";

/**
 * Ends sessions on the backend and says truthfully whether it did (issue 22
 * M4). auth-js's signOut() takes a 401, 403 or 404 from the backend as done
 * (the session may be gone already) and clears this browser's session, and a
 * request the server shed never reaches the backend at all: "Log out on every
 * device" then said so while every other session went on working. Here the
 * backend's own answer decides; on success the cookies of this browser go
 * too, unless only the others were meant. null when it worked.
 */
export async function endSessions(scope: SignOutScope): Promise<AuthFailure | null> {
  if (requestScope().shed) return { status: 503, field: null, message: MESSAGES.backendDown, code: "shed" };
  const supabase = requestClient();
  const { data, error } = await supabase.auth.getSession();
  if (error) return describeAuthError(error);
  const token = data.session?.access_token;
  if (!token) return { status: 400, field: null, message: NOT_SIGNED_IN, code: "session_missing" };
  const { error: refused } = await supabase.auth.admin.signOut(token, scope);
  if (refused) {
    const failure = describeAuthError(refused);
    if (failure.status === 503 || failure.status === 429) return failure;
    return { status: 400, field: null, message: NOT_SIGNED_IN, code: refused.code ?? "session_not_found" };
  }
  if (scope !== "others") clearAuthCookies();
  return null;
}

const NOT_SIGNED_IN = "This session had already ended, so no session was signed out. Log in again, then try again.";
