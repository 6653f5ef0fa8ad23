import { useEffect, useState, type MouseEvent, type RefObject } from "react";
import { STATUS_LABELS, STATUSES, type Status } from "~/lib/board";
import type { BoardColumn as Column } from "~/lib/board.server";

/** The id of a column's heading: what the switcher's links point at. */
export const columnAnchor = (status: Status) => `column-${status}`;

/**
 * Brings a column into view inside the board's own sideways scroller (on a
 * phone, one column at a time), without scrolling the page up or down.
 */
export function showColumn(board: HTMLElement | null, status: Status) {
  const section = board?.querySelector<HTMLElement>(`[data-status="${status}"]`);
  if (!board || !section) return;
  const left = board.scrollLeft + section.getBoundingClientRect().left - board.getBoundingClientRect().left;
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  board.scrollTo({ left, behavior: smooth ? "smooth" : "auto" });
}

/**
 * On a phone the board shows one column at a time: this bar, at the top of
 * the board, lists every column with its count. Each entry is a plain link to
 * the column's heading, so without JavaScript the browser scrolls the board
 * to it (and the column snaps into place); with JavaScript the board scrolls
 * sideways only, and the entry of the column on screen is marked current.
 * Hidden from 48rem up, where every column is on screen.
 */
export function ColumnSwitcher({
  columns,
  boardRef,
}: {
  columns: Record<Status, Column>;
  boardRef: RefObject<HTMLElement>;
}) {
  const current = useColumnOnScreen(boardRef);
  function onClick(event: MouseEvent<HTMLAnchorElement>, status: Status) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    showColumn(boardRef.current, status);
  }
  return (
    <nav className="column-switcher" aria-label="Columns" data-live={current ? "" : undefined}>
      <ul>
        {STATUSES.map((status) => {
          const column = columns[status];
          return (
            <li key={status}>
              <a
                href={`#${columnAnchor(status)}`}
                className={`column-switch status-${status}`}
                aria-current={current === status ? "true" : undefined}
                data-column-link={status}
                onClick={(event) => onClick(event, status)}
              >
                <span className="column-switch-label">{STATUS_LABELS[status]}</span>{" "}
                <span className="column-switch-count">
                  {column.tasks.length}
                  {column.hasMore ? "+" : ""}
                  <span className="visually-hidden">
                    {column.tasks.length === 1 && !column.hasMore ? " task" : " tasks"}
                  </span>
                </span>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * Which column the board's scroller shows (the one whose left edge is
 * nearest the scroller's), followed as it scrolls. Null before hydration:
 * without JavaScript CSS marks the column the URL's #fragment points at.
 */
function useColumnOnScreen(boardRef: RefObject<HTMLElement>): Status | null {
  const [current, setCurrent] = useState<Status | null>(null);
  useEffect(() => {
    const board = boardRef.current;
    if (!board) return;
    let frame = 0;
    function measure() {
      frame = 0;
      if (!board) return;
      const edge = board.getBoundingClientRect().left;
      let best: Status | null = null;
      let bestDistance = Infinity;
      for (const section of board.querySelectorAll<HTMLElement>("[data-status]")) {
        const distance = Math.abs(section.getBoundingClientRect().left - edge);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = section.dataset.status as Status;
        }
      }
      setCurrent(best);
    }
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    board.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onScroll);
    return () => {
      board.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [boardRef]);
  return current;
}
