import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { isBackendUnavailable } from "~/lib/auth-errors.server";
import { requireUser } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure } from "~/lib/forms.server";
import { backendError, backendUnavailableResult } from "~/lib/http.server";
import { getProfile, isUsernameTaken, updateProfile } from "~/lib/profiles.server";
import { parseForm, ProfileSchema } from "~/lib/schemas";
import { createServerClient } from "~/lib/supabase.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const { data: profile, error } = await getProfile(client.supabase, user.id);
  if (error) throw backendError(error, client.headers);
  return data(
    { displayName: profile?.display_name ?? user.displayName ?? "", username: profile?.username ?? "", email: user.email },
    { headers: client.headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const result = parseForm(ProfileSchema, await request.formData());
  if (!result.success) return formFailure(result, client.headers);
  const { error } = await updateProfile(client.supabase, user.id, {
    display_name: result.data.displayName,
    username: result.data.username ?? null,
  });
  if (error) {
    if (isUsernameTaken(error)) return formFailure({ errors: { username: "That username is taken." }, values: result.values }, client.headers);
    if (isBackendUnavailable(error)) return backendUnavailableResult(result.values, client.headers);
    throw backendError(error, client.headers);
  }
  // The header shows the name from the access token's claims; keep them in step (a new token carries it).
  const { error: metaError } = await client.supabase.auth.updateUser({ data: { display_name: result.data.displayName } });
  if (!metaError) await client.supabase.auth.refreshSession();
  await setFlash(request, client.headers, { kind: "success", message: "Your profile is saved." });
  throw redirect("/account", { headers: client.headers });
}

export default function Profile() {
  const profile = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="profile-title">
      <h1 id="profile-title">Profile</h1>
      <p className="muted">Signed in as {profile.email}.</p>
      <ValidatedForm schema="ProfileSchema" result={actionData}>
        <Field name="displayName" label="Display name" autoComplete="name" defaultValue={profile.displayName} maxLength={60} />
        <Field name="username" label="Username" autoComplete="username" defaultValue={profile.username} hint="3–30 characters: a–z, 0–9 and _." maxLength={30} />
        <SubmitButton className="button">Save profile</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
