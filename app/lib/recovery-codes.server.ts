import { describeAuthError, isBackendUnavailable, type AuthFailure } from "./auth-errors.server";
import { MESSAGES } from "./messages";
import { adminClient } from "./storage.server";
import type { SupabaseClient } from "./supabase-types";

/**
 * Recovery codes for two-factor sign-in (docs/decisions/0020): ten one-time
 * codes made when the first authenticator app is turned on, kept by the
 * database as hashes (migration …_recovery_codes.sql). Hosted Supabase Auth
 * has none, so a code can't step a session up to aal2: instead the server,
 * with the service role, removes the account's authenticator apps, the
 * session is refreshed (its token then says "not enrolled", so aal1 is
 * enough), and the person is asked to set up an app again.
 */

export type CodesResult = { codes: string[] } | { failure: AuthFailure };

/** Ten new codes for this (aal2) session's account; the old ones stop working. Shown once, never stored here. */
export async function makeRecoveryCodes(supabase: SupabaseClient): Promise<CodesResult> {
  const { data, error } = await supabase.rpc("new_recovery_codes");
  if (error || !Array.isArray(data)) return { failure: rpcFailure(error) };
  return { codes: data };
}

/** How many unused codes the account has left (null when the backend couldn't say). */
export async function recoveryCodesLeft(supabase: SupabaseClient): Promise<number | null> {
  const { data, error } = await supabase.rpc("recovery_codes_left");
  return error || typeof data !== "number" ? null : data;
}

/**
 * /login/mfa with a recovery code instead of the app's code: spends the code,
 * removes the account's authenticator apps and refreshes the session (its
 * new cookies are in the request client's headers). "wrong" for a code that
 * isn't one of the account's unused ones.
 */
export async function recoverWithCode(
  supabase: SupabaseClient,
  userId: string,
  code: string,
): Promise<"recovered" | "wrong" | AuthFailure> {
  const admin = adminClient();
  if (!admin) {
    return {
      status: 503,
      field: null,
      message: "Recovery codes need the server's service key (SUPABASE_SERVICE_ROLE_KEY).",
      code: "no_service_key",
    };
  }
  const { data: valid, error } = await supabase.rpc("redeem_recovery_code", { code });
  if (error) return rpcFailure(error);
  if (valid !== true) return "wrong";
  // the code stays redeemable for a few minutes, so a removal that fails here can be retried with it
  const { data: factors, error: listError } = await admin.auth.admin.mfa.listFactors({ userId });
  if (listError) return describeAuthError(listError);
  for (const factor of factors?.factors ?? []) {
    const { error: deleteError } = await admin.auth.admin.mfa.deleteFactor({ id: factor.id, userId });
    if (deleteError) return describeAuthError(deleteError);
  }
  const { error: refreshError } = await supabase.auth.refreshSession();
  if (refreshError) return describeAuthError(refreshError);
  return "recovered";
}

function rpcFailure(error: unknown): AuthFailure {
  if (!error || isBackendUnavailable(error))
    return { status: 503, field: null, message: MESSAGES.backendDown, code: "backend_unavailable" };
  console.error("[recovery codes] unexpected error", error);
  return { status: 500, field: null, message: MESSAGES.unexpected, code: "unexpected" };
}
