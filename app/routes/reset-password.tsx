import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { getUser } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { authFailure, formFailure } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { parseForm, ResetPasswordSchema } from "~/lib/schemas";
import { requestClient } from "~/lib/supabase.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Teamboard" }];

/** Reached from a recovery link (which signed this browser in for recovery). */
export async function loader() {
  const user = await getUser();
  if (!user) {
    await setFlash({
      kind: "info",
      message: "Your reset link has run out. Ask for a new one here.",
    });
    throw redirect("/forgot-password");
  }
  return { email: user.email };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const user = await getUser();
  if (!user) throw redirect("/forgot-password");
  const result = parseForm(ResetPasswordSchema, await request.formData());
  if (!result.success) return formFailure(result);
  const { error } = await supabase.auth.updateUser({ password: result.data.password });
  if (error) return authFailure(describeAuthError(error), { values: result.values });
  await setFlash({ kind: "success", message: "Your new password is saved." });
  throw redirect("/teams");
}

export default function ResetPassword() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="auth-page">
      <h1>Choose a new password</h1>
      <p className="lead">For {email}.</p>
      <div className="card">
        <ValidatedForm schema="ResetPasswordSchema" result={actionData}>
          <input type="hidden" name="username" autoComplete="username" value={email} />
          <Field
            name="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters, with a letter and a digit."
          />
          <Field name="confirm" label="New password, again" type="password" autoComplete="new-password" />
          <SubmitButton className="button button-block">Save the new password</SubmitButton>
        </ValidatedForm>
      </div>
    </div>
  );
}
