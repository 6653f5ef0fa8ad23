import { Link } from "@remix-run/react";
import { isClosed, overWipLimit, showMoreSearch } from "~/lib/board";
import type { Card } from "~/lib/board";
import type { BoardColumn as Column } from "~/lib/board.server";
import type { FieldDef } from "~/lib/fields";
import { columnAnchor } from "./column-switcher";
import { TaskCard } from "./task-card";
import type { BoardMove } from "./use-board-move";

/**
 * A status's column, in its colour: its heading with how many cards it shows
 * and, when it has a WIP limit, how many it holds against the limit (a
 * warning when over it), its cards (as the board shows them, moves in
 * flight included), a drop target for dragged cards, and "show more" when
 * the server stopped at the column's limit.
 */
export function BoardColumn({
  column,
  tasks,
  projectKey,
  cardHref,
  memberNames,
  memberAvatars,
  fields = [],
  openNumber,
  searchParams,
  move,
}: {
  /** the server's column: its status, count and limit */
  column: Column;
  tasks: Card[];
  projectKey: string;
  cardHref: (task: Card) => string;
  memberNames: Record<string, string>;
  memberAvatars: Record<string, string | null>;
  fields?: FieldDef[];
  openNumber: number | null;
  searchParams: URLSearchParams;
  move: BoardMove | null;
}) {
  const { status } = column;
  const headingId = columnAnchor(status.id);
  const over = overWipLimit(status);
  return (
    <section
      className={`board-column color-${status.color}${over ? " over-wip" : ""}${move?.dragging ? " drop-ready" : ""}`}
      aria-labelledby={headingId}
      data-status={status.id}
      data-status-name={status.name}
      onDragOver={move ? (event) => event.preventDefault() : undefined}
      onDrop={move ? (event) => move.onDrop(event, status.id) : undefined}
    >
      <h2 id={headingId} className="column-heading">
        <span className="column-swatch" aria-hidden="true" />
        <span className="column-name">{status.name}</span>{" "}
        <span
          className="column-count"
          aria-label={column.hasMore ? `${column.tasks.length} shown, more below` : `${column.tasks.length} tasks`}
        >
          {column.tasks.length}
          {column.hasMore ? "+" : ""}
        </span>
      </h2>
      {fields.some((f) => f.sum) ? (
        <p className="column-sums">
          {fields
            .filter((f) => f.sum)
            .map((f) => (
              <span key={f.id} className="column-sum">
                {f.name}: {formatSum(column.sums?.[f.id] ?? 0)}
              </span>
            ))}
        </p>
      ) : null}
      {status.wip_limit !== null ? (
        <p className={`wip${over ? " wip-over" : ""}`} role={over ? "status" : undefined}>
          {over ? (
            <>
              <span aria-hidden="true">⚠ </span>
              {status.count} of {status.wip_limit}: over the WIP limit
            </>
          ) : (
            <>
              {status.count} of {status.wip_limit} (WIP limit)
            </>
          )}
        </p>
      ) : null}
      <ol className="card-list">
        {tasks.map((task) => (
          <TaskCard
            key={task.id}
            task={task}
            projectKey={projectKey}
            href={cardHref(task)}
            people={(task.assignee_ids ?? (task.assignee_id ? [task.assignee_id] : [])).map((id) => ({
              id,
              name: memberNames[id],
              avatarPath: memberAvatars[id] ?? null,
            }))}
            fields={fields.filter((f) => f.on_card)}
            open={task.number === openNumber}
            closed={isClosed(status.category)}
            move={move}
          />
        ))}
      </ol>
      {column.hasMore ? (
        <p className="show-more">
          <Link to={showMoreSearch(searchParams, status.id, column.limit)} preventScrollReset>
            Show more tasks in {status.name}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** A column's sum: as a person writes it (no trailing zeros, grouped thousands). */
function formatSum(value: number | string): string {
  return Number(value).toLocaleString("en-GB", { maximumFractionDigits: 6 });
}
