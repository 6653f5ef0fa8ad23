import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { requireUser, signedInPage } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { authFailure, formFailure } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { parseForm, PasswordChangeSchema } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";

export const loader = signedInPage;

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  await requireUser(request);
  const result = parseForm(PasswordChangeSchema, await request.formData());
  if (!result.success) return formFailure(result);
  const { error } = await supabase.auth.updateUser({ password: result.data.password });
  if (error) return authFailure(describeAuthError(error), { values: result.values });
  await setFlash({ kind: "success", message: "Your new password is saved." });
  throw redirect("/account/password");
}

export default function ChangePassword() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="password-title">
      <h1 id="password-title">Password</h1>
      <ValidatedForm schema="PasswordChangeSchema" result={actionData}>
        <input type="hidden" name="username" autoComplete="username" value={email} />
        <Field
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters, with a letter and a digit."
        />
        <Field name="confirm" label="New password, again" type="password" autoComplete="new-password" />
        <SubmitButton className="button">Change password</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
