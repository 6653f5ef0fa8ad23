import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert } from "~/components/form";
import { describeAuthError } from "~/lib/auth-errors.server";
import { requireUser } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { createServerClient } from "~/lib/supabase.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  await requireUser(client, request);
  return data(null, { headers: client.headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const client = createServerClient({ request, context });
  await requireUser(client, request);
  const scope = (await request.formData()).get("scope") === "global" ? "global" : "others";
  const { error } = await client.supabase.auth.signOut({ scope });
  if (error) {
    const failure = describeAuthError(error);
    return data({ errors: { form: failure.message } }, { status: failure.status, headers: client.headers });
  }
  if (scope === "global") {
    await setFlash(request, client.headers, { kind: "info", message: "You're logged out on every device." });
    throw redirect("/login", { headers: client.headers });
  }
  await setFlash(request, client.headers, { kind: "success", message: "Your other sessions are signed out." });
  throw redirect("/account/sessions", { headers: client.headers });
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
