import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert, SubmitButton } from "~/components/form";
import { requireUser } from "~/lib/auth.server";
import { encodeTimelineCursor, parseTimelineCursor } from "~/lib/comments";
import { formatAgo, formatDateTime } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import { redirectWithSuccess } from "~/lib/flash.server";
import { backendError, keepingTheForm } from "~/lib/http.server";
import { dueReminderWords, notificationVerb } from "~/lib/notifications";
import { listNotifications, markAllRead, type NotificationView } from "~/lib/notifications.server";
import { requestClient } from "~/lib/supabase.server";
import { plainExcerpts } from "~/lib/text.server";

export const meta: MetaFunction = () => [{ title: "Notifications · Teamboard" }];

/**
 * /notifications (docs/product.md §10): newest first, all or `?show=unread`, 50 a
 * page (`?before=<created_at>_<id>` for the next); each opens its task
 * through /notifications/:id, which marks it read. "Mark all as read".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const unreadOnly = params.get("show") === "unread";
  const before = parseTimelineCursor(params, "before");
  const supabase = requestClient();
  const { error, notifications, hasMore } = await listNotifications(supabase, user.id, { unreadOnly, before });
  if (error) throw backendError(error);
  const last = notifications.at(-1);
  // a comment's words as plain text, its mentions as names (issue 42 §11)
  const quoted = notifications.filter((n) => n.comment);
  const quotes = await plainExcerpts(
    supabase,
    quoted.map((n) => ({ teamSlug: n.task.project.team.slug, text: n.comment!.body })),
    200,
  );
  const quoteOf = new Map(quoted.map((n, i) => [n.id, quotes[i]]));
  return {
    notifications: notifications.map(({ comment, ...n }) => ({ ...n, quote: comment ? quoteOf.get(n.id)! : null })),
    unreadOnly,
    olderPage: before !== null,
    next: hasMore && last ? encodeTimelineCursor(last) : null,
    now: new Date().toISOString(),
  };
}

export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { error } = await markAllRead(requestClient(), user.id);
  if (error) throw backendError(error);
  const show = new URL(request.url).searchParams.get("show") === "unread" ? "?show=unread" : "";
  return redirectWithSuccess("All your notifications are marked as read.", `/notifications${show}`);
}

export default function Notifications() {
  const { notifications, unreadOnly, olderPage, next, now } = useLoaderData<typeof loader>();
  const show = unreadOnly ? "show=unread&" : "";
  // the backend was down when "Mark all as read" was sent (keepingTheForm)
  const result = useActionData<typeof action>();
  const refused = result && "errors" in result ? result.errors.form : null;
  return (
    <section className="card notifications" aria-labelledby="notifications-title">
      <div className="page-header">
        <h1 id="notifications-title">Notifications</h1>
        <Form method="post" action={`/notifications${unreadOnly ? "?show=unread" : ""}`}>
          {refused ? <FormAlert>{refused}</FormAlert> : null}
          <SubmitButton className="button button-small button-secondary">Mark all as read</SubmitButton>
        </Form>
      </div>
      <nav aria-label="Which notifications" className="tabs">
        <Link to="/notifications" aria-current={unreadOnly ? undefined : "page"}>
          All
        </Link>
        <Link to="/notifications?show=unread" aria-current={unreadOnly ? "page" : undefined}>
          Unread
        </Link>
      </nav>
      {notifications.length === 0 ? (
        <p className="muted">{unreadOnly ? "Nothing unread." : "No notifications yet."}</p>
      ) : (
        <ol className="notification-list">
          {notifications.map((n) => (
            <NotificationItem key={n.id} notification={n} now={now} />
          ))}
        </ol>
      )}
      {next || olderPage ? (
        <p className="pager">
          {olderPage ? <Link to={`/notifications${unreadOnly ? "?show=unread" : ""}`}>Newest</Link> : null}
          {next && olderPage ? " · " : null}
          {next ? <Link to={`/notifications?${show}before=${encodeURIComponent(next)}`}>Older</Link> : null}
        </p>
      ) : null}
    </section>
  );
}

type ListedNotification = Omit<NotificationView, "comment"> & { quote: string | null };

function NotificationItem({ notification: n, now }: { notification: ListedNotification; now: string }) {
  const { zone, today } = usePageTime();
  const ref = `${n.task.project.key}-${n.task.number}`;
  const actor = n.actor?.display_name ?? (n.actor_id ? "A former member" : "Someone");
  return (
    <li className={n.read_at ? "notification" : "notification unread"}>
      <Link to={`/notifications/${n.id}`}>
        {n.read_at ? null : <span className="visually-hidden">Unread: </span>}
        {n.kind === "due_date" ? (
          <>
            <span className="task-ref">{ref}</span> {n.task.title} {dueReminderWords(n.task.due_on, today)}
          </>
        ) : n.kind === "webhook_off" ? (
          <>
            {notificationVerb(n.kind, n.event)} <span className="task-ref">{ref}</span> {n.task.title}
          </>
        ) : (
          <>
            <strong>{actor}</strong> {notificationVerb(n.kind, n.event)} <span className="task-ref">{ref}</span>{" "}
            {n.task.title}
          </>
        )}
      </Link>
      {n.quote ? <p className="muted small notification-quote">{n.quote}</p> : null}
      <p className="muted small">
        {n.task.project.team.name} ·{" "}
        <time dateTime={n.created_at} title={formatDateTime(n.created_at, zone)}>
          {formatAgo(n.created_at, now, zone)}
        </time>
      </p>
    </li>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
