import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { actorName, describeEvent } from "~/lib/activity";
import { listTeamActivity, listTeamPeople, listTeamProjectKeys } from "~/lib/activity.server";
import { encodeTimelineCursor, parseTimelineCursor } from "~/lib/comments";
import { formatAgo, formatDateTime } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import { backendError } from "~/lib/http.server";
import { withTeamContext } from "~/lib/team-context.server";
import { WithDates } from "~/components/day";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Activity · ${data.team.name} · Teamboard` : "Activity · Teamboard" },
];

/**
 * /teams/:team/activity (docs/product.md §10): what happened to the team's tasks,
 * newest first, 50 a page, filtered by `?project=<key>` and
 * `?person=<username>` (a filter that matches nothing shows nothing). Its
 * three reads go beside the team lookup, one round trip.
 */
export async function loader(args: LoaderFunctionArgs) {
  const params = new URL(args.request.url).searchParams;
  const project = params.get("project")?.trim().toUpperCase() || null;
  const person = params.get("person")?.trim().toLowerCase() || null;
  const before = parseTimelineCursor(params, "before");
  const { team, read } = await withTeamContext(args, (supabase) =>
    Promise.all([
      listTeamActivity(supabase, args.params.team!, { project, person, before }),
      listTeamPeople(supabase, args.params.team!),
      listTeamProjectKeys(supabase, args.params.team!),
    ]),
  );
  const [activity, people, projects] = read;
  const error = activity.error ?? people.error ?? projects.error;
  if (error) throw backendError(error);
  const last = activity.events.at(-1);
  const names = new Map(people.people.map((p) => [p.id, p.name]));
  // in words here, so the browser needs no wording code
  const events = activity.events.map((event) => {
    // a deleted task's events stay, named as the task was when it went (no link: it is gone)
    const task = event.task ?? { number: event.task_number ?? 0, title: event.task_title ?? "" };
    const ref = `${event.project.key}-${task.number}`;
    return {
      id: event.id,
      kind: event.kind,
      created_at: event.created_at,
      actor_id: event.actor_id,
      ref,
      // a task moved away is named by its old key there, which still leads to it (§18)
      path:
        event.task || (event.data as { changes?: { project?: unknown } }).changes?.project
          ? `/teams/${team.slug}/projects/${event.project.key}/tasks/${task.number}`
          : null,
      who: actorName(event),
      what: describeEvent(event, { names, subject: `${ref} ${task.title}` }),
    };
  });
  return {
    team: { slug: team.slug, name: team.name },
    events,
    next: activity.hasMore && last ? encodeTimelineCursor(last) : null,
    olderPage: before !== null,
    people: people.people,
    projects: projects.projects,
    filters: { project, person },
    now: new Date().toISOString(),
  };
}

export default function TeamActivity() {
  const { team, events, next, olderPage, people, projects, filters, now } = useLoaderData<typeof loader>();
  const { zone } = usePageTime();
  const base = `/teams/${team.slug}`;
  const filterSearch = new URLSearchParams();
  if (filters.project) filterSearch.set("project", filters.project);
  if (filters.person) filterSearch.set("person", filters.person);
  const withFilters = (extra: Record<string, string> = {}) => {
    const search = new URLSearchParams(filterSearch);
    for (const [k, v] of Object.entries(extra)) search.set(k, v);
    const text = search.toString();
    return `${base}/activity${text ? `?${text}` : ""}`;
  };
  return (
    <section aria-labelledby="activity-title" className="activity-page">
      <h1 id="activity-title">Activity</h1>
      <Form method="get" className="activity-filters" aria-label="Filter the activity">
        <label>
          Project{" "}
          <select name="project" defaultValue={filters.project ?? ""}>
            <option value="">All projects</option>
            {projects.map((p) => (
              <option key={p.key} value={p.key}>
                {p.key} · {p.name}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          Person{" "}
          <select name="person" defaultValue={filters.person ?? ""}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.username}>
                {p.name}
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit" className="button button-small button-secondary">
          Show
        </button>
      </Form>
      {events.length === 0 ? (
        <p className="muted">{olderPage ? "Nothing earlier." : "Nothing has happened here yet."}</p>
      ) : (
        <ol className="activity-list">
          {events.map((event) => (
            <li key={event.id} data-event-kind={event.kind}>
              <strong>{event.who}</strong> <WithDates text={event.what} />{" "}
              {event.path ? <Link to={event.path}>Open {event.ref}</Link> : <span className="muted">(deleted)</span>}
              <span className="muted small">
                {" · "}
                <time dateTime={event.created_at} title={formatDateTime(event.created_at, zone)}>
                  {formatAgo(event.created_at, now, zone)}
                </time>
              </span>
            </li>
          ))}
        </ol>
      )}
      {next || olderPage ? (
        <nav className="pager" aria-label="Activity pages">
          {olderPage ? <Link to={withFilters()}>Newest</Link> : null}
          {next && olderPage ? " · " : null}
          {next ? <Link to={withFilters({ before: next })}>Older</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
