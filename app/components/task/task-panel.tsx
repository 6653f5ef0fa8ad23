import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ConfirmationBeside, useConfirmationHere } from "~/components/flash-message";
import { FormAlert, type FormFailure } from "~/components/form";
import { columnAnchor } from "~/components/board/column-switcher";
import { boardSearch, isClosed, taskRef } from "~/lib/board";
import { commentsActionPath } from "~/lib/comments";
import { isOverdue } from "~/lib/calendar";
import { formatDateTime } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import { Attachments } from "./attachments";
import { Checklist, Relations, SubTasks } from "./breakdown";
import { Timeline } from "./timeline";
import { WatchForm } from "./watch-form";
import { RepeatNote, TaskEditor, TaskMoveForm } from "./task-forms";
import { TitleInPlace } from "./in-place";
import { TaskReadView } from "./task-read";
import { useBoardData, useTaskData } from "./use-route-data";
import { AlsoViewing, LiveTaskData } from "./also-viewing";
import { Day, DueDay } from "~/components/day";

/** What the task route's forms can send back (successes redirect). */
export type TaskFormResult = FormFailure<
  | "update"
  | "move"
  | "stop-repeating"
  | "delete-task"
  | "set-title"
  | "set-priority"
  | "set-due"
  | "set-assignees"
  | "set-labels"
  | "archive-task"
  | "unarchive-task"
>;
/** What the /comments route's forms can send back. */
export type CommentFormResult = FormFailure<"comment" | "edit-comment" | "delete-comment">;
/** What the /attachments route's forms can send back. */
export type AttachmentFormResult = FormFailure;
/** What the /checklist, /subtasks and /relations routes' forms can send back. */
export type BreakdownFormResult = FormFailure;

/**
 * The open task: its fields (editable for members), delete for admins, who
 * watches it, and its timeline of comments and events. The task route renders it with its own forms' answer; the
 * /comments child route renders it instead, with the comment forms' answer,
 * so each form's message shows beside it, with or without JavaScript.
 */
export function TaskPanel({
  result,
  commentResult,
  attachmentResult,
  breakdownResult,
}: {
  result?: TaskFormResult;
  commentResult?: CommentFormResult;
  attachmentResult?: AttachmentFormResult;
  breakdownResult?: BreakdownFormResult;
}) {
  const data = useTaskData();
  const { zone, today, now: pageNow } = usePageTime();
  const board = useBoardData();
  const location = useLocation();
  if (!data) return null;
  const {
    projectKey,
    taskPath,
    task,
    repeatWords,
    repeat,
    labels,
    checklist,
    subtasks,
    relations,
    attachments,
    timeline,
    commentCount,
    hasEarlier,
    earlierPage,
    watchers,
    watching,
    members: mentionable,
    now,
    userId,
    can,
    teamSlug,
    descriptionHtml,
    fields,
  } = data;
  const members = board?.members ?? [];
  const statuses = board?.columns.map((c) => c.status) ?? [task.status];
  const ref = taskRef(projectKey, task.number);
  const boardPath = taskPath.replace(/\/tasks\/[^/]+$/, "");
  const teamPath = boardPath.replace(/\/projects\/[^/]+$/, "");
  const search = boardSearch(new URLSearchParams(location.search));
  // every form names its route: the panel may be on screen under /comments
  const taskAction = `${taskPath}${location.search}`;
  const commentsAction = `${commentsActionPath(taskPath)}${location.search}`;
  // a refusal for a form this page doesn't show (its role changed, or a delete button) goes on top
  const failure = result ?? commentResult;
  const refusedElsewhere =
    !can.editTasks ||
    failure?.intent === "delete-task" ||
    failure?.intent === "delete-comment" ||
    failure?.intent === "archive-task" ||
    failure?.intent === "unarchive-task";
  const topAlert = failure?.errors.form && refusedElsewhere ? failure.errors.form : null;
  // reading by default; "Edit" opens the form: ?edit without JavaScript, in place with it
  const [editingInPlace, setEditingInPlace] = useState(false);
  useEffect(() => setEditingInPlace(false), [task.id, task.updated_at]);
  // with JavaScript, a save closes the form: "WEB-1 is saved." goes beside the Edit button that takes its place, in view
  const saved = useConfirmationHere(
    (navigation) =>
      navigation.formData?.get("intent") === "update" && navigation.formAction?.split("?")[0] === taskPath,
  );
  const params = new URLSearchParams(location.search);
  // the form is on screen because of the address or an answer: Cancel navigates; else it just closes
  const editingByPage = params.has("edit") || result?.intent === "update";
  const editing = can.editTasks && (editingByPage || editingInPlace);
  params.delete("edit");
  const readHref = `${taskPath}${params.size ? `?${params}` : ""}`;
  params.set("edit", "task");
  const editHref = `${taskPath}?${params}`;
  // all of them, first added first (a name the board doesn't know: a former member)
  const assigneeNames = (task.assignee_ids ?? []).map(
    (id) => members.find((m) => m.id === id)?.name ?? "A former member",
  );

  const heading = (
    <h2 id="task-title">
      <span className="task-ref">{ref}</span> <span className="task-title-text">{task.title}</span>
    </h2>
  );

  return (
    <article className="task-detail" aria-labelledby="task-title">
      {/* on a phone the task is the page: the way back, first; it lands on the task's column, filters kept */}
      <p className="back-to-board">
        <Link to={`${boardPath}${search}#${columnAnchor(task.status_id)}`} preventScrollReset>
          <span aria-hidden="true">←</span> Back to the board
        </Link>
      </p>
      <div className="task-panel-header">
        {can.editTasks && !editing ? (
          <TitleInPlace
            task={task}
            heading={heading}
            result={result}
            action={taskAction}
            key={`title-${task.id}-${task.updated_at}`}
          />
        ) : (
          heading
        )}
        <Link
          to={`${boardPath}${search}`}
          className="close-panel"
          aria-label="Close the task"
          preventScrollReset
          data-shortcut="Escape"
        >
          ✕
        </Link>
      </div>
      {task.parent ? (
        <p className="parent-task small">
          Sub-task of{" "}
          <Link to={`${boardPath}/tasks/${task.parent.number}${search}`} preventScrollReset>
            <span className="task-ref">{taskRef(projectKey, task.parent.number)}</span> {task.parent.title}
          </Link>
        </p>
      ) : null}
      {topAlert ? <FormAlert>{topAlert}</FormAlert> : null}
      {task.archived_at ? (
        <div className="archived-note" role="status">
          <p>
            <span className="archived-badge">Archived</span> This task isn&apos;t on the board, in lists or calendars.{" "}
            <Link to={`${boardPath}/archived`}>Archived tasks</Link>
          </p>
          {can.editTasks ? (
            <Form method="post" action={taskAction} preventScrollReset>
              <input type="hidden" name="intent" value="unarchive-task" />
              <button type="submit" className="button button-small">
                Unarchive {ref}
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      <AlsoViewing taskId={task.id} members={members} key={task.id} />
      <WatchForm watching={watching} watchers={watchers} action={`${taskPath}/watching${location.search}`} />
      <LiveTaskData
        taskId={task.id}
        shown={{
          comments: timeline.filter((i) => i.type === "comment").map((c) => c.id),
          attachments: attachments.map((a) => a.id),
        }}
      />
      <p className="muted small task-provenance">
        Created by {task.creator?.display_name ?? (task.created_by ? "a former member" : "a deleted user")} on{" "}
        <time dateTime={task.created_at}>{formatDateTime(task.created_at, zone)}</time>
        {task.updated_at !== task.created_at ? (
          <>
            {" "}
            · updated <time dateTime={task.updated_at}>{formatDateTime(task.updated_at, zone)}</time>
          </>
        ) : null}
      </p>
      {task.due_on &&
      isOverdue({ due_on: task.due_on, due_at: task.due_at, open: !isClosed(task.status.category) }, today, pageNow) ? (
        <p className="overdue-note">
          <span className="overdue-badge">Overdue</span>: it was due{" "}
          {task.due_at ? (
            <DueDay day={task.due_on} at={task.due_at} />
          ) : (
            <>
              on <Day day={task.due_on} />
            </>
          )}
          .
        </p>
      ) : null}
      <RepeatNote
        words={repeatWords}
        result={result}
        action={taskAction}
        canEdit={can.editTasks}
        key={`repeat-${task.id}-${task.updated_at}`}
      />
      {editing ? (
        <TaskEditor
          task={task}
          repeat={repeat}
          labels={labels}
          members={members}
          teamLabels={board?.labels ?? []}
          canCreateLabels={can.createLabels}
          result={result}
          action={taskAction}
          team={teamSlug}
          taskId={task.id}
          fields={fields}
          key={`edit-${task.id}-${task.updated_at}`}
          cancel={
            <Link
              to={readHref}
              className="button button-small button-secondary"
              preventScrollReset
              onClick={(event) => {
                setEditingInPlace(false);
                if (!editingByPage) event.preventDefault();
              }}
            >
              Cancel
            </Link>
          }
        />
      ) : (
        <>
          {can.editTasks ? (
            <p className="task-actions">
              <Link
                to={editHref}
                className="button button-small button-secondary"
                preventScrollReset
                onClick={(event) => {
                  event.preventDefault();
                  setEditingInPlace(true);
                }}
              >
                Edit
              </Link>
              <ConfirmationBeside flash={saved} />
            </p>
          ) : null}
          <TaskReadView
            key={`read-${task.id}-${task.updated_at}`}
            edit={
              can.editTasks
                ? {
                    result,
                    action: taskAction,
                    repeat,
                    teamLabels: board?.labels ?? [],
                    canCreateLabels: can.createLabels,
                    status: (
                      <TaskMoveForm
                        task={task}
                        statuses={statuses}
                        result={result}
                        action={taskAction}
                        key={`move-${task.id}-${task.status_id}-${task.position}`}
                      />
                    ),
                  }
                : undefined
            }
            task={task}
            status={task.status}
            labels={labels}
            assigneeNames={assigneeNames}
            descriptionHtml={descriptionHtml}
            fields={fields}
            members={members}
          />
        </>
      )}
      <Checklist
        items={checklist}
        taskPath={taskPath}
        search={location.search}
        canEdit={can.editTasks}
        result={breakdownResult}
      />
      <SubTasks
        subtasks={subtasks}
        isSubTask={task.parent_id !== null}
        projectPath={boardPath}
        taskPath={taskPath}
        search={location.search}
        canEdit={can.editTasks}
        result={breakdownResult}
      />
      <Relations
        relations={relations}
        teamPath={teamPath}
        taskPath={taskPath}
        search={location.search}
        canEdit={can.editTasks}
        result={breakdownResult}
      />
      {can.editTasks ? (
        <p className="task-move-link">
          <Link to={`${taskPath}/move`}>Move or duplicate…</Link>
        </p>
      ) : null}
      {can.editTasks && !task.archived_at ? (
        <Form method="post" action={taskAction} preventScrollReset className="archive-task-form">
          <input type="hidden" name="intent" value="archive-task" />
          <button type="submit" className="button button-secondary button-small">
            Archive {ref}
          </button>{" "}
          <span className="muted">Off the board and lists; found under Archived.</span>
        </Form>
      ) : null}
      {can.deleteTasks ? (
        <details className="danger-zone">
          <summary>Delete task…</summary>
          <Form method="post" action={taskAction} preventScrollReset>
            <input type="hidden" name="intent" value="delete-task" />
            <p>
              The task goes to the project&apos;s trash with its comments and files; an admin can restore it for 30
              days.
            </p>
            <button type="submit" className="button button-danger button-small">
              Delete {ref}
            </button>
          </Form>
        </details>
      ) : null}
      <Attachments
        taskId={task.id}
        attachments={attachments}
        userId={userId}
        canAttach={can.comment}
        canDeleteAny={can.deleteAnyComment}
        action={`${taskPath}/attachments${location.search}`}
        result={attachmentResult}
      />
      <Timeline
        items={timeline}
        commentCount={commentCount}
        hasEarlier={hasEarlier}
        earlierPage={earlierPage}
        members={mentionable}
        now={now}
        userId={userId}
        canComment={can.comment}
        canDeleteAny={can.deleteAnyComment}
        action={commentsAction}
        result={commentResult}
        team={teamSlug}
        taskId={task.id}
      />
    </article>
  );
}
