import { useSearchParams } from "@remix-run/react";
import { useRef } from "react";
import { boardSearch } from "~/lib/board";
import type { BoardColumn as Column } from "~/lib/board.server";
import type { FieldDef } from "~/lib/fields";
import { BoardColumn } from "./board-column";
import { ColumnSwitcher } from "./column-switcher";
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
  /** the project's fields shown on cards or summed (board_view) */
  fields?: FieldDef[];
  canMove: boolean;
  /** the task open in the panel, if any */
  openNumber: number | null;
}

const MOVE_HINT =
  "Tap or click a card’s ⠿ button to choose where it goes, or drag the card. With a keyboard: focus ⠿, press Enter, move it with the arrow keys and press Enter again.";

/**
 * How cards move, behind a "?" in the project's header row: on a phone the
 * hint's four lines would push the first card below the first screen, so
 * there it shows only when asked for (board.css; wide screens show the hint
 * above the board and no "?"). Needs JavaScript, as moving cards does.
 */
export function MoveHelp() {
  return (
    <details className="board-more move-help needs-js">
      <summary className="button button-small button-secondary" title="How to move cards">
        <span aria-hidden="true">?</span>
        <span className="visually-hidden">How to move cards</span>
      </summary>
      <p className="board-more-menu hint">{MOVE_HINT}</p>
    </details>
  );
}

/**
 * The board: a column per status of the project, in its order (on a phone one at a time, with a switcher
 * listing them all). With JavaScript, cards can be dragged with a mouse,
 * moved from their move button's menu (a tap), or picked up with that button
 * and carried with the arrow keys (see useBoardMove). Without JavaScript, the
 * task panel's status form does the same job.
 */
export function Board({
  columns,
  projectKey,
  basePath,
  memberNames,
  memberAvatars = {},
  fields = [],
  canMove,
  openNumber,
}: BoardProps) {
  const hydrated = useHydrated();
  const interactive = hydrated && canMove;
  const [searchParams] = useSearchParams();
  const linkSearch = boardSearch(searchParams);
  const boardRef = useRef<HTMLDivElement>(null);
  const move = useBoardMove({ columns, projectKey, boardRef });

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
      {/* in the first HTML already, so the board doesn't shift down when the page hydrates (hidden without JavaScript) */}
      {canMove ? <p className="hint board-hint needs-js">{MOVE_HINT}</p> : null}
      <ColumnSwitcher columns={columns} boardRef={boardRef} />
      <div className="board" data-board data-can-move={canMove || undefined} ref={boardRef}>
        {columns.map((column) => (
          <BoardColumn
            key={column.status.id}
            column={column}
            tasks={move.shown[column.status.id] ?? []}
            projectKey={projectKey}
            cardHref={(task) => `${basePath}/tasks/${task.number}${linkSearch}`}
            memberNames={memberNames}
            memberAvatars={memberAvatars}
            fields={fields}
            openNumber={openNumber}
            searchParams={searchParams}
            move={interactive ? move : null}
          />
        ))}
      </div>
    </div>
  );
}
