import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { BrowserTimeZone } from "~/components/auth/browser-time-zone";
import { Field, HiddenNext, SubmitButton, ValidatedForm } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { requireAnonymous } from "~/lib/auth.server";
import { authFailure, formFailure, originOf } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { MESSAGES } from "~/lib/messages";
import { safeRedirect } from "~/lib/safe-redirect";
import { parseForm, SignupSchema } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";
import { canonicalTimeZone } from "~/lib/time-zones.server";

export const meta: MetaFunction = () => [{ title: "Sign up · Teamboard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous();
  const query = new URL(request.url).searchParams;
  const next = query.get("next");
  // an invitation's "Sign up" link carries the invited address: the field starts with it, still editable
  const email = query.get("email")?.trim().slice(0, 320) || null;
  return { next: next ? safeRedirect(next) : null, email };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const result = parseForm(SignupSchema, await request.formData());
  if (!result.success) return formFailure(result);
  const { email, password, displayName } = result.data;
  const next = safeRedirect(result.data.next);
  // the browser's zone (a hidden field JavaScript fills), else UTC: a sign-up never fails over it
  const timeZone = canonicalTimeZone(result.data.timeZone) ?? "UTC";

  const { data: signUp, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      data: { display_name: displayName, time_zone: timeZone },
      emailRedirectTo: `${originOf(request)}${next}`,
    },
  });
  if (error) return authFailure(describeAuthError(error), { values: result.values });
  // For an address that is already confirmed, the backend answers with a
  // look-alike user without identities (so addresses can't be probed by API);
  // the form can say so, as docs/product.md §8 asks.
  if (signUp.user && signUp.user.identities?.length === 0) {
    return formFailure({
      errors: { email: MESSAGES.userAlreadyExists },
      values: result.values,
      extra: { code: "user_already_exists" },
    });
  }
  if (signUp.session) throw redirect(next);
  return data({ sent: email });
}

export default function Signup() {
  const { next, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (actionData && "sent" in actionData) {
    return (
      <div className="auth-page card" role="status">
        <h1>Check your email</h1>
        <p>
          We sent a confirmation link to <strong>{actionData.sent}</strong>. Follow it to finish signing up; it works
          for an hour.
        </p>
        <p className="muted">
          No email after a minute? Check your spam folder, or <Link to="/signup">try again</Link>.
        </p>
      </div>
    );
  }
  const loginHref = next ? `/login?${new URLSearchParams({ next })}` : "/login";
  return (
    <div className="auth-page">
      <h1>Create your account</h1>
      <p className="lead">
        Already have one? <Link to={loginHref}>Log in</Link>
      </p>
      <div className="card">
        <ValidatedForm schema="SignupSchema" result={actionData}>
          <HiddenNext next={next} />
          <BrowserTimeZone />
          <Field name="displayName" label="Your name" autoComplete="name" maxLength={60} />
          <Field
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            defaultValue={email ?? undefined}
            after={
              actionData && "code" in actionData && actionData.code === "user_already_exists" ? (
                <p className="field-after">
                  <Link to={loginHref}>Log in instead?</Link>
                </p>
              ) : null
            }
          />
          <Field
            name="password"
            label="Password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters, with a letter and a digit."
          />
          <SubmitButton className="button button-block" pendingText="Creating your account…">
            Sign up
          </SubmitButton>
        </ValidatedForm>
      </div>
    </div>
  );
}
