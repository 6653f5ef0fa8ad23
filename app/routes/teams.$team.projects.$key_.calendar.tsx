import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MonthCalendar } from "~/components/calendar/month-calendar";
import { ErrorPage } from "~/components/error-page";
import { ProjectHeader } from "~/components/project-header";
import { ProjectTabs } from "~/components/project-tabs";
import { requireUser } from "~/lib/auth.server";
import { ARCHIVED_MESSAGE } from "~/lib/board";
import { calendarMonth, MONTH_MESSAGE, parseMonth } from "~/lib/calendar";
import { calendarAction, readProjectCalendar } from "~/lib/calendar.server";
import { keepingTheForm, notFound, textResponse } from "~/lib/http.server";
import { useLiveData } from "~/lib/live";
import { can, FORBIDDEN_MESSAGE, permissionsOf } from "~/lib/permissions";
import { requestClient } from "~/lib/supabase.server";
import { requireProjectContext } from "~/lib/team-context.server";
import { pageTime } from "~/lib/time-zones.server";
import calendarStyles from "~/styles/calendar.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: calendarStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Calendar · ${data.project.name} · Teamboard` : "Calendar · Teamboard" },
];

/** The month named by `?month=` (this month in the person's zone when none), or a 400 page. */
async function requireMonth(request: Request) {
  const user = await requireUser(request);
  const month = parseMonth(new URL(request.url).searchParams.get("month"), pageTime(user.timeZone).today);
  if (!month) throw textResponse(MONTH_MESSAGE, 400);
  return calendarMonth(month);
}

export async function loader(args: LoaderFunctionArgs) {
  const { team: teamSlug, key } = args.params;
  if (!teamSlug || !key) throw notFound();
  const month = await requireMonth(args.request);
  // the project context and the month's tasks (named by the URL), side by side: one round trip
  const [ctx, calendar] = await Promise.all([
    requireProjectContext(args),
    readProjectCalendar(requestClient(), { teamSlug, projectKey: key }, month),
  ]);
  const { team, project, archived } = ctx;
  const permissions = permissionsOf(team.role, { archived });
  const tasks = calendar.tasks.map((task) => ({ ...task, movable: task.movable && permissions.editTasks }));
  return {
    team: { slug: team.slug },
    project: { id: project.id, key: project.key, name: project.name, description: project.description, archived },
    can: { editTasks: permissions.editTasks, manageProjects: permissions.manageProjects },
    month: month.month,
    tasks,
    capped: calendar.capped,
  };
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team, archived } = await requireProjectContext(args);
  return calendarAction(args.request, supabase, () =>
    !can(team.role, "editTasks") ? FORBIDDEN_MESSAGE : archived ? ARCHIVED_MESSAGE : null,
  );
}

export default function ProjectCalendar() {
  const { team, project, month, tasks, capped, can } = useLoaderData<typeof loader>();
  const basePath = `/teams/${team.slug}/projects/${project.key}`;
  // others' changes to this project's tasks show without a reload
  useLiveData("board", [{ table: "tasks", filter: `project_id=eq.${project.id}` }], { tasks: tasks.map((t) => t.id) });
  return (
    <div className="calendar-page">
      <ProjectHeader project={project} basePath={basePath} search="" can={can} />
      <ProjectTabs basePath={basePath} />
      {project.archived ? <p className="alert alert-info">{ARCHIVED_MESSAGE}</p> : null}
      <MonthCalendar month={month} tasks={tasks} capped={capped} />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
