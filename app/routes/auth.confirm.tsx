import type { LoaderFunctionArgs } from "@remix-run/node";
import { ErrorPage } from "~/components/error-page";
import type { EmailOtpType } from "@supabase/supabase-js";
import { describeAuthError } from "~/lib/auth-errors.server";
import { setFlash } from "~/lib/flash.server";
import { backendError, redirect } from "~/lib/http.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { requestClient } from "~/lib/supabase.server";

const TYPES = new Set<EmailOtpType>(["signup", "email", "magiclink", "recovery", "email_change", "invite"]);

/** Email links land here: verify the token hash, then go to `next` (signed in). */
export async function loader({ request }: LoaderFunctionArgs) {
  const supabase = requestClient();
  const url = new URL(request.url);
  const tokenHash = url.searchParams.get("token_hash");
  const type = url.searchParams.get("type") as EmailOtpType | null;
  if (!tokenHash || !type || !TYPES.has(type)) throw redirect("/auth/error?reason=invalid");

  const { data, error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type });
  if (error) {
    const failure = describeAuthError(error);
    if (failure.status === 503 || failure.status === 500) throw backendError(error);
    if (failure.status === 429) throw redirect(`/auth/error?reason=rate_limited`);
    throw redirect("/auth/error?reason=expired");
  }

  if (type === "recovery") throw redirect("/reset-password");
  if (type === "email_change" && !data.session) {
    // the first of the two links of a secure email change: accepted, the other address must confirm too
    await setFlash({
      kind: "success",
      message: "This address is confirmed. Now follow the link we sent to your other address to finish the change.",
    });
    throw redirect(safeRedirect(url.searchParams.get("next"), "/account/email"));
  }
  if (type === "email_change") {
    await setFlash({ kind: "success", message: "Your email address is changed." });
    throw redirect(safeRedirect(url.searchParams.get("next"), "/account/email"));
  }
  if (type === "signup" || type === "email" || type === "invite") {
    await setFlash({ kind: "success", message: "You're signed in." });
  }
  throw redirect(safeRedirect(url.searchParams.get("next")));
}

/** Never shown: the loader always redirects. Its error boundary shows backend failures as a page. */
export default function LinkLanding() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
