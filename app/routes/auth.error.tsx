import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { authFailure, formFailure, originOf } from "~/lib/forms.server";
import { MESSAGES } from "~/lib/messages";
import { EmailSignInSchema, parseForm } from "~/lib/schemas";
import { sendSignInEmail } from "~/lib/sign-in.server";
import { requestClient } from "~/lib/supabase.server";
import { keepingTheForm } from "~/lib/http.server";

export const meta: MetaFunction = () => [{ title: "That link didn't work · Teamboard" }];

const REASONS = {
  expired: MESSAGES.linkExpired,
  other_browser: MESSAGES.otherBrowser,
  rate_limited: MESSAGES.tooManyRequests(60),
  invalid: "This link is incomplete. Copy the whole link from the email, or send a new one.",
} as const;
type Reason = keyof typeof REASONS;

export async function loader({ request }: LoaderFunctionArgs) {
  const param = new URL(request.url).searchParams.get("reason") ?? "expired";
  const reason: Reason = param in REASONS ? (param as Reason) : "expired";
  return data({ reason, message: REASONS[reason] }, { status: 400 });
}

/** A fresh sign-in link, right here. */
export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const result = parseForm(EmailSignInSchema, await request.formData());
  if (!result.success) return formFailure(result);
  const failure = await sendSignInEmail(supabase, result.data.email, `${originOf(request)}/teams`);
  if (failure) return authFailure(failure, { values: result.values });
  return data({ sent: result.data.email });
}

export default function AuthError() {
  const { message } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="auth-page">
      <h1>That link didn't work</h1>
      <div className="alert alert-error" role="alert">
        {message}
      </div>
      {actionData && "sent" in actionData ? (
        <div className="alert alert-success" role="status">
          We sent a new sign-in link to {actionData.sent}. Open it in this browser.
        </div>
      ) : (
        <div className="card">
          <h2>Get a new sign-in link</h2>
          <ValidatedForm schema="EmailSignInSchema" result={actionData}>
            <Field name="email" label="Email" type="email" autoComplete="email" />
            <SubmitButton className="button">Email me a new link</SubmitButton>
          </ValidatedForm>
        </div>
      )}
      <p>
        <Link to="/login">Log in</Link> · <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </div>
  );
}
