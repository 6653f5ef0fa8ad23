import type { GoTrueClient as AuthClient } from "@supabase/auth-js";
import { RealtimeClient } from "@supabase/realtime-js";

/**
 * Realtime for the live pages (board, task page: live.ts), ~17 KB gzip that
 * no other page loads. Wired to the tab's one auth client as supabase-js's
 * SupabaseClient wires its own (its constructor and _handleTokenChanged):
 * joins carry the signed-in person's access token, refreshed tokens are
 * passed on, and signing out drops to the anon key.
 */
export function createRealtime(url: string, anonKey: string, auth: AuthClient): RealtimeClient {
  const address = new URL("realtime/v1", url.endsWith("/") ? url : `${url}/`);
  address.protocol = address.protocol.replace("http", "ws");
  const realtime = new RealtimeClient(address.href, {
    params: { apikey: anonKey },
    accessToken: async () => (await auth.getSession()).data.session?.access_token ?? anonKey,
  });
  let token: string | undefined;
  auth.onAuthStateChange((event, session) => {
    if ((event === "TOKEN_REFRESHED" || event === "SIGNED_IN") && session && session.access_token !== token) {
      token = session.access_token;
      void realtime.setAuth(token);
    } else if (event === "SIGNED_OUT") {
      token = undefined;
      void realtime.removeAllChannels();
      void realtime.setAuth();
    }
  });
  return realtime;
}
