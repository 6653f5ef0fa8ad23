import type { ActionFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert } from "~/components/form";
import { requireUser, signedInPage } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { endSessions } from "~/lib/sign-out.server";

/**
 * /account/sessions: sign out every other session, or every session this
 * one included. One form, so a refusal (the backend down or busy) comes back
 * with the person's choice still chosen and says that nothing was signed out.
 */
export const loader = signedInPage;

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const scope = (await request.formData()).get("scope") === "global" ? "global" : "others";
  const failure = await endSessions(scope);
  if (failure) {
    const message = `Nothing was signed out. ${failure.message}`;
    return data({ errors: { form: message }, values: { scope } }, { status: failure.status });
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
  const chosen = actionData?.values.scope ?? "others";
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h1 id="sessions-title">Sessions</h1>
      {actionData?.errors.form ? <FormAlert autoFocus>{actionData.errors.form}</FormAlert> : null}
      <p>
        Signed in on a computer you no longer use, or lost a phone? End those sessions here. They stop working as soon
        as their current access token runs out (at most an hour).
      </p>
      <Form method="post">
        <fieldset className="choices">
          <legend>Which sessions?</legend>
          <label>
            <input type="radio" name="scope" value="others" defaultChecked={chosen === "others"} /> Every other session
            (this one stays signed in)
          </label>
          <label>
            <input type="radio" name="scope" value="global" defaultChecked={chosen === "global"} /> Every session, this
            one too
          </label>
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="button button-danger">
            Sign out
          </button>
        </div>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
