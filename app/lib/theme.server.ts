import { parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import type { SessionUser } from "./auth.server";
import { requestScope } from "./request-scope.server";
import type { SupabaseClient } from "./supabase-types";
import { isTheme, type Theme } from "./theme";

/** The cookie the first HTML is drawn from (readable by the server only; nothing in the browser needs it). */
export const THEME_COOKIE = "tb_theme";
/** As long as the session's cookies (docs/product.md §1): 400 days. */
const MAX_AGE = 34_560_000;

/**
 * The theme this request's page is drawn in: the browser's cookie; without
 * one (a new device, cleared cookies), the account's choice from the access
 * token's claims, written into a cookie so signed-out pages keep it too;
 * else "system". No backend read either way.
 */
export function pageTheme(user: Pick<SessionUser, "theme"> | null): Theme {
  const scope = requestScope();
  const fromCookie = parseCookieHeader(scope.cookie).find((c) => c.name === THEME_COOKIE)?.value;
  if (isTheme(fromCookie)) return fromCookie;
  if (user?.theme) {
    setThemeCookie(user.theme);
    return user.theme;
  }
  return "system";
}

export function setThemeCookie(theme: Theme) {
  requestScope().setCookie(
    THEME_COOKIE,
    serializeCookieHeader(THEME_COOKIE, theme, {
      path: "/",
      maxAge: MAX_AGE,
      sameSite: "lax",
      httpOnly: true,
      // as the flash and auth cookies: not Secure-only, so http://127.0.0.1 works in dev and tests
      secure: false,
    }),
  );
}

/**
 * Saves the choice: the profile (the account's record) and the user's
 * metadata (the copy the access token carries to the person's other
 * devices) side by side, then this browser's cookie, once both are saved.
 */
export async function saveTheme(supabase: SupabaseClient, userId: string, theme: Theme) {
  const [profile, metadata] = await Promise.all([
    supabase.from("profiles").update({ theme }).eq("id", userId).select("id").single(),
    supabase.auth.updateUser({ data: { theme } }),
  ]);
  const error = profile.error ?? metadata.error ?? null;
  if (!error) setThemeCookie(theme);
  return { error };
}
