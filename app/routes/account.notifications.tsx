import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert, SelectField, SubmitButton } from "~/components/form";
import { requireUser } from "~/lib/auth.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { backendError, backendUnavailableResult, keepingTheForm } from "~/lib/http.server";
import {
  EMAIL_SETTINGS,
  EMAIL_SETTING_LABELS,
  KIND_LABELS,
  NOTIFICATION_KINDS,
  type EmailSetting,
  type NotificationKind,
} from "~/lib/notifications";
import { readEmailSettings, saveEmailSettings } from "~/lib/notifications.server";
import { requestClient } from "~/lib/supabase.server";

export const meta: MetaFunction = () => [{ title: "Notification emails · Teamboard" }];

/**
 * /account/notifications (PRODUCT.md §10): for each kind of notification,
 * whether it is also emailed right away (within two minutes, several in that
 * time as one email), in a daily digest at 08:00, or not at all.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { error, settings } = await readEmailSettings(requestClient(), user.id);
  if (error) throw backendError(error);
  return { settings };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const values = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, String(form.get(kind) ?? "")]));
  const errors = Object.fromEntries(
    NOTIFICATION_KINDS.filter((kind) => !(EMAIL_SETTINGS as readonly string[]).includes(values[kind])).map((kind) => [
      kind,
      "Choose right away, daily digest or don't email.",
    ]),
  );
  if (Object.keys(errors).length > 0) return data({ errors, values }, { status: 400 });
  const { error } = await saveEmailSettings(requestClient(), user.id, values as Record<NotificationKind, EmailSetting>);
  if (error) return backendUnavailableResult(values);
  return redirectWithSuccess("Your email settings are saved.", "/account/notifications");
}

export default function NotificationEmails() {
  const { settings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors: Record<string, string> = result?.errors ?? {};
  const chosen = (kind: NotificationKind) => (result?.values[kind] as EmailSetting | undefined) ?? settings[kind];
  return (
    <section className="card" aria-labelledby="emails-title">
      <h1 id="emails-title">Notification emails</h1>
      {errors.form ? <FormAlert>{errors.form}</FormAlert> : null}
      <p>
        Everything shows in the app under the bell. Choose what is also emailed to you. Right away means within two
        minutes (several at once come as one email); the digest comes at 08:00 (UTC until you can set your time zone).
      </p>
      <Form method="post" className="email-settings">
        {NOTIFICATION_KINDS.map((kind) => (
          <SelectField
            key={kind}
            name={kind}
            label={KIND_LABELS[kind]}
            options={EMAIL_SETTINGS.map((setting) => ({ value: setting, label: EMAIL_SETTING_LABELS[setting] }))}
            value={chosen(kind)}
            error={errors[kind]}
          />
        ))}
        <SubmitButton className="button">Save email settings</SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
