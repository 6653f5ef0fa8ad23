import type { LoaderFunctionArgs } from "@remix-run/node";
import { ErrorPage } from "~/components/error-page";
import { describeAuthError } from "~/lib/auth-errors.server";
import { backendError, redirect } from "~/lib/http.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { requestClient } from "~/lib/supabase.server";

/**
 * OAuth and PKCE links come back here with a `code`; the verifier that goes
 * with it is in this browser's cookie (set when the flow started). Without
 * it — the link was opened in another browser — the code is useless.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const supabase = requestClient();
  const url = new URL(request.url);
  const code = url.searchParams.get("code");
  if (!code) {
    const reason = url.searchParams.get("error_code") === "otp_expired" ? "expired" : "invalid";
    throw redirect(`/auth/error?reason=${reason}`);
  }

  const { data, error } = await supabase.auth.exchangeCodeForSession(code);
  if (error) {
    if (error.code === "pkce_code_verifier_not_found") throw redirect("/auth/error?reason=other_browser");
    const failure = describeAuthError(error);
    if (failure.status === 503 || failure.status === 500) throw backendError(error);
    throw redirect("/auth/error?reason=expired");
  }
  if ((data as { redirectType?: string | null }).redirectType === "recovery") throw redirect("/reset-password");
  throw redirect(safeRedirect(url.searchParams.get("next")));
}

/** Never shown: the loader always redirects. Its error boundary shows backend failures as a page. */
export default function LinkLanding() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
