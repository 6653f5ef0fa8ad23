import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  useLoaderData,
  useLocation,
  useNavigation,
  useOutlet,
  useParams,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { Board } from "~/components/board/board";
import { BoardFilters } from "~/components/board/board-filters";
import { PendingNotice } from "~/components/board/pending";
import { ErrorPage } from "~/components/error-page";
import { ProjectHeader } from "~/components/project-header";
import { MoveHelp } from "~/components/board/board";
import { ProjectTabs } from "~/components/project-tabs";
import { SavedViews } from "~/components/saved-views";
import { ARCHIVED_MESSAGE, boardSearch, filterSearch, parseBoardFilters, parseColumnLimits } from "~/lib/board";
import { requireUser } from "~/lib/auth.server";
import { loadBoard } from "~/lib/board.server";
import { isCommentsAction } from "~/lib/comments";
import { classifyDbError, writeFailure } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, backendUnavailableResult, keepingTheForm, notFound } from "~/lib/http.server";
import { useLiveData } from "~/lib/live";
import { formWasRejected } from "~/lib/revalidation";
import { isLiveRefresh } from "~/lib/live-refresh";
import { can, permissionsOf } from "~/lib/permissions";
import { setProjectArchived } from "~/lib/projects.server";
import { listSavedViews } from "~/lib/saved-views.server";
import { parseIntent } from "~/lib/schemas";
import { requireProjectContext, withTeamContext } from "~/lib/team-context.server";
import { BoardActionSchema } from "~/lib/tasks.schemas";
import { moveTask } from "~/lib/tasks.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} · Teamboard` : "Board · Teamboard" },
];

export async function loader(args: LoaderFunctionArgs) {
  const searchParams = new URL(args.request.url).searchParams;
  const filters = parseBoardFilters(searchParams);
  const limits = parseColumnLimits(searchParams);
  const key = args.params.key;
  // the team (shared with the layout) and the whole board, side by side: one round trip
  const user = await requireUser(args.request);
  const {
    team,
    read: [result, saved],
  } = await withTeamContext(args, (supabase) => {
    if (!key || !/^[A-Z]{2,10}$/.test(key)) throw notFound();
    return Promise.all([
      loadBoard(supabase, args.params.team!, key, filters, limits),
      listSavedViews(supabase, { teamSlug: args.params.team!, projectKey: key }, user.id),
    ]);
  });
  if (result.error) throw backendError(result.error);
  if (saved.error) throw backendError(saved.error);
  const board = result.board;
  if (!board) throw notFound();
  const { project } = board;
  const archived = project.archived_at !== null;
  return {
    team: { id: team.id, slug: team.slug, name: team.name },
    project: { id: project.id, key: project.key, name: project.name, description: project.description, archived },
    columns: board.columns,
    fields: board.fields,
    members: board.members,
    labels: board.labels,
    filters,
    savedViews: saved.views,
    userId: user.id,
    can: permissionsOf(team.role, { archived }),
  };
}

/**
 * Comments don't change the board: posting one (to the task's /comments
 * route) shouldn't re-read five columns, nor should paging through a task's
 * comments (a URL parameter the board doesn't read).
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => {
  const { currentUrl, nextUrl, currentParams, nextParams, formMethod, formAction, defaultShouldRevalidate } = args;
  // someone else's comment or attachment: the board needn't be read again
  if (isLiveRefresh(args, "task")) return false;
  if (formWasRejected(args)) return false;
  if (formMethod && formMethod !== "GET" && formAction && isCommentsAction(formAction)) return false;
  if (
    !formMethod &&
    currentUrl.href !== nextUrl.href &&
    currentParams.team === nextParams.team &&
    currentParams.key === nextParams.key &&
    boardSearch(currentUrl.searchParams) === boardSearch(nextUrl.searchParams)
  ) {
    return false;
  }
  return defaultShouldRevalidate;
};

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team, project, archived } = await requireProjectContext(args);
  const parsed = parseIntent(BoardActionSchema, await args.request.formData());
  if (!parsed) throw notFound();

  switch (parsed.intent) {
    case "archive":
    case "unarchive": {
      const { intent, values } = parsed;
      if (!can(team.role, "manageProjects")) return forbiddenResult({ intent, values });
      const { error } = await setProjectArchived(supabase, project.id, intent === "archive");
      if (error) return writeFailure(error, { intent, values });
      await setFlash({
        kind: "success",
        message:
          intent === "archive"
            ? `${project.name} is archived: read-only, and hidden from the sidebar.`
            : `${project.name} is active again.`,
      });
      return data({ intent, ok: true as const });
    }

    case "move": {
      const { intent, values } = parsed;
      if (!can(team.role, "editTasks")) return forbiddenResult({ intent, values });
      if (!parsed.success) return formFailure(parsed);
      if (!can(team.role, "editTasks", { archived }))
        return formFailure({ intent, errors: { form: ARCHIVED_MESSAGE }, values });
      const { error } = await moveTask(supabase, parsed.data.taskId, parsed.data.status, parsed.data.position);
      if (error) {
        // A fetcher's answer: a message for the board to show, never an error page over it.
        const { status, message } = classifyDbError(error);
        if (status === 503) return backendUnavailableResult(values, intent);
        if (status === 500) throw backendError(error);
        const text = status === 404 ? "That task doesn't exist any more." : message;
        return formFailure({ intent, errors: { form: text }, values }, status);
      }
      return data({ intent, ok: true as const });
    }
  }
  throw notFound();
}

export default function BoardLayout() {
  const { team, project, columns, fields, members, labels, filters, savedViews, can, userId } =
    useLoaderData<typeof loader>();
  const outlet = useOutlet();
  const params = useParams();
  const location = useLocation();
  const navigation = useNavigation();
  const basePath = `/teams/${team.slug}/projects/${project.key}`;
  const target = navigation.state === "idle" ? null : navigation.location;
  // the board itself reloads for its own URL (filters, show more); the panel for a task's
  const boardPending = !!target && target.pathname === basePath && target.search !== location.search;
  const panelPending =
    !!target && target.pathname.startsWith(`${basePath}/tasks/`) && target.pathname !== location.pathname;
  const memberNames = Object.fromEntries(members.map((m) => [m.id, m.name]));
  const memberAvatars = Object.fromEntries(members.map((m) => [m.id, m.avatarPath]));
  const search = boardSearch(new URLSearchParams(location.search));
  const openNumber = params.number && /^\d+$/.test(params.number) ? Number(params.number) : null;
  // others' changes to this project's tasks (their checklists, labels and relations write them too),
  // its statuses and the team's labels show without a reload; a task moved to another project leaves
  // (its update names the new project, so this filter doesn't hear it: its old key's row does)
  useLiveData(
    "board",
    [
      { table: "tasks", filter: `project_id=eq.${project.id}` },
      { table: "task_moves", filter: `from_project_id=eq.${project.id}` },
      { table: "project_statuses", filter: `project_id=eq.${project.id}` },
      { table: "labels", filter: `team_id=eq.${team.id}` },
    ],
    {
      tasks: columns.flatMap((c) => c.tasks.map((t) => t.id)),
      project_statuses: columns.map((c) => c.status.id),
      labels: labels.map((l) => l.id),
    },
  );

  return (
    <div className={`board-layout${outlet ? " with-panel" : ""}`}>
      <div className="board-main" aria-busy={boardPending || undefined}>
        <ProjectHeader
          project={project}
          basePath={basePath}
          search={search}
          can={can}
          extra={can.editTasks ? <MoveHelp /> : null}
        />
        <ProjectTabs basePath={basePath} search={filterSearch(filters)}>
          <SavedViews basePath={basePath} views={savedViews} canShare={can.shareViews} />
        </ProjectTabs>
        {project.archived ? <p className="alert alert-info">{ARCHIVED_MESSAGE}</p> : null}
        <BoardFilters
          filters={filters}
          members={members}
          labels={labels}
          userId={userId}
          basePath={basePath}
          formKey={location.search}
        />
        <PendingNotice pending={boardPending}>Updating the board…</PendingNotice>
        <Board
          columns={columns}
          projectKey={project.key}
          basePath={basePath}
          memberNames={memberNames}
          memberAvatars={memberAvatars}
          fields={fields}
          canMove={can.editTasks}
          openNumber={openNumber}
        />
      </div>
      {outlet ? (
        <aside className="task-panel" aria-label="Task" aria-busy={panelPending || undefined}>
          <PendingNotice pending={panelPending}>Loading the task…</PendingNotice>
          {outlet}
        </aside>
      ) : panelPending ? (
        <aside className="task-panel" aria-label="Task" aria-busy>
          <PendingNotice pending>Loading the task…</PendingNotice>
        </aside>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
