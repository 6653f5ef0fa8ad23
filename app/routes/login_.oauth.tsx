import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { FormAlert } from "~/components/form";
import { oauthProviders } from "~/lib/auth-settings.server";
import { signedOutPage } from "~/lib/auth.server";
import { authFailure, formFailure, originOf } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { startOAuth } from "~/lib/sign-in.server";
import { requestClient } from "~/lib/supabase.server";

/**
 * POST /login/oauth: starts sign-in with a provider (the login page's
 * "Continue with …" buttons) and sends the browser there. When it can't
 * start, this page says why, with the way back. (`login_`: a page of its
 * own, not nested inside the log-in page.)
 */
export const meta: MetaFunction = () => [{ title: "Log in · Teamboard" }];

export const loader = signedOutPage;

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const form = await request.formData();
  const intent = "oauth" as const;
  const provider = String(form.get("provider") ?? "");
  const next = safeRedirect(form.get("next"));
  if (!(await oauthProviders()).includes(provider)) {
    return formFailure({ intent, errors: { form: "That sign-in provider isn't available." }, values: { next } });
  }
  const started = await startOAuth(
    supabase,
    provider,
    `${originOf(request)}/auth/callback?${new URLSearchParams({ next })}`,
  );
  if ("url" in started) throw redirect(started.url);
  return authFailure(started, { intent, values: { next } });
}

export default function LoginWithProvider() {
  const result = useActionData<typeof action>();
  const next = result?.values.next;
  return (
    <div className="auth-page">
      <h1>Log in</h1>
      {result?.errors.form ? <FormAlert autoFocus>{result.errors.form}</FormAlert> : null}
      <p className="lead">
        <Link to={next && next !== "/teams" ? `/login?${new URLSearchParams({ next })}` : "/login"}>
          Back to the log-in page
        </Link>
      </p>
    </div>
  );
}
