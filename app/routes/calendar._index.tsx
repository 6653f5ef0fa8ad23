import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { MonthCalendar } from "~/components/calendar/month-calendar";
import { ErrorPage } from "~/components/error-page";
import { requireUser } from "~/lib/auth.server";
import { calendarMonth, MONTH_MESSAGE, parseMonth } from "~/lib/calendar";
import { calendarAction, readMyCalendar } from "~/lib/calendar.server";
import { keepingTheForm, textResponse } from "~/lib/http.server";
import { useLiveData } from "~/lib/live";
import { requestClient } from "~/lib/supabase.server";
import { pageTime } from "~/lib/time-zones.server";
import boardStyles from "~/styles/board.css?url";
import calendarStyles from "~/styles/calendar.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: boardStyles },
  { rel: "stylesheet", href: calendarStyles },
];

export const meta: MetaFunction = () => [{ title: "My calendar · Teamboard" }];

/** /calendar?month=YYYY-MM: the tasks assigned to me across all my teams, on their due dates (docs/product.md §12). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const month = parseMonth(new URL(request.url).searchParams.get("month"), pageTime(user.timeZone).today);
  if (!month) throw textResponse(MONTH_MESSAGE, 400);
  const calendar = await readMyCalendar(requestClient(), user.id, calendarMonth(month));
  return { userId: user.id, month, ...calendar };
}

/** A task moved to another day; row-level security decides whether this person may. */
export const action = keepingTheForm(submit);

async function submit({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return calendarAction(request, requestClient(), () => null);
}

export default function MyCalendar() {
  const { userId, month, tasks, capped } = useLoaderData<typeof loader>();
  // my tasks' changes show without a reload
  useLiveData("board", [{ table: "tasks", filter: `assignee_id=eq.${userId}` }], { tasks: tasks.map((t) => t.id) });
  return (
    <div className="calendar-page">
      <h1>My calendar</h1>
      <p className="muted">
        The tasks assigned to you in all your teams, on their due dates. Subscribe to them in another calendar app from{" "}
        <Link to="/account/calendar">your calendar feed</Link>.
      </p>
      <MonthCalendar month={month} tasks={tasks} capped={capped} showsAssigned />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
