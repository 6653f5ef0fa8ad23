import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SelectField, SubmitButton, ValidatedForm } from "~/components/form";
import { isBackendUnavailable } from "~/lib/auth-errors.server";
import { requireUser } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure } from "~/lib/forms.server";
import { backendError, backendUnavailableResult, keepingTheForm, redirect } from "~/lib/http.server";
import { Avatar } from "~/components/avatar";
import { AVATAR_TYPES } from "~/lib/avatars";
import { getProfile, isUsernameTaken, removeAvatar, saveProfile } from "~/lib/profiles.server";
import { parseForm, ProfileSchema } from "~/lib/schemas";
import { chosenFiles } from "~/lib/storage.server";
import { requestClient } from "~/lib/supabase.server";
import { canonicalTimeZone, TIME_ZONE_MESSAGE, TIME_ZONE_OPTIONS } from "~/lib/time-zones.server";
import { unlessFormRejected } from "~/lib/revalidation";

/** A rejected form leaves the page as it is (lib/revalidation.ts). */
export const shouldRevalidate = unlessFormRejected;

export async function loader({ request }: LoaderFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  const { data: profile, error } = await getProfile(supabase, user.id);
  if (error) throw backendError(error);
  return {
    displayName: profile?.display_name ?? user.displayName ?? "",
    username: profile?.username ?? "",
    email: user.email,
    avatarPath: profile?.avatar_path ?? null,
    timeZone: profile?.time_zone ?? user.timeZone,
    // the server's own list (Node's ICU): the browser never needs Intl to show it
    timeZones: TIME_ZONE_OPTIONS,
  };
}

/** A multipart body larger than this is not read (a 2 MB avatar plus a form is far below it). */
const MAX_BODY_BYTES = 25 * 1024 * 1024;

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const supabase = requestClient();
  const user = await requireUser(request);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) {
    return formFailure({ errors: { avatar: "The avatar is larger than 2 MB." }, values: {} });
  }
  const form = await request.formData();
  if (form.get("intent") === "remove-avatar") {
    const removed = await removeAvatar(supabase, user.id);
    if (removed.error) {
      if (isBackendUnavailable(removed.error)) return backendUnavailableResult({}, "remove-avatar");
      throw backendError(removed.error);
    }
    await supabase.auth.refreshSession();
    await setFlash({ kind: "success", message: "Your avatar is removed." });
    throw redirect("/account");
  }
  const result = parseForm(ProfileSchema, form);
  if (!result.success) return formFailure(result);
  const timeZone = result.data.timeZone === undefined ? undefined : canonicalTimeZone(result.data.timeZone);
  if (timeZone === null) return formFailure({ errors: { timeZone: TIME_ZONE_MESSAGE }, values: result.values });
  const saved = await saveProfile(supabase, user.id, {
    displayName: result.data.displayName,
    username: result.data.username,
    avatar: chosenFiles(form, "avatar")[0] ?? null,
    timeZone,
  });
  if (saved.field) return formFailure({ errors: { [saved.field]: saved.message }, values: result.values });
  if (saved.error) {
    if (isUsernameTaken(saved.error))
      return formFailure({ errors: { username: "That username is taken." }, values: result.values });
    if (isBackendUnavailable(saved.error)) return backendUnavailableResult(result.values);
    throw backendError(saved.error);
  }
  // The header shows the name and avatar from the access token's claims; a refreshed token carries the new ones.
  await supabase.auth.refreshSession();
  await setFlash({ kind: "success", message: "Your profile is saved." });
  throw redirect("/account");
}

export default function Profile() {
  const profile = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="profile-title">
      <h1 id="profile-title">Profile</h1>
      <p className="muted">Signed in as {profile.email}.</p>
      <div className="with-avatar" data-current-avatar>
        <Avatar path={profile.avatarPath} name={profile.displayName || profile.email} size={64} />
        <span className="muted">
          {profile.avatarPath ? "Your avatar" : "No avatar yet: your initials show instead."}
        </span>
      </div>
      <ValidatedForm schema="ProfileSchema" result={actionData} encType="multipart/form-data">
        <Field
          name="displayName"
          label="Display name"
          autoComplete="name"
          defaultValue={profile.displayName}
          maxLength={60}
        />
        <Field
          name="username"
          label="Username"
          autoComplete="username"
          defaultValue={profile.username}
          hint="3–30 characters: a–z, 0–9 and _."
          maxLength={30}
          autoCapitalize="none"
          spellCheck={false}
        />
        <Field
          name="avatar"
          label="New avatar"
          type="file"
          accept={Object.keys(AVATAR_TYPES).join(",")}
          hint="PNG, JPEG, WebP or GIF, up to 2 MB."
        />
        <SelectField
          name="timeZone"
          label="Time zone"
          hint="Dates and times are shown in it, and due-date reminders come at 08:00 in it."
          options={profile.timeZones}
          defaultValue={profile.timeZone}
        />
        <SubmitButton className="button">Save profile</SubmitButton>
      </ValidatedForm>
      {profile.avatarPath ? (
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="remove-avatar" />
          <button type="submit" className="link-button">
            Remove avatar
          </button>
        </Form>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
