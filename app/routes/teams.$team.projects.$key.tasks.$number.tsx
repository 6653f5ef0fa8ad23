import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { FormAlert, isFormFailure } from "~/components/form";
import { CommentList } from "~/components/task/comments";
import { formatDateTime } from "~/components/task/format";
import { TaskEditor, TaskMoveForm, TaskReadOnly } from "~/components/task/task-panel";
import { requireUser } from "~/lib/auth.server";
import { ARCHIVED_MESSAGE, boardSearch, STATUS_LABELS, taskRef } from "~/lib/board";
import { COMMENTS_CURSOR_PARAM, parseCommentCursor } from "~/lib/comments";
import { addComment, deleteComment, editComment, listComments } from "~/lib/comments.server";
import { setFlash } from "~/lib/flash.server";
import { formFailure } from "~/lib/forms.server";
import { backendError, notFound } from "~/lib/http.server";
import { requireProject } from "~/lib/projects.server";
import { parseForm, submittedValues } from "~/lib/schemas";
import { createServerClient } from "~/lib/supabase.server";
import { hasRole, permissionsOf } from "~/lib/teams";
import { forbiddenResult, requireTeam, writeFailure } from "~/lib/teams.server";
import { CommentSchema, DeleteCommentSchema, EditCommentSchema, MoveTaskSchema, TaskFieldsSchema } from "~/lib/tasks.schemas";
import { deleteTask, getTask, getTaskRef, moveTask, updateTask } from "~/lib/tasks.server";
import type { loader as boardLoader } from "./teams.$team.projects.$key";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${taskRef(data.projectKey, data.task.number)} ${data.task.title} · Teamboard` : "Task · Teamboard" },
];

function taskNumber(raw: string | undefined, headers: Headers): number {
  if (!raw || !/^\d{1,9}$/.test(raw)) throw notFound(headers);
  return Number(raw);
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const team = await requireTeam(client, user.id, params.team);
  const project = await requireProject(client, team.id, params.key);
  const number = taskNumber(params.number, client.headers);
  const { data: task, error } = await getTask(client.supabase, project.id, number);
  if (error) throw backendError(error, client.headers);
  if (!task) throw notFound(client.headers);
  const before = parseCommentCursor(new URL(request.url).searchParams);
  const comments = await listComments(client.supabase, task.id, before);
  if (comments.error) throw backendError(comments.error, client.headers);
  const archived = project.archived_at !== null;
  const can = permissionsOf(team.role);
  return data(
    {
      projectKey: project.key,
      task,
      comments: comments.comments,
      commentsReached: comments.reached,
      hasOlderComments: comments.hasOlder,
      olderCommentsPage: before !== null,
      userId: user.id,
      can: { editTasks: can.editTasks && !archived, comment: can.comment && !archived, deleteTasks: can.deleteTasks && !archived, deleteAnyComment: can.deleteAnyComment && !archived },
    },
    { headers: client.headers },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const team = await requireTeam(client, user.id, params.team);
  const project = await requireProject(client, team.id, params.key);
  const number = taskNumber(params.number, client.headers);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const values = submittedValues(form);
  const ref = taskRef(project.key, number);
  const url = new URL(request.url);
  const here = `/teams/${team.slug}/projects/${project.key}/tasks/${number}${boardSearch(url.searchParams)}`;
  // editing or deleting an older comment stays on its page; a new comment shows on the latest
  const cursor = url.searchParams.get(COMMENTS_CURSOR_PARAM);
  const hereOnCommentPage = cursor ? `${here}${here.includes("?") ? "&" : "?"}${new URLSearchParams({ [COMMENTS_CURSOR_PARAM]: cursor })}` : here;

  if (!hasRole(team.role, "member")) return forbiddenResult(client.headers, { intent, values });
  if (project.archived_at) return formFailure({ intent, errors: { form: ARCHIVED_MESSAGE }, values }, client.headers);
  const { data: task, error: lookupError } = await getTaskRef(client.supabase, project.id, number);
  if (lookupError) throw backendError(lookupError, client.headers);
  if (!task) throw notFound(client.headers);

  const done = async (message: string, to = here) => {
    await setFlash(request, client.headers, { kind: "success", message });
    return redirect(to, { headers: client.headers });
  };

  if (intent === "update") {
    const result = parseForm(TaskFieldsSchema, form);
    if (!result.success) return formFailure({ intent, ...result }, client.headers);
    const { error } = await updateTask(client.supabase, task.id, result.data);
    if (error) return writeFailure(error, { intent, values, field: /assignee/i.test(error.message) ? "assignee" : "form" }, client.headers);
    return done(`${ref} is saved.`);
  }

  if (intent === "move") {
    const result = parseForm(MoveTaskSchema, { ...Object.fromEntries(form), taskId: task.id });
    if (!result.success) return formFailure({ intent, ...result }, client.headers);
    const { error } = await moveTask(client.supabase, task.id, result.data.status, result.data.position);
    if (error) return writeFailure(error, { intent, values, field: "status" }, client.headers);
    return done(`${ref} is in ${STATUS_LABELS[result.data.status]}.`);
  }

  if (intent === "delete-task") {
    if (!hasRole(team.role, "admin")) return forbiddenResult(client.headers, { intent, values });
    const { data: deleted, error } = await deleteTask(client.supabase, task.id);
    if (error) return writeFailure(error, { intent, values }, client.headers);
    if (!deleted) return forbiddenResult(client.headers, { intent, values });
    return done(`${ref} is deleted.`, `/teams/${team.slug}/projects/${project.key}${boardSearch(url.searchParams)}`);
  }

  if (intent === "comment") {
    const result = parseForm(CommentSchema, form);
    if (!result.success) return formFailure({ intent, ...result }, client.headers);
    const { error } = await addComment(client.supabase, task.id, result.data.body);
    if (error) return writeFailure(error, { intent, values, field: "body" }, client.headers);
    return done("Your comment is posted.");
  }

  if (intent.startsWith("edit-comment:")) {
    const result = parseForm(EditCommentSchema, { ...Object.fromEntries(form), commentId: intent.slice("edit-comment:".length) });
    if (!result.success) return formFailure({ intent, ...result }, client.headers);
    const { data: edited, error } = await editComment(client.supabase, task.id, result.data.commentId, result.data.body);
    if (error) return writeFailure(error, { intent, values, field: "body" }, client.headers);
    if (!edited) return forbiddenResult(client.headers, { intent, values });
    return done("Your comment is saved.", hereOnCommentPage);
  }

  if (intent.startsWith("delete-comment:")) {
    const result = parseForm(DeleteCommentSchema, { commentId: intent.slice("delete-comment:".length) });
    if (!result.success) throw notFound(client.headers);
    const { data: removed, error } = await deleteComment(client.supabase, task.id, result.data.commentId);
    if (error) return writeFailure(error, { intent, values }, client.headers);
    if (!removed) return forbiddenResult(client.headers, { intent, values });
    return done("The comment is deleted.", hereOnCommentPage);
  }

  throw notFound(client.headers);
}

export default function TaskPanel() {
  const { projectKey, task, comments, commentsReached, hasOlderComments, olderCommentsPage, userId, can } = useLoaderData<typeof loader>();
  const board = useRouteLoaderData<typeof boardLoader>("routes/teams.$team.projects.$key");
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const members = board?.members ?? [];
  const ref = taskRef(projectKey, task.number);
  const boardPath = location.pathname.replace(/\/tasks\/[^/]+\/?$/, "");
  const search = boardSearch(new URLSearchParams(location.search));
  // a refusal for a form this page doesn't show (its role changed, or a delete button) goes on top
  const failure = isFormFailure(actionData) ? actionData : null;
  const topAlert = failure?.errors.form && (!can.editTasks || failure.intent?.startsWith("delete")) ? failure.errors.form : null;
  const assigneeName = task.assignee_id ? (members.find((m) => m.id === task.assignee_id)?.name ?? "A former member") : null;

  return (
    <article className="task-detail" aria-labelledby="task-title">
      <div className="task-panel-header">
        <h2 id="task-title">
          <span className="task-ref">{ref}</span> <span className="task-title-text">{task.title}</span>
        </h2>
        <Link to={`${boardPath}${search}`} className="close-panel" aria-label="Close the task" preventScrollReset>
          ✕
        </Link>
      </div>
      {topAlert ? <FormAlert>{topAlert}</FormAlert> : null}
      <p className="muted small task-provenance">
        Created by {task.creator?.display_name ?? "a former member"} on <time dateTime={task.created_at}>{formatDateTime(task.created_at)}</time>
        {task.updated_at !== task.created_at ? (
          <>
            {" "}· updated <time dateTime={task.updated_at}>{formatDateTime(task.updated_at)}</time>
          </>
        ) : null}
      </p>
      {can.editTasks ? (
        <>
          <TaskMoveForm task={task} result={actionData} key={`move-${task.id}-${task.status}-${task.position}`} />
          <TaskEditor task={task} members={members} result={actionData} key={`edit-${task.id}-${task.updated_at}`} />
        </>
      ) : (
        <TaskReadOnly task={task} assigneeName={assigneeName} />
      )}
      {can.deleteTasks ? (
        <details className="danger-zone">
          <summary>Delete task…</summary>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="delete-task" />
            <p>The task and its comments are deleted for everyone. This can't be undone.</p>
            <button type="submit" className="button button-danger button-small">
              Delete {ref} for good
            </button>
          </Form>
        </details>
      ) : null}
      <CommentList
        comments={comments}
        reached={commentsReached}
        hasOlder={hasOlderComments}
        olderPage={olderCommentsPage}
        userId={userId}
        canComment={can.comment}
        canDeleteAny={can.deleteAnyComment}
        result={actionData}
      />
    </article>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
