import type { ActionFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { requireUser, signedInPage } from "~/lib/auth.server";
import { authFailure, formFailure, originOf } from "~/lib/forms.server";
import { EmailChangeSchema, parseForm } from "~/lib/schemas";
import { env } from "~/lib/env.server";
import { requestClient } from "~/lib/supabase.server";
import { keepingTheForm } from "~/lib/http.server";

export const loader = signedInPage;

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  const result = parseForm(EmailChangeSchema, await request.formData());
  if (!result.success) return formFailure(result);
  if (result.data.email === user.email) {
    return formFailure({ errors: { email: "That is already your email address." }, values: result.values });
  }
  const { error } = await supabase.auth.updateUser(
    { email: result.data.email },
    { emailRedirectTo: `${originOf(request)}/account/email` },
  );
  if (error) return authFailure(describeAuthError(error), { values: result.values });
  // with secure email change the current address gets a link of its own, and both must be followed
  const alsoTo = env.SUPABASE_SECURE_EMAIL_CHANGE === "true" ? (user.email ?? null) : null;
  return data({ sent: result.data.email, alsoTo });
}

export default function ChangeEmail() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="email-title">
      <h1 id="email-title">Email</h1>
      <p>
        Your email address is <strong>{email}</strong>.
      </p>
      {actionData && "sent" in actionData ? (
        <div className="alert alert-success" role="status">
          {actionData.alsoTo
            ? `We sent a confirmation link to ${actionData.sent} and one to ${actionData.alsoTo}. Your address changes when you have followed both.`
            : `We sent a confirmation link to ${actionData.sent}. Your address changes when you follow it.`}
        </div>
      ) : null}
      <ValidatedForm schema="EmailChangeSchema" result={actionData}>
        <Field name="email" label="New email address" type="email" autoComplete="email" />
        <SubmitButton className="button">Change email</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
