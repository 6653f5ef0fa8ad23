// Shared by the functions: CORS headers for browsers calling a function
// directly (supabase-js's functions.invoke), JSON answers, and the caller's
// own client (their token, so row-level security decides what they may do).
import { createClient, type SupabaseClient } from "npm:@supabase/supabase-js@2";

export const corsHeaders = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "authorization, x-client-info, apikey, content-type",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
};

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, "Content-Type": "application/json", ...headers },
  });
}

/** `{ error, code }` as the functions answer refusals */
export function refuse(status: number, code: string, error: string, headers: Record<string, string> = {}): Response {
  return json({ error, code }, status, headers);
}

const clientOptions = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } };

/** A client acting as the caller (their Authorization header), never with more rights. */
export function callerClient(req: Request): SupabaseClient {
  return createClient(Deno.env.get("SUPABASE_URL")!, Deno.env.get("SUPABASE_ANON_KEY")!, {
    ...clientOptions,
    global: { headers: { Authorization: req.headers.get("Authorization") ?? "" } },
  });
}

/** The service role, for the few reads RLS can't answer for the caller (kept to counting). */
export function serviceClient(): SupabaseClient {
  return createClient(Deno.env.get("SUPABASE_URL")!, Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!, clientOptions);
}

/**
 * The signed-in caller's id, or the refusal to answer with: 401 without a
 * valid user token (anon key, expired or foreign token), 403 when the
 * account has an authenticator app and this session hasn't used it (aal1),
 * as the database's policies refuse it (docs/decisions/0020). The token is
 * checked against the project's keys.
 */
export async function signedInCaller(req: Request, client: SupabaseClient): Promise<{ id: string } | Response> {
  const token = /^Bearer\s+(.+)$/i.exec(req.headers.get("Authorization") ?? "")?.[1];
  if (!token) return refuse(401, "not_signed_in", "Sign in first.");
  const { data, error } = await client.auth.getClaims(token);
  const claims = data?.claims;
  if (error || !claims?.sub || claims.role !== "authenticated") return refuse(401, "not_signed_in", "Sign in first.");
  if (claims.app_metadata?.mfa_enrolled === true && claims.aal !== "aal2") {
    return refuse(
      403,
      "insufficient_aal",
      "This account uses two-factor sign-in: enter a code from the authenticator app first.",
    );
  }
  return { id: claims.sub };
}

/**
 * Whether the caller holds the project's service role key (the scheduler's
 * calls do: migration 20261126000200 reads it from Vault). Compared in
 * constant time, so the answer's timing says nothing about the key.
 */
export function isServiceRole(req: Request): boolean {
  const token = /^Bearer\s+(.+)$/i.exec(req.headers.get("Authorization") ?? "")?.[1] ?? "";
  const key = Deno.env.get("SUPABASE_SERVICE_ROLE_KEY") ?? "";
  const a = new TextEncoder().encode(token);
  const b = new TextEncoder().encode(key);
  let differ = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) differ |= (a[i] ?? 0) ^ b[i];
  return key !== "" && differ === 0;
}
