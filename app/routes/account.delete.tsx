import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, FormAlert, SubmitButton, ValidatedForm } from "~/components/form";
import { deleteAccount, ownedTeams } from "~/lib/account-deletion.server";
import { requireUser } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure } from "~/lib/forms.server";
import { backendError, backendUnavailableResult, keepingTheForm, redirect } from "~/lib/http.server";
import { submittedValues } from "~/lib/schemas";
import { clearAuthCookies, requestClient } from "~/lib/supabase.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  const { teams, error } = await ownedTeams(supabase, user.id);
  if (error) throw backendError(error);
  return { email: user.email, ownedTeams: teams };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  const form = await request.formData();
  const values = submittedValues(form);
  const result = await deleteAccount(supabase, user, String(form.get("email") ?? ""));
  if (!result.ok) {
    if (result.status === 503) {
      console.error("[account] deletion failed:", result.message);
      return backendUnavailableResult(values);
    }
    return formFailure({ errors: { [result.field]: result.message }, values }, result.status);
  }
  // the sessions are gone with the user; this browser forgets its cookies too
  clearAuthCookies();
  await setFlash({ kind: "info", message: "Your account is deleted." });
  throw redirect("/");
}

export default function DeleteAccount() {
  const { email, ownedTeams } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="delete-title">
      <h1 id="delete-title">Delete account</h1>
      <p>
        Your account, profile, avatar and every session are removed for good. Tasks, comments and files you added stay
        with your teams, shown as by “Deleted user”.
      </p>
      {ownedTeams.length > 0 ? (
        <FormAlert>
          You own{" "}
          {ownedTeams.map((t, i) => (
            <span key={t.slug}>
              {i > 0 ? ", " : ""}
              <Link to={`/teams/${t.slug}/settings`}>{t.name}</Link>
            </span>
          ))}
          . Transfer ownership in the team's settings before deleting your account.
        </FormAlert>
      ) : null}
      <ValidatedForm result={actionData}>
        <Field name="email" label={`Type your email address (${email}) to confirm`} type="email" autoComplete="off" />
        <SubmitButton className="button button-danger">Delete my account</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
