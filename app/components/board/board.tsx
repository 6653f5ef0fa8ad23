import { useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { boardSearch, STATUSES, type Status } from "~/lib/board";
import type { BoardColumn as Column } from "~/lib/board.server";
import { BoardColumn } from "./board-column";
import { useBoardMove } from "./use-board-move";
import { useHydrated } from "./use-hydrated";

interface BoardProps {
  columns: Column[];
  projectKey: string;
  /** /teams/acme/projects/WEB */
  basePath: string;
  memberNames: Record<string, string>;
  /** avatars of the members, by id (initials when there is none) */
  memberAvatars?: Record<string, string | null>;
  canMove: boolean;
  /** the task open in the panel, if any */
  openNumber: number | null;
}

/**
 * The board: a column per status. With JavaScript, cards can be dragged, or
 * picked up with their move button and carried with the arrow keys (see
 * useBoardMove). Without JavaScript, the task panel's status form does the
 * same job.
 */
export function Board({
  columns,
  projectKey,
  basePath,
  memberNames,
  memberAvatars = {},
  canMove,
  openNumber,
}: BoardProps) {
  const hydrated = useHydrated();
  const interactive = hydrated && canMove;
  const [searchParams] = useSearchParams();
  const linkSearch = boardSearch(searchParams);
  const move = useBoardMove({ columns, projectKey });
  const totals = useMemo(
    () => Object.fromEntries(columns.map((c) => [c.status, c])) as Record<Status, Column>,
    [columns],
  );

  return (
    <div className="board-wrap">
      <p className="visually-hidden" role="status" aria-live="assertive" data-board-announcer>
        {move.announcement}
      </p>
      {move.failure ? (
        <div className="alert alert-error board-failure" role="alert">
          {move.failure}{" "}
          <button type="button" className="link-button" onClick={move.dismissFailure}>
            Dismiss
          </button>
        </div>
      ) : null}
      {interactive ? (
        <p className="hint board-hint">
          Drag a card, or focus its ⠿ button, press Enter, move it with the arrow keys and press Enter again.
        </p>
      ) : null}
      <div className="board" data-board>
        {STATUSES.map((status) => (
          <BoardColumn
            key={status}
            status={status}
            column={totals[status]}
            tasks={move.shown[status]}
            projectKey={projectKey}
            cardHref={(task) => `${basePath}/tasks/${task.number}${linkSearch}`}
            memberNames={memberNames}
            memberAvatars={memberAvatars}
            openNumber={openNumber}
            searchParams={searchParams}
            move={interactive ? move : null}
          />
        ))}
      </div>
    </div>
  );
}
