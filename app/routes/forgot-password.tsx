import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { signedOutPage } from "~/lib/auth.server";
import { authFailure, formFailure, originOf } from "~/lib/forms.server";
import { ForgotPasswordSchema, parseForm } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";
import { keepingTheForm } from "~/lib/http.server";

export const meta: MetaFunction = () => [{ title: "Forgot your password? · Teamboard" }];

export const loader = signedOutPage;

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const result = parseForm(ForgotPasswordSchema, await request.formData());
  if (!result.success) return formFailure(result);
  const { error } = await supabase.auth.resetPasswordForEmail(result.data.email, {
    redirectTo: `${originOf(request)}/reset-password`,
  });
  if (error) {
    const failure = describeAuthError(error);
    // Unknown addresses are not revealed; only throttling and outages are.
    if (failure.status !== 400) return authFailure(failure, { values: result.values });
  }
  return data({ sent: result.data.email });
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  if (actionData && "sent" in actionData) {
    return (
      <div className="auth-page card" role="status">
        <h1>Check your email</h1>
        <p>
          If <strong>{actionData.sent}</strong> has a Teamboard account, we sent it a link to choose a new password. The
          link works for an hour.
        </p>
        <p>
          <Link to="/login">Back to log in</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="auth-page">
      <h1>Forgot your password?</h1>
      <p className="lead">We'll email you a link to choose a new one.</p>
      <div className="card">
        <ValidatedForm schema="ForgotPasswordSchema" result={actionData}>
          <Field name="email" label="Email" type="email" autoComplete="email" />
          <SubmitButton className="button button-block">Send the link</SubmitButton>
        </ValidatedForm>
      </div>
      <p>
        <Link to="/login">Back to log in</Link>
      </p>
    </div>
  );
}
