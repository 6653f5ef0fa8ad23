import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert, SubmitButton } from "~/components/form";
import { backendError, keepingTheForm } from "~/lib/http.server";
import { KIND_TOPICS, type NotificationKind } from "~/lib/notifications";
import { unsubscribe, unsubscribeLinkStatus } from "~/lib/notifications.server";
import { requestClient } from "~/lib/supabase.server";

export const meta: MetaFunction = () => [{ title: "Unsubscribe · Teamboard" }, { name: "robots", content: "noindex" }];

const ALREADY = "You're already unsubscribed from these emails.";
const UNKNOWN = "This unsubscribe link is not valid. You can choose which emails you get in your account.";

function kindsInWords(kinds: NotificationKind[] = []) {
  return kinds.map((k) => KIND_TOPICS[k]);
}

/**
 * The unsubscribe link of every notification email (docs/product.md §10): works
 * without signing in (the token is the credential; only its hash is
 * stored). Opening it changes nothing (mail scanners open links); its button
 * posts, and so does a mail client's one-click unsubscribe (RFC 8058: POST
 * `List-Unsubscribe=One-Click` to the List-Unsubscribe address, this one).
 * Used twice, it says so.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const { error, result } = await unsubscribeLinkStatus(requestClient(), params.token ?? "");
  if (error) throw backendError(error);
  const status = result?.status ?? "unknown";
  return data({ status, kinds: kindsInWords(result?.kinds) }, { status: status === "unknown" ? 404 : 200 });
}

export const action = keepingTheForm(submit);

async function submit({ params }: ActionFunctionArgs) {
  const { error, result } = await unsubscribe(requestClient(), params.token ?? "");
  if (error) throw backendError(error);
  const status = result?.status ?? "unknown";
  return data({ status, kinds: kindsInWords(result?.kinds) }, { status: status === "unknown" ? 404 : 200 });
}

export default function Unsubscribe() {
  const link = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  // the backend was down: the question stays, with the message beside its button
  const kept = done && "errors" in done ? done.errors.form : null;
  const { status, kinds } = done && "status" in done ? done : link;
  return (
    <section className="card narrow" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">Unsubscribe</h1>
      {status === "unknown" ? <p role="status">{UNKNOWN}</p> : null}
      {status === "already" ? <p role="status">{ALREADY}</p> : null}
      {status === "unsubscribed" ? (
        <p role="status">You're unsubscribed. We won't email you about {kinds.join(" or ")} any more.</p>
      ) : null}
      {status === "subscribed" ? (
        <Form method="post">
          <p>Stop the emails about {kinds.join(" and ")}? You'll still see them under the bell in Teamboard.</p>
          {kept ? <FormAlert>{kept}</FormAlert> : null}
          <SubmitButton className="button">Unsubscribe</SubmitButton>
        </Form>
      ) : (
        <p className="muted">
          You can choose which emails you get, any time, in <Link to="/account/notifications">your account</Link>.
        </p>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
