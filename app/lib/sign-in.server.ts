import type { SupabaseClient } from "./supabase-types";
import { describeAuthError, type AuthFailure } from "./auth-errors.server";
import { MESSAGES } from "./messages";

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

/**
 * The 6-digit code from an email (a sign-in code, or the one in the sign-up
 * confirmation) verified for its address: the session cookie is set on the
 * request's client, so it works in any browser, unlike a PKCE link. A wrong
 * or used-up code is a message beside the code field.
 */
export async function verifyEmailCode(
  supabase: SupabaseClient,
  { email, token }: { email: string; token: string },
): Promise<AuthFailure | null> {
  const { error } = await supabase.auth.verifyOtp({ email, token, type: "email" });
  if (!error) return null;
  const failure = describeAuthError(error);
  return failure.status === 400 ? { ...failure, field: "token", message: MESSAGES.invalidCode } : failure;
}
