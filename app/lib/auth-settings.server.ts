import { env } from "./env.server";

interface AuthSettings {
  external: Record<string, boolean>;
}

let cached: { at: number; settings: AuthSettings } | null = null;
const TTL_MS = 60_000;

/** Which sign-in providers the backend offers (GET /auth/v1/settings), cached for a minute. */
export async function oauthProviders(): Promise<string[]> {
  if (!cached || Date.now() - cached.at > TTL_MS) {
    try {
      const response = await fetch(`${env.SUPABASE_URL}/auth/v1/settings`, {
        headers: { apikey: env.SUPABASE_ANON_KEY },
        signal: AbortSignal.timeout(2_000),
      });
      if (!response.ok) return [];
      cached = { at: Date.now(), settings: (await response.json()) as AuthSettings };
    } catch {
      return [];
    }
  }
  return Object.entries(cached.settings.external ?? {})
    .filter(([name, enabled]) => enabled && name !== "email" && name !== "phone")
    .map(([name]) => name);
}
