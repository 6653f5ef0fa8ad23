import { createBrowserClient } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";

/**
 * The browser's backend client (PRODUCT.md §1): PKCE, automatic refresh,
 * session detection from the address, the session kept in the same cookies
 * the server reads. Loaded only after hydration (see browser-auth.ts).
 */
export function createClient(url: string, anonKey: string): SupabaseClient {
  return createBrowserClient(url, anonKey, {
    auth: { flowType: "pkce", autoRefreshToken: true, detectSessionInUrl: true, persistSession: true },
    isSingleton: true,
  });
}
