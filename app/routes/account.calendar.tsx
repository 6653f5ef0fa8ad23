import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert } from "~/components/form";
import { requireUser } from "~/lib/auth.server";
import { formatDateTime } from "~/lib/dates";
import { classifyDbError } from "~/lib/db-errors.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { originOf } from "~/lib/forms.server";
import { backendError, backendUnavailableResult, keepingTheForm } from "~/lib/http.server";
import { requestClient } from "~/lib/supabase.server";
import { usePageTime } from "~/lib/use-page-time";

export const meta: MetaFunction = () => [{ title: "Calendar feed · Teamboard" }];

/** Whether the person has a feed, and since when (the address itself is never stored: only its hash). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { data: feed, error } = await requestClient()
    .from("calendar_feeds")
    .select("created_at")
    .eq("user_id", user.id)
    .maybeSingle<{ created_at: string }>();
  if (error) throw backendError(error);
  return { createdAt: feed?.created_at ?? null };
}

/**
 * `reset`: a new address (the first one, or one replacing the old, which
 * then answers 404), shown in the answer once. `off`: no address at all.
 */
export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const intent = (await request.formData()).get("intent");
  const supabase = requestClient();
  if (intent === "off") {
    const { error } = await supabase.from("calendar_feeds").delete().eq("user_id", user.id);
    if (error) return failure(error);
    return redirectWithSuccess("Your calendar feed is off: its address answers no more.", "/account/calendar");
  }
  if (intent !== "reset") return data({ errors: { form: "That isn't something this page does." } }, { status: 404 });
  const { data: token, error } = await supabase.rpc("reset_calendar_feed");
  if (error) return failure(error);
  return data({ address: `${originOf(request)}/calendar/${token}.ics` });
}

function failure(error: { code?: string; message?: string }) {
  const { status, message } = classifyDbError(error);
  if (status === 503) return backendUnavailableResult({});
  if (status === 500) throw backendError(error);
  return data({ errors: { form: message } }, { status });
}

export default function CalendarFeed() {
  const { createdAt } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { zone } = usePageTime();
  const address = result && "address" in result ? result.address : null;
  const problem = result && "errors" in result ? result.errors.form : null;
  return (
    <section className="card" aria-labelledby="feed-title">
      <h1 id="feed-title">Calendar feed</h1>
      <p>
        Subscribe to the tasks assigned to you in any calendar app (Google Calendar, Apple Calendar, Outlook…): each
        task with a due date shows as an all-day event on that day, from 30 days ago on, and opens the task here.
      </p>
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      {address ? (
        <div className="alert alert-success" role="status">
          <p>
            <label htmlFor="feed-address">Your calendar address</label>
          </p>
          <input id="feed-address" className="feed-address" readOnly value={address} />
          <p>
            Copy it into your calendar app now (“subscribe by URL” or “from internet”). Anyone with it can see these
            tasks, so keep it to yourself. We keep only a fingerprint of it and can't show it again: if you lose it,
            reset the address.
          </p>
        </div>
      ) : createdAt ? (
        <p>
          Your feed's address was made on <time dateTime={createdAt}>{formatDateTime(createdAt, zone)}</time>. It is
          shown only once; if you lost it, or someone else has it, reset it: the old address stops working at once.
        </p>
      ) : (
        <p>You have no calendar address yet.</p>
      )}
      <div className="form-actions">
        <Form method="post">
          <input type="hidden" name="intent" value="reset" />
          <button type="submit" className="button">
            {createdAt || address ? "Reset the address" : "Make my calendar address"}
          </button>
        </Form>
        {createdAt || address ? (
          <Form method="post">
            <input type="hidden" name="intent" value="off" />
            <button type="submit" className="button button-secondary">
              Turn the feed off
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
