import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation, useOutlet, useParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { Board } from "~/components/board/board";
import { PendingNotice } from "~/components/board/pending";
import { ErrorPage } from "~/components/error-page";
import { requireUser } from "~/lib/auth.server";
import { ARCHIVED_MESSAGE, boardSearch, hasFilters, parseBoardFilters, parseColumnLimits } from "~/lib/board";
import { loadColumns } from "~/lib/board.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure } from "~/lib/forms.server";
import { backendError, backendUnavailableResult, notFound } from "~/lib/http.server";
import { requireProject, setProjectArchived } from "~/lib/projects.server";
import { parseForm } from "~/lib/schemas";
import { createServerClient } from "~/lib/supabase.server";
import { hasRole, permissionsOf } from "~/lib/teams";
import { classifyDbError, forbiddenResult, listMemberNames, requireTeam, writeFailure } from "~/lib/teams.server";
import { BoardMoveSchema } from "~/lib/tasks.schemas";
import { moveTask } from "~/lib/tasks.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.project.name} · Teamboard` : "Board · Teamboard" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const team = await requireTeam(client, user.id, params.team);
  const project = await requireProject(client, team.id, params.key);
  const searchParams = new URL(request.url).searchParams;
  const filters = parseBoardFilters(searchParams);
  const [board, members] = await Promise.all([
    loadColumns(client.supabase, project.id, filters, user.id, parseColumnLimits(searchParams)),
    listMemberNames(client.supabase, team.id),
  ]);
  if (board.error) throw backendError(board.error, client.headers);
  if (members.error) throw backendError(members.error, client.headers);
  const archived = project.archived_at !== null;
  const can = permissionsOf(team.role);
  return data(
    {
      team: { slug: team.slug, name: team.name },
      project: { key: project.key, name: project.name, description: project.description, archived },
      columns: board.columns,
      members: members.members,
      filters,
      userId: user.id,
      can: { ...can, editTasks: can.editTasks && !archived, deleteTasks: can.deleteTasks && !archived, comment: can.comment && !archived },
    },
    { headers: client.headers },
  );
}

/**
 * Comments don't change the board: posting one shouldn't re-read five
 * columns, nor should paging through a task's comments (a URL parameter the
 * board doesn't read).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, currentParams, nextParams, formMethod, formData, defaultShouldRevalidate }) => {
  const intent = String(formData?.get("intent") ?? "");
  if (formMethod && formMethod !== "GET" && (intent === "comment" || intent.startsWith("edit-comment:") || intent.startsWith("delete-comment:"))) return false;
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

export async function action({ request, context, params }: ActionFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const team = await requireTeam(client, user.id, params.team);
  const project = await requireProject(client, team.id, params.key);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");

  if (intent === "archive" || intent === "unarchive") {
    if (!hasRole(team.role, "admin")) return forbiddenResult(client.headers, { intent });
    const { error } = await setProjectArchived(client.supabase, project.id, intent === "archive");
    if (error) return writeFailure(error, { intent, values: {} }, client.headers);
    await setFlash(request, client.headers, {
      kind: "success",
      message: intent === "archive" ? `${project.name} is archived: read-only, and hidden from the sidebar.` : `${project.name} is active again.`,
    });
    return data({ intent, ok: true }, { headers: client.headers });
  }

  if (intent === "move") {
    const result = parseForm(BoardMoveSchema, form);
    if (!hasRole(team.role, "member")) return forbiddenResult(client.headers, { intent, values: result.values });
    if (!result.success) return formFailure({ intent, ...result }, client.headers);
    if (project.archived_at) return formFailure({ intent, errors: { form: ARCHIVED_MESSAGE }, values: result.values }, client.headers);
    const { error } = await moveTask(client.supabase, result.data.taskId, result.data.status, result.data.position);
    if (error) {
      // A fetcher's answer: a message for the board to show, never an error page over it.
      const { status, message } = classifyDbError(error);
      if (status === 503) return backendUnavailableResult(result.values, client.headers);
      if (status === 500) throw backendError(error, client.headers);
      const text = status === 404 ? "That task doesn't exist any more." : message;
      return formFailure({ intent, errors: { form: text }, values: result.values }, client.headers, status);
    }
    return data({ intent, ok: true }, { headers: client.headers });
  }

  throw notFound(client.headers);
}

export default function BoardLayout() {
  const { team, project, columns, members, filters, can, userId } = useLoaderData<typeof loader>();
  const outlet = useOutlet();
  const params = useParams();
  const location = useLocation();
  const navigation = useNavigation();
  const basePath = `/teams/${team.slug}/projects/${project.key}`;
  const target = navigation.state === "idle" ? null : navigation.location;
  // the board itself reloads for its own URL (filters, show more); the panel for a task's
  const boardPending = !!target && target.pathname === basePath && target.search !== location.search;
  const panelPending = !!target && target.pathname.startsWith(`${basePath}/tasks/`) && target.pathname !== location.pathname;
  const memberNames = Object.fromEntries(members.map((m) => [m.id, m.name]));
  const search = boardSearch(new URLSearchParams(location.search));
  const openNumber = params.number && /^\d+$/.test(params.number) ? Number(params.number) : null;

  return (
    <div className={`board-layout${outlet ? " with-panel" : ""}`}>
      <div className="board-main" aria-busy={boardPending || undefined}>
        <div className="board-header">
          <div>
            <h1>
              <span className="project-key">{project.key}</span> {project.name}
              {project.archived ? <span className="archived-badge">Archived</span> : null}
            </h1>
            {project.description ? <p className="muted plain-text">{project.description}</p> : null}
          </div>
          <div className="board-actions">
            {can.editTasks ? (
              <Link to={`${basePath}/tasks/new${search}`} className="button button-small">
                New task
              </Link>
            ) : null}
            {can.manageProjects ? (
              <Form method="post" className="inline-form">
                <input type="hidden" name="intent" value={project.archived ? "unarchive" : "archive"} />
                <button type="submit" className="button button-small button-secondary">
                  {project.archived ? "Unarchive project" : "Archive project"}
                </button>
              </Form>
            ) : null}
          </div>
        </div>
        {project.archived ? <p className="alert alert-info">{ARCHIVED_MESSAGE}</p> : null}
        <Form method="get" className="board-filters" aria-label="Filter tasks" key={location.search}>
          <div className="field">
            <label htmlFor="filter-assignee">Assignee</label>
            <select id="filter-assignee" name="assignee" defaultValue={filters.assignee === userId ? "me" : (filters.assignee ?? "")}>
              <option value="">Anyone</option>
              <option value="me">Me</option>
              <option value="none">Unassigned</option>
              {members
                .filter((m) => m.id !== userId)
                .map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-q">Text</label>
            <input id="filter-q" name="q" type="search" defaultValue={filters.q ?? ""} maxLength={200} />
          </div>
          <div className="field">
            <label htmlFor="filter-label">Label</label>
            <input id="filter-label" name="label" type="text" defaultValue={filters.label ?? ""} maxLength={24} />
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-small">
              Filter
            </button>
            {hasFilters(filters) ? (
              <Link to={basePath} className="small">
                Clear filters
              </Link>
            ) : null}
          </div>
        </Form>
        <PendingNotice pending={boardPending}>Updating the board…</PendingNotice>
        <Board columns={columns} projectKey={project.key} basePath={basePath} memberNames={memberNames} canMove={can.editTasks} openNumber={openNumber} />
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
