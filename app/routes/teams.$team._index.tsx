import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { CATEGORIES, CATEGORY_LABELS, PRIORITY_LABELS, taskRef } from "~/lib/board";
import { isOverdue } from "~/lib/calendar";
import { backendError, notFound } from "~/lib/http.server";
import { requireTeamContext } from "~/lib/team-context.server";
import { teamOverview } from "~/lib/tasks.server";
import { usePageTime } from "~/lib/use-page-time";
import { unlessFormRejected } from "~/lib/revalidation";
import { Day } from "~/components/day";

/** A rejected form leaves the page as it is (lib/revalidation.ts). */
export const shouldRevalidate = unlessFormRejected;

export async function loader(args: LoaderFunctionArgs) {
  const { supabase, team } = await requireTeamContext(args);
  const { overview, error } = await teamOverview(supabase, team.id);
  if (error) {
    if (error.code === "PT404" || error.code === "P0002") throw notFound();
    throw backendError(error);
  }
  return { team: { slug: team.slug, name: team.name }, overview };
}

export default function TeamOverview() {
  const { team, overview } = useLoaderData<typeof loader>();
  const { today } = usePageTime();
  const base = `/teams/${team.slug}`;
  return (
    <div className="overview">
      <h1>{team.name}</h1>
      <section aria-labelledby="counts-title" className="card">
        <h2 id="counts-title">Tasks by status</h2>
        {/* each project names its own statuses; across projects they add up by what they mean */}
        <dl className="status-counts">
          {CATEGORIES.map((category) => (
            <div key={category} className={`status-count category-${category}`}>
              <dt>{CATEGORY_LABELS[category]}</dt>
              <dd>{overview.counts?.[category] ?? 0}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="mine-title" className="card">
        <h2 id="mine-title">My open tasks</h2>
        {overview.my_open_tasks.length === 0 ? (
          <p className="muted">Nothing assigned to you is open.</p>
        ) : (
          <ul className="task-list">
            {overview.my_open_tasks.map((task) => (
              <li key={task.id}>
                <Link to={`${base}/projects/${task.project_key}/tasks/${task.number}`}>
                  <span className="task-ref">{taskRef(task.project_key, task.number)}</span> {task.title}
                </Link>{" "}
                <span className="muted small">
                  <span className={`status-badge color-${task.status.color}`}>
                    <span className="swatch" aria-hidden="true" />
                    {task.status.name}
                  </span>
                  {task.priority !== "none" ? ` · ${PRIORITY_LABELS[task.priority]}` : ""}
                  {task.due_on ? (
                    <>
                      {" "}
                      · due <Day day={task.due_on} />
                    </>
                  ) : null}
                </span>
                {isOverdue({ due_on: task.due_on, open: true }, today) ? (
                  <>
                    {" "}
                    <span className="overdue-badge">Overdue</span>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
