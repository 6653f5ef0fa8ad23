import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, HiddenNext, SubmitButton, ValidatedForm, type FormFailure } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { oauthProviders } from "~/lib/auth-settings.server";
import { requireAnonymous } from "~/lib/auth.server";
import { authFailure, formFailure, originOf } from "~/lib/forms.server";
import { MESSAGES } from "~/lib/messages";
import { safeRedirect } from "~/lib/safe-redirect";
import { EmailSignInSchema, LoginSchema, OtpSchema, parseForm, ResendSchema, submittedValues } from "~/lib/schemas";
import { resendConfirmation, sendSignInEmail, startOAuth } from "~/lib/sign-in.server";
import { createServerClient } from "~/lib/supabase.server";

export const meta: MetaFunction = () => [{ title: "Log in · Teamboard" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  await requireAnonymous(client);
  const next = new URL(request.url).searchParams.get("next");
  return data({ next: next ? safeRedirect(next) : null, providers: await oauthProviders() }, { headers: client.headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { supabase, headers } = createServerClient({ request, context });
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "password");
  const origin = originOf(request);

  switch (intent) {
    case "password": {
      const result = parseForm(LoginSchema, form);
      if (!result.success) return formFailure({ intent, ...result }, headers);
      const { error } = await supabase.auth.signInWithPassword({ email: result.data.email, password: result.data.password });
      if (error) return authFailure(describeAuthError(error), { intent, values: result.values }, headers);
      throw redirect(safeRedirect(result.data.next), { headers });
    }
    case "magiclink":
    case "code": {
      const result = parseForm(EmailSignInSchema, form);
      if (!result.success) return formFailure({ intent, ...result }, headers);
      const failure = await sendSignInEmail(supabase, result.data.email, `${origin}${safeRedirect(result.data.next)}`);
      if (failure) return authFailure(failure, { intent, values: result.values }, headers);
      return data({ intent, sent: result.data.email }, { headers });
    }
    case "verify-code": {
      const result = parseForm(OtpSchema, form);
      if (!result.success) return formFailure({ intent, ...result, extra: { sent: String(form.get("email") ?? "") } }, headers);
      const { error } = await supabase.auth.verifyOtp({ email: result.data.email, token: result.data.token, type: "email" });
      if (error) {
        const failure = describeAuthError(error);
        const message = failure.status === 400 ? MESSAGES.invalidCode : failure.message;
        return authFailure({ ...failure, field: failure.status === 400 ? "token" : null, message }, { intent, values: result.values, extra: { sent: result.data.email } }, headers);
      }
      throw redirect(safeRedirect(result.data.next), { headers });
    }
    case "resend": {
      const result = parseForm(ResendSchema, form);
      if (!result.success) return formFailure({ intent: "password", ...result }, headers);
      const failure = await resendConfirmation(supabase, result.data.email, `${origin}${safeRedirect(result.data.next)}`);
      if (failure) return authFailure(failure, { intent: "password", values: result.values }, headers);
      return data({ intent: "password", resent: result.data.email, values: result.values }, { headers });
    }
    case "oauth": {
      const provider = String(form.get("provider") ?? "");
      if (!(await oauthProviders()).includes(provider)) return formFailure({ intent, errors: { form: "That sign-in provider isn't available." }, values: {} }, headers);
      const next = safeRedirect(form.get("next"));
      const started = await startOAuth(supabase, provider, `${origin}/auth/callback?${new URLSearchParams({ next })}`);
      if ("url" in started) throw redirect(started.url, { headers });
      return authFailure(started, { intent, values: {} }, headers);
    }
    default:
      return formFailure({ intent, errors: { form: "Unknown action." }, values: submittedValues(form) }, headers);
  }
}

export default function Login() {
  const { next, providers } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as (Partial<FormFailure> & { intent?: string; sent?: string; resent?: string; code?: string }) | undefined;
  const signupHref = next ? `/signup?${new URLSearchParams({ next })}` : "/signup";
  const codeSentTo = actionData && (actionData.intent === "code" || actionData.intent === "verify-code") ? actionData.sent : undefined;

  if (codeSentTo) {
    return (
      <div className="auth-page">
        <h1>Enter your code</h1>
        <p className="lead" role="status">
          We emailed a 6-digit code to <strong>{codeSentTo}</strong>. It works for an hour.
        </p>
        <div className="card">
          <ValidatedForm schema="OtpSchema" result={actionData} intent="verify-code">
            <HiddenNext next={next} />
            <input type="hidden" name="email" value={codeSentTo} />
            <Field name="token" label="Code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
            <SubmitButton className="button button-block">Log in</SubmitButton>
          </ValidatedForm>
          <p className="muted">
            Wrong address or no email? <Link to={next ? `/login?${new URLSearchParams({ next })}` : "/login"}>Start again</Link>
          </p>
        </div>
      </div>
    );
  }

  const notConfirmed = actionData?.intent === "password" && actionData.code === "email_not_confirmed";
  const emailValue = actionData?.values?.email;
  return (
    <div className="auth-page">
      <h1>Log in</h1>
      <p className="lead">
        New to Teamboard? <Link to={signupHref}>Create an account</Link>
      </p>
      {actionData?.resent ? (
        <div className="alert alert-success" role="status">
          We sent a new confirmation link to {actionData.resent}.
        </div>
      ) : null}
      {actionData?.intent === "magiclink" && actionData.sent ? (
        <div className="alert alert-success" role="status">
          Check your email: we sent a sign-in link to {actionData.sent}.
        </div>
      ) : null}
      <div className="card">
        <ValidatedForm schema="LoginSchema" result={actionData} intent="password">
          <HiddenNext next={next} />
          <Field name="email" label="Email" type="email" autoComplete="email" />
          <Field name="password" label="Password" type="password" autoComplete="current-password" />
          <div className="form-actions">
            <SubmitButton className="button" pendingText="Logging in…">
              Log in
            </SubmitButton>
            <Link to="/forgot-password">Forgot your password?</Link>
          </div>
        </ValidatedForm>
        {notConfirmed && emailValue ? (
          <Form method="post" className="resend-form">
            <input type="hidden" name="intent" value="resend" />
            <input type="hidden" name="email" value={emailValue} />
            <HiddenNext next={next} />
            <button type="submit" className="button button-secondary button-small">
              Send the confirmation link again
            </button>
          </Form>
        ) : null}
      </div>

      <p className="divider">or</p>
      <div className="card">
        <h2>Log in without a password</h2>
        <ValidatedForm schema="EmailSignInSchema" result={actionData?.intent === "code" ? actionData : actionData?.intent === "magiclink" ? actionData : undefined}>
          <HiddenNext next={next} />
          <Field name="email" label="Email" type="email" autoComplete="email" defaultValue={emailValue} />
          <div className="form-actions">
            <button type="submit" name="intent" value="magiclink" className="button button-secondary">
              Email me a sign-in link
            </button>
            <button type="submit" name="intent" value="code" className="button button-secondary">
              Email me a code
            </button>
          </div>
        </ValidatedForm>
      </div>

      {providers.length > 0 ? (
        <div className="card">
          {providers.map((provider) => (
            <Form method="post" key={provider}>
              <input type="hidden" name="intent" value="oauth" />
              <input type="hidden" name="provider" value={provider} />
              <HiddenNext next={next} />
              <button type="submit" className="button button-secondary button-block">
                Continue with the {provider} provider
              </button>
            </Form>
          ))}
        </div>
      ) : null}
    </div>
  );
}
