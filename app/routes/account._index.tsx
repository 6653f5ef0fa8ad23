import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useOutletContext, useRouteLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SelectField, SubmitButton, ValidatedForm } from "~/components/form";
import { requireUser } from "~/lib/auth.server";
import { backendError } from "~/lib/http.server";
import { Avatar } from "~/components/avatar";
import { AVATAR_TYPES } from "~/lib/avatars";
import { getProfile } from "~/lib/profiles.server";
import { requestClient } from "~/lib/supabase.server";
import { TIME_ZONE_OPTIONS } from "~/lib/time-zones.server";
import { THEME_LABELS, THEMES } from "~/lib/theme";
import type { loader as rootLoader } from "~/root";
import { unlessFormRejected } from "~/lib/revalidation";
import type { ProfileAnswer } from "./account";

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

export default function Profile() {
  const profile = useLoaderData<typeof loader>();
  // the form posts to the layout (see lib/profile-form.server.ts), which hands its answer down
  const actionData = useOutletContext<ProfileAnswer>();
  return (
    <>
      {/* the profile form sends no intent: an answer about the theme isn't its */}
      <ProfileCard profile={profile} actionData={isThemeAnswer(actionData) ? undefined : actionData} />
      <ThemeCard actionData={actionData} />
    </>
  );
}

function ProfileCard({
  profile,
  actionData,
}: {
  profile: ReturnType<typeof useLoaderData<typeof loader>>;
  actionData: ProfileAnswer;
}) {
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
      <ValidatedForm schema="ProfileSchema" result={actionData} action="/account" encType="multipart/form-data">
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
        <Form method="post" action="/account">
          <input type="hidden" name="intent" value="remove-avatar" />
          <button type="submit" className="link-button">
            Remove avatar
          </button>
        </Form>
      ) : null}
    </section>
  );
}

function isThemeAnswer(answer: unknown): boolean {
  return (answer as { intent?: unknown } | undefined)?.intent === "theme";
}

/** Light, dark or as the system (docs/product.md §13): this browser at once, and the account for the others. */
function ThemeCard({ actionData }: { actionData: unknown }) {
  const theme = useRouteLoaderData<typeof rootLoader>("root")?.theme ?? "system";
  return (
    <section className="card" aria-labelledby="theme-title">
      <h2 id="theme-title">Appearance</h2>
      <ValidatedForm intent="theme" result={actionData} action="/account">
        <SelectField
          name="theme"
          label="Theme"
          hint="As the system follows your device's light or dark setting."
          defaultValue={theme}
          options={THEMES.map((value) => ({ value, label: THEME_LABELS[value] }))}
        />
        <SubmitButton className="button button-secondary">Save theme</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
