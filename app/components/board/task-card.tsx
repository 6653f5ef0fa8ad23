import { Avatar } from "~/components/avatar";
import { Link } from "@remix-run/react";
import { PRIORITY_LABELS, taskRef } from "~/lib/board";
import type { Card } from "~/lib/board.server";
import type { BoardMove } from "./use-board-move";

/**
 * One card: a link that opens the task in the panel and, when the person may
 * move it (with JavaScript), a drag source and a move button.
 */
export function TaskCard({
  task,
  projectKey,
  href,
  assignee,
  avatarPath,
  open,
  move,
}: {
  task: Card;
  projectKey: string;
  href: string;
  assignee: string | undefined;
  avatarPath: string | null | undefined;
  /** the task open in the panel */
  open: boolean;
  /** null when the card can't be moved (no JavaScript yet, or a viewer) */
  move: BoardMove | null;
}) {
  const ref = taskRef(projectKey, task.number);
  const isPicked = move?.pickedId === task.id;
  const isPending = move?.pendingId === task.id;
  return (
    <li
      className={`task-card priority-${task.priority}${open ? " is-open" : ""}${isPicked ? " is-picked" : ""}${isPending ? " is-pending" : ""}`}
      data-task-id={task.id}
      draggable={move ? true : undefined}
      onDragStart={move ? (event) => move.onDragStart(event, task.id) : undefined}
      onDragEnd={move ? move.onDragEnd : undefined}
    >
      <div className="task-card-top">
        <Link to={href} className="task-card-link" preventScrollReset>
          <span className="task-ref">{ref}</span> <span className="task-card-title">{task.title}</span>
        </Link>
        {move ? (
          <button
            type="button"
            className="move-handle"
            data-move-button={task.id}
            aria-label={`Move ${ref}`}
            aria-pressed={isPicked}
            onKeyDown={(event) => move.onMoveKey(event, task)}
            onClick={(event) => {
              // keyboard activation is handled on keydown; this is for pointers
              if (event.detail !== 0) move.pickOrDrop(task);
            }}
            onBlur={() => move.onMoveButtonBlur(task.id)}
          >
            ⠿
          </button>
        ) : null}
      </div>
      <CardMeta task={task} assignee={assignee} avatarPath={avatarPath} />
    </li>
  );
}

function CardMeta({
  task,
  assignee,
  avatarPath,
}: {
  task: Card;
  assignee: string | null | undefined;
  avatarPath: string | null | undefined;
}) {
  return (
    <div className="task-card-meta">
      {task.priority !== "none" ? (
        <span className={`priority priority-${task.priority}`}>{PRIORITY_LABELS[task.priority]}</span>
      ) : null}
      {task.due_on ? <span className="due">Due {task.due_on}</span> : null}
      <span className="assignee with-avatar">
        {task.assignee_id ? <Avatar path={avatarPath} name={assignee} size={18} /> : null}
        {assignee ?? (task.assignee_id ? "Assigned" : "Unassigned")}
      </span>
      {task.labels.length > 0 ? (
        <ul className="labels" aria-label="Labels">
          {task.labels.map((label) => (
            <li key={label} className="label">
              {label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
