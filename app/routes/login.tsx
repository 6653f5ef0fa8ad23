import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CodeForm } from "~/components/auth/code-form";
import { Field, HiddenNext, SubmitButton, ValidatedForm } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { oauthProviders } from "~/lib/auth-settings.server";
import { requireAnonymous } from "~/lib/auth.server";
import { authFailure, formFailure, originOf } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { LoginActionSchema, parseIntent, submittedValues } from "~/lib/schemas";
import { resendConfirmation, sendSignInEmail } from "~/lib/sign-in.server";
import { requestClient } from "~/lib/supabase.server";

export const meta: MetaFunction = () => [{ title: "Log in · Teamboard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous();
  const next = new URL(request.url).searchParams.get("next");
  return { next: next ? safeRedirect(next) : null, providers: await oauthProviders() };
}

/**
 * The log-in page's own forms (see LoginActionSchema). The code form posts to
 * /login/code and the provider buttons to /login/oauth, routes of their own.
 */
export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const form = await request.formData();
  const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string"));
  const parsed = parseIntent(LoginActionSchema, { ...fields, intent: fields.intent ?? "password" });
  if (!parsed) return formFailure({ errors: { form: "Unknown action." }, values: submittedValues(form) });
  const origin = originOf(request);

  switch (parsed.intent) {
    case "password": {
      if (!parsed.success) return formFailure(parsed);
      const { error } = await supabase.auth.signInWithPassword({
        email: parsed.data.email,
        password: parsed.data.password,
      });
      if (error) return authFailure(describeAuthError(error), { intent: parsed.intent, values: parsed.values });
      throw redirect(safeRedirect(parsed.data.next));
    }
    case "magiclink":
    case "code": {
      if (!parsed.success) return formFailure(parsed);
      const failure = await sendSignInEmail(supabase, parsed.data.email, `${origin}${safeRedirect(parsed.data.next)}`);
      if (failure) return authFailure(failure, { intent: parsed.intent, values: parsed.values });
      return data({ intent: parsed.intent, sent: parsed.data.email });
    }
    case "resend": {
      // its answer shows with the password form it belongs to
      const intent = "password" as const;
      if (!parsed.success) return formFailure({ ...parsed, intent });
      const failure = await resendConfirmation(
        supabase,
        parsed.data.email,
        `${origin}${safeRedirect(parsed.data.next)}`,
      );
      if (failure) return authFailure(failure, { intent, values: parsed.values });
      return data({ intent, resent: parsed.data.email, values: parsed.values });
    }
  }
}

export default function Login() {
  const { next, providers } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const signupHref = next ? `/signup?${new URLSearchParams({ next })}` : "/signup";
  const sent = actionData && "sent" in actionData ? actionData : null;
  const failure = actionData && "errors" in actionData ? actionData : null;
  const codeSentTo = sent?.intent === "code" ? sent.sent : undefined;

  if (codeSentTo) return <CodeForm sentTo={codeSentTo} next={next} />;
  const notConfirmed = failure?.intent === "password" && "code" in failure && failure.code === "email_not_confirmed";
  const resent = actionData && "resent" in actionData ? actionData.resent : null;
  const emailValue = actionData && "values" in actionData ? actionData.values.email : undefined;
  return (
    <div className="auth-page">
      <h1>Log in</h1>
      <p className="lead">
        New to Teamboard? <Link to={signupHref}>Create an account</Link>
      </p>
      {resent ? (
        <div className="alert alert-success" role="status">
          We sent a new confirmation link to {resent}.
        </div>
      ) : null}
      {sent?.intent === "magiclink" ? (
        <div className="alert alert-success" role="status">
          Check your email: we sent a sign-in link to {sent.sent}.
        </div>
      ) : null}
      <div className="card">
        <ValidatedForm schema="LoginSchema" result={failure} intent="password">
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
        <ValidatedForm
          schema="EmailSignInSchema"
          result={failure?.intent === "code" || failure?.intent === "magiclink" ? failure : undefined}
        >
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
            <Form method="post" action="/login/oauth" key={provider}>
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
