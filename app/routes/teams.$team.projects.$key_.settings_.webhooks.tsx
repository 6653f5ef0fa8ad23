import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, FormAlert, SelectField, SubmitButton, ValidatedForm, useFormErrors } from "~/components/form";
import { WEBHOOK_EVENTS, WebhookActionSchema } from "~/lib/connect.schemas";
import { formatDateTime } from "~/lib/dates";
import { writeFailure } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseIntent } from "~/lib/schemas";
import { boardPath, requireProjectContext } from "~/lib/team-context.server";
import { usePageTime } from "~/lib/use-page-time";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Webhooks · ${data.project.name} · Teamboard` : "Webhooks · Teamboard" },
];

interface Webhook {
  id: string;
  url: string;
  events: string[];
  format: "standard" | "slack";
  enabled: boolean;
  failures_in_row: number;
  retry_at: string | null;
  disabled_at: string | null;
  created_at: string;
}

interface Delivery {
  id: string;
  webhook_id: string;
  event: string;
  status: "pending" | "sending" | "delivered" | "failed";
  attempt: number;
  next_attempt_at: string | null;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
}

/**
 * /teams/:team/projects/:key/settings/webhooks (docs/product.md, Connecting
 * other tools): a project's webhooks and each one's last 100 deliveries, for
 * admins and the owner. A new webhook's secret is shown once, in the answer
 * to the post that made it (it lives in Vault; nothing reads it back here).
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireProjectContext(args, { need: "manageProjects" });
  const { supabase, project } = ctx;
  const [hooks, log] = await Promise.all([
    supabase
      .from("webhooks")
      .select("id, url, events, format, enabled, failures_in_row, retry_at, disabled_at, created_at")
      .eq("project_id", project.id)
      .order("created_at")
      .returns<Webhook[]>(),
    supabase
      .from("webhook_deliveries")
      .select(
        "id, webhook_id, event, status, attempt, next_attempt_at, response_status, duration_ms, error, created_at",
      )
      .eq("project_id", project.id)
      .order("created_at", { ascending: false })
      .limit(1000)
      .returns<Delivery[]>(),
  ]);
  if (hooks.error) throw backendError(hooks.error);
  if (log.error) throw backendError(log.error);
  return {
    project: { key: project.key, name: project.name },
    settingsPath: `${boardPath(ctx)}/settings`,
    webhooks: hooks.data.map((hook) => ({
      ...hook,
      deliveries: log.data.filter((d) => d.webhook_id === hook.id).slice(0, 100),
    })),
  };
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireProjectContext(args);
  const { supabase, team, project } = ctx;
  const parsed = parseIntent(WebhookActionSchema, await args.request.formData());
  if (!parsed) throw notFound();
  const { intent, values } = parsed;
  if (!can(team.role, "manageProjects")) return forbiddenResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);
  const fields = parsed.data;
  const here = `${boardPath(ctx)}/settings/webhooks`;
  switch (fields.intent) {
    case "create-webhook": {
      const events = WEBHOOK_EVENTS.filter((e) => fields[e.field]).map((e) => e.event);
      if (events.length === 0) return formFailure({ intent, errors: { events: "Choose at least one event." }, values });
      const { data: made, error } = await supabase.rpc("create_webhook", {
        project_id: project.id,
        url: fields.url,
        events,
        format: fields.format,
      });
      if (error) return writeFailure(error, { intent, values, field: "url" });
      return data({ intent: "created" as const, secret: (made as { secret: string }).secret });
    }
    case "toggle-webhook": {
      const { data: hook, error: readError } = await supabase
        .from("webhooks")
        .select("url, events, format")
        .eq("id", fields.webhookId)
        .maybeSingle<Pick<Webhook, "url" | "events" | "format">>();
      if (readError) throw backendError(readError);
      if (!hook) throw notFound();
      const on = fields.enabled === "true";
      const { error } = await supabase.rpc("update_webhook", {
        webhook_id: fields.webhookId,
        url: hook.url,
        events: hook.events,
        format: hook.format,
        enabled: on,
      });
      if (error) return writeFailure(error, { intent, values });
      await setFlash({ kind: "success", message: on ? "The webhook is on again." : "The webhook is off." });
      return redirect(here);
    }
    case "delete-webhook": {
      const { error } = await supabase.rpc("delete_webhook", { webhook_id: fields.webhookId });
      if (error) return writeFailure(error, { intent, values });
      await setFlash({ kind: "success", message: "The webhook is deleted." });
      return redirect(here);
    }
    case "resend-delivery": {
      const { error } = await supabase.rpc("resend_webhook_delivery", { delivery_id: fields.deliveryId });
      if (error) return writeFailure(error, { intent, values });
      await setFlash({ kind: "success", message: "Sent again: it shows at the top of the log." });
      return redirect(here);
    }
  }
}

const STATUS_WORDS: Record<Delivery["status"], string> = {
  pending: "Waiting",
  sending: "Sending",
  delivered: "Delivered",
  failed: "Failed",
};

export default function Webhooks() {
  const { project, settingsPath, webhooks } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { zone } = usePageTime();
  const secret = result && "secret" in result ? result.secret : null;
  const formError = result && "errors" in result && result.intent !== "create-webhook" ? result.errors.form : null;
  return (
    <div className="settings project-settings">
      <p className="back-to-board">
        <Link to={settingsPath}>
          <span aria-hidden="true">←</span> Back to the settings
        </Link>
      </p>
      <h1>
        <span className="project-key">{project.key}</span> {project.name}: webhooks
      </h1>
      {formError ? <FormAlert autoFocus>{formError}</FormAlert> : null}
      {secret ? (
        <div className="alert alert-success" role="status">
          <p>
            <label htmlFor="webhook-secret">The new webhook's signing secret</label>
          </p>
          <input id="webhook-secret" className="feed-address" readOnly value={secret} />
          <p>
            Copy it into the receiving tool now: it checks each request's <code>webhook-signature</code> with it
            (Standard Webhooks). It won't be shown again.
          </p>
        </div>
      ) : null}
      {webhooks.map((hook) => (
        <section className="card" key={hook.id} aria-label={`Webhook to ${hook.url}`}>
          <h2 className="webhook-url">{hook.url}</h2>
          <p className="muted">
            {hook.events.join(", ")} · {hook.format === "slack" ? "Slack-compatible" : "Standard Webhooks"} ·{" "}
            {hook.enabled
              ? hook.failures_in_row > 0
                ? `failing (${hook.failures_in_row} in a row), next try ${hook.retry_at ? formatDateTime(hook.retry_at, zone) : "soon"}`
                : "on"
              : hook.disabled_at && hook.failures_in_row >= 20
                ? `turned off after ${hook.failures_in_row} failures in a row, ${formatDateTime(hook.disabled_at, zone)}`
                : "off"}
          </p>
          <div className="form-actions">
            <Form method="post">
              <input type="hidden" name="intent" value="toggle-webhook" />
              <input type="hidden" name="webhookId" value={hook.id} />
              <input type="hidden" name="enabled" value={hook.enabled ? "false" : "true"} />
              <button type="submit" className="button button-secondary button-small">
                {hook.enabled ? "Turn off" : "Turn on"}
              </button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="delete-webhook" />
              <input type="hidden" name="webhookId" value={hook.id} />
              <button type="submit" className="button button-danger button-small">
                Delete
              </button>
            </Form>
          </div>
          <h3>Last deliveries</h3>
          {hook.deliveries.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <table className="delivery-log">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Time taken</th>
                  <th scope="col">
                    <span className="visually-hidden">Send again</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {hook.deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <time dateTime={d.created_at}>{formatDateTime(d.created_at, zone)}</time>
                    </td>
                    <td>{d.event}</td>
                    <td>
                      {STATUS_WORDS[d.status]}
                      {d.response_status ? ` (${d.response_status})` : ""}
                      {d.error && d.status !== "delivered" ? ` · ${d.error}` : ""}
                      {d.attempt > 1 ? ` · attempt ${d.attempt}` : ""}
                      {d.status === "pending" && d.next_attempt_at
                        ? ` · next try ${formatDateTime(d.next_attempt_at, zone)}`
                        : ""}
                    </td>
                    <td>{d.duration_ms === null ? "" : `${d.duration_ms} ms`}</td>
                    <td>
                      <Form method="post">
                        <input type="hidden" name="intent" value="resend-delivery" />
                        <input type="hidden" name="deliveryId" value={d.id} />
                        <button type="submit" className="button button-secondary button-small">
                          Send again
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
      <section className="card" aria-labelledby="new-webhook-title">
        <h2 id="new-webhook-title">Add a webhook</h2>
        <p className="muted">
          Teamboard POSTs JSON to the address when these things happen in this project, from the app, the API or
          anywhere else, signed with a secret shown once. Failed deliveries are tried again after about 1 minute, 5
          minutes, 30 minutes, 2 hours and 6 hours; after 20 failures in a row the webhook turns itself off.
        </p>
        <ValidatedForm schema="WebhookSchema" intent="create-webhook" result={secret ? null : result}>
          <input type="hidden" name="intent" value="create-webhook" />
          <Field name="url" label="Address" type="url" hint="Like https://example.com/teamboard." />
          <EventChoices />
          <SelectField
            name="format"
            label="Format"
            options={[
              { value: "standard", label: "Standard Webhooks (JSON)" },
              { value: "slack", label: 'Slack-compatible ({"text": …})' },
            ]}
          />
          <SubmitButton className="button">Add the webhook</SubmitButton>
        </ValidatedForm>
      </section>
    </div>
  );
}

function EventChoices() {
  const errors = useFormErrors();
  return (
    <fieldset className="field" aria-describedby={errors.events ? "events-error" : undefined}>
      <legend>Events</legend>
      {WEBHOOK_EVENTS.map((e) => (
        <label key={e.field} className="checkbox">
          <input type="checkbox" name={e.field} defaultChecked /> {e.label}
        </label>
      ))}
      {errors.events ? (
        <p id="events-error" className="field-error">
          {errors.events}
        </p>
      ) : null}
    </fieldset>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
