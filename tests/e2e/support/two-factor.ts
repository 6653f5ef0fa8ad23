import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { totp } from "../../support/totp";
import type { Backend, TestUser } from "../fixtures";

/**
 * Gives a user an authenticator app straight through the backend's MFA API
 * (as any supabase-js client could), for tests that need an account with two
 * factors without walking through /account/security. Returns the app's
 * secret, from which totp() computes the codes.
 */
export async function enrolAuthenticator(
  backend: Backend,
  user: TestUser,
): Promise<{ secret: string; factorId: string }> {
  const client = createClient(backend.env.apiUrl, backend.env.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const signIn = await client.auth.signInWithPassword({ email: user.email, password: user.password });
  if (signIn.error) throw signIn.error;
  const enrolled = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Test phone" });
  if (enrolled.error) throw enrolled.error;
  const verified = await client.auth.mfa.challengeAndVerify({
    factorId: enrolled.data.id,
    code: totp(enrolled.data.totp.secret),
  });
  if (verified.error) throw verified.error;
  return { secret: enrolled.data.totp.secret, factorId: enrolled.data.id };
}
