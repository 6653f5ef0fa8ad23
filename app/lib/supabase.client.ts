import { GoTrueClient } from "@supabase/auth-js";
// @supabase/ssr's own cookie storage, as its createBrowserClient uses it (base64url, chunked cookies):
// importing it alone leaves out supabase-js's database, storage, functions and realtime clients.
import { createStorageFromOptions } from "@supabase/ssr/dist/module/cookies";
import { VERSION } from "@supabase/ssr/dist/module/version";

/**
 * The browser's auth client (docs/product.md §1): PKCE, automatic refresh,
 * session detection from the address, the session kept in the same cookies
 * the server reads — what `createBrowserClient` of @supabase/ssr sets up for
 * `client.auth`, without the rest of supabase-js (~60 KB gzip in all; this
 * is ~19 KiB Brotli, with auth-js's passkey and Ethereum code left out of
 * the browser build: auth-js-unused.ts). The browser only ever uses auth,
 * plus Realtime on live pages (realtime.client.ts, loaded by those pages
 * alone). Loaded only after hydration (see browser-auth.ts). Options as
 * supabase-js 2.109 passes them
 * (SupabaseClient._initSupabaseAuthClient), so cookies, storage key, headers
 * and cross-tab events are the same as with the full client.
 */
export function createAuthClient(url: string, anonKey: string): GoTrueClient {
  const { storage } = createStorageFromOptions({ cookieEncoding: "base64url" }, false);
  const base = new URL(url.endsWith("/") ? url : `${url}/`);
  return new GoTrueClient({
    url: new URL("auth/v1", base).href,
    headers: {
      Authorization: `Bearer ${anonKey}`,
      apikey: anonKey,
      "X-Client-Info": `supabase-ssr/${VERSION} createBrowserClient`,
    },
    storageKey: `sb-${base.hostname.split(".")[0]}-auth-token`,
    storage,
    flowType: "pkce",
    autoRefreshToken: true,
    detectSessionInUrl: true,
    persistSession: true,
    hasCustomAuthorizationHeader: false,
  });
}
