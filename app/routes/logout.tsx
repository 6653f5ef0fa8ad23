import type { ActionFunctionArgs } from "@remix-run/node";
import { setFlash } from "~/lib/flash.server";
import { redirect } from "~/lib/http.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { clearAuthCookies, requestClient } from "~/lib/supabase.server";

/** GET /logout does nothing (signing out is a POST, so a link or prefetch can't do it). */
export function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const form = await request.formData();
  const scope = form.get("scope") === "global" ? "global" : "local";
  // Cookies are cleared even when the backend can't be told (the session then simply expires).
  const { error } = await supabase.auth.signOut({ scope });
  if (error) {
    console.error("[logout] backend sign-out failed:", error.message);
    clearAuthCookies();
  }
  await setFlash({
    kind: "info",
    message: scope === "global" ? "You're logged out on every device." : "You're logged out.",
  });
  // `next`: log in again and go back there (an invitation opened while signed in as someone else)
  const next = form.get("next");
  throw redirect(next ? `/login?${new URLSearchParams({ next: safeRedirect(next) })}` : "/login");
}
