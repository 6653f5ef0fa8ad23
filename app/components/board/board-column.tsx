import { Link } from "@remix-run/react";
import { showMoreSearch, STATUS_LABELS, type Status } from "~/lib/board";
import type { Card } from "~/lib/board";
import type { BoardColumn as Column } from "~/lib/board.server";
import { TaskCard } from "./task-card";
import type { BoardMove } from "./use-board-move";

/**
 * A status's column: its heading with how many cards it holds, its cards (as
 * the board shows them, moves in flight included), a drop target for
 * dragged cards, and "show more" when the server stopped at the column's limit.
 */
export function BoardColumn({
  status,
  column,
  tasks,
  projectKey,
  cardHref,
  memberNames,
  memberAvatars,
  openNumber,
  searchParams,
  move,
}: {
  status: Status;
  /** the server's column: its count and limit */
  column: Column;
  tasks: Card[];
  projectKey: string;
  cardHref: (task: Card) => string;
  memberNames: Record<string, string>;
  memberAvatars: Record<string, string | null>;
  openNumber: number | null;
  searchParams: URLSearchParams;
  move: BoardMove | null;
}) {
  const headingId = `column-${status}`;
  return (
    <section
      className={`board-column status-${status}${move?.dragging ? " drop-ready" : ""}`}
      aria-labelledby={headingId}
      data-status={status}
      onDragOver={move ? (event) => event.preventDefault() : undefined}
      onDrop={move ? (event) => move.onDrop(event, status) : undefined}
    >
      <h2 id={headingId} className="column-heading">
        {STATUS_LABELS[status]}{" "}
        <span
          className="column-count"
          aria-label={column.hasMore ? `${column.tasks.length} shown, more below` : `${column.tasks.length} tasks`}
        >
          {column.tasks.length}
          {column.hasMore ? "+" : ""}
        </span>
      </h2>
      <ol className="card-list">
        {tasks.map((task) => (
          <TaskCard
            key={task.id}
            task={task}
            projectKey={projectKey}
            href={cardHref(task)}
            assignee={task.assignee_id ? memberNames[task.assignee_id] : undefined}
            avatarPath={task.assignee_id ? memberAvatars[task.assignee_id] : null}
            open={task.number === openNumber}
            move={move}
          />
        ))}
      </ol>
      {column.hasMore ? (
        <p className="show-more">
          <Link to={showMoreSearch(searchParams, status, column.limit)} preventScrollReset>
            Show more {STATUS_LABELS[status].toLowerCase()} tasks
          </Link>
        </p>
      ) : null}
    </section>
  );
}
