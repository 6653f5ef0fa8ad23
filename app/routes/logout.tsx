import type { ActionFunctionArgs } from "@remix-run/node";
import { setFlash } from "~/lib/flash.server";
import { redirect, textResponse } from "~/lib/http.server";
import { MESSAGES } from "~/lib/messages";
import { safeRedirect } from "~/lib/safe-redirect";
import { endSessions } from "~/lib/sign-out.server";
import { clearAuthCookies, requestClient } from "~/lib/supabase.server";

/** GET /logout does nothing (signing out is a POST, so a link or prefetch can't do it). */
export function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  // a garbled form signs nothing out (the servers refuse a body that isn't a form, form-bodies.server)
  const form = await request.formData().catch(() => null);
  if (!form) return textResponse(MESSAGES.notAForm, 400);
  const global = form.get("scope") === "global";
  if (global) {
    // every device: only when the backend says it ended them (never "done" while nothing was revoked)
    const failure = await endSessions("global");
    if (failure)
      return textResponse(`Nothing was signed out, you are still signed in. ${failure.message}`, failure.status);
  } else {
    // this browser: cookies are cleared even when the backend can't be told (the session then simply expires)
    const { error } = await requestClient().auth.signOut({ scope: "local" });
    if (error) {
      console.error("[logout] backend sign-out failed:", error.message);
      clearAuthCookies();
    }
  }
  await setFlash({
    kind: "info",
    message: global ? "You're logged out on every device." : "You're logged out.",
  });
  // `next`: log in again and go back there (an invitation opened while signed in as someone else)
  const next = form.get("next");
  throw redirect(next ? `/login?${new URLSearchParams({ next: safeRedirect(next) })}` : "/login");
}
