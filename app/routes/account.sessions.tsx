import type { ActionFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { requireUser, signedInPage } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { redirect } from "~/lib/http.server";
import { requestClient } from "~/lib/supabase.server";

export const loader = signedInPage;

export async function action({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  await requireUser(request);
  const scope = (await request.formData()).get("scope") === "global" ? "global" : "others";
  const { error } = await supabase.auth.signOut({ scope });
  if (error) {
    const failure = describeAuthError(error);
    return data({ errors: { form: failure.message } }, { status: failure.status });
  }
  if (scope === "global") {
    await setFlash({ kind: "info", message: "You're logged out on every device." });
    throw redirect("/login");
  }
  await setFlash({ kind: "success", message: "Your other sessions are signed out." });
  throw redirect("/account/sessions");
}

export default function Sessions() {
  const actionData = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h1 id="sessions-title">Sessions</h1>
      {actionData?.errors.form ? <FormAlert>{actionData.errors.form}</FormAlert> : null}
      <p>
        Signed in on a computer you no longer use, or lost a phone? End those sessions here. They stop working as soon
        as their current access token runs out (at most an hour).
      </p>
      <div className="form-actions">
        <Form method="post">
          <input type="hidden" name="scope" value="others" />
          <button type="submit" className="button button-secondary">
            Sign out other sessions
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="scope" value="global" />
          <button type="submit" className="button button-danger">
            Sign out everywhere
          </button>
        </Form>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
