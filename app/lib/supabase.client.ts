import { createBrowserClient } from "@supabase/ssr";
import type { Database, SupabaseClient } from "./supabase-types";

/**
 * The browser's backend client (docs/product.md §1): PKCE, automatic refresh,
 * session detection from the address, the session kept in the same cookies
 * the server reads. Loaded only after hydration (see browser-auth.ts).
 */
export function createClient(url: string, anonKey: string): SupabaseClient {
  return createBrowserClient<Database>(url, anonKey, {
    auth: { flowType: "pkce", autoRefreshToken: true, detectSessionInUrl: true, persistSession: true },
    isSingleton: true,
  });
}
