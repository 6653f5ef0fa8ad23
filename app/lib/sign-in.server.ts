import type { SupabaseClient } from "./supabase-types";
import { describeAuthError, type AuthFailure } from "./auth-errors.server";

/**
 * The sign-in calls of /login, /signup and /auth/error, each answering with
 * nothing (done) or the failure to show. Email links point back to the app
 * (`emailRedirectTo`); the backend turns their path into the link's `next`.
 */
export async function sendSignInEmail(
  supabase: SupabaseClient,
  email: string,
  returnTo: string,
): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.signInWithOtp({
    email,
    options: { shouldCreateUser: false, emailRedirectTo: returnTo },
  });
  if (!error) return null;
  const failure = describeAuthError(error);
  // Don't reveal whether an address has an account: an unknown one "gets" an email too.
  if (
    failure.status === 400 &&
    /signups? not allowed|user not found|otp_disabled/i.test(`${failure.code} ${failure.message}`)
  )
    return null;
  return failure;
}

export async function resendConfirmation(
  supabase: SupabaseClient,
  email: string,
  returnTo: string,
): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.resend({ type: "signup", email, options: { emailRedirectTo: returnTo } });
  return error ? describeAuthError(error) : null;
}

export async function startOAuth(
  supabase: SupabaseClient,
  provider: string,
  callbackUrl: string,
): Promise<{ url: string } | AuthFailure> {
  const { data, error } = await supabase.auth.signInWithOAuth({
    // the local stack's provider is not in supabase-js's list of names
    provider: provider as never,
    options: { redirectTo: callbackUrl, skipBrowserRedirect: true },
  });
  if (error || !data.url) return describeAuthError(error);
  return { url: data.url };
}
