import { useEffect, useState, type MouseEvent, type RefObject } from "react";
import { overWipLimit } from "~/lib/board";
import type { BoardColumn as Column } from "~/lib/board.server";

/** The id of a column's heading: what the switcher's links point at. */
export const columnAnchor = (statusId: string) => `column-${statusId}`;

/**
 * Brings a column into view inside the board's own sideways scroller (on a
 * phone, one column at a time), without scrolling the page up or down.
 */
export function showColumn(board: HTMLElement | null, statusId: string) {
  const section = board?.querySelector<HTMLElement>(`[data-status="${statusId}"]`);
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
export function ColumnSwitcher({ columns, boardRef }: { columns: Column[]; boardRef: RefObject<HTMLElement> }) {
  const current = useColumnOnScreen(boardRef);
  function onClick(event: MouseEvent<HTMLAnchorElement>, statusId: string) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    showColumn(boardRef.current, statusId);
  }
  return (
    <nav className="column-switcher" aria-label="Columns" data-live={current ? "" : undefined}>
      <ul>
        {columns.map((column) => {
          const { status } = column;
          return (
            <li key={status.id}>
              <a
                href={`#${columnAnchor(status.id)}`}
                className={`column-switch color-${status.color}${overWipLimit(status) ? " over-wip" : ""}`}
                aria-current={current === status.id ? "true" : undefined}
                data-column-link={status.id}
                onClick={(event) => onClick(event, status.id)}
              >
                <span className="column-switch-label">{status.name}</span>{" "}
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
function useColumnOnScreen(boardRef: RefObject<HTMLElement>): string | null {
  const [current, setCurrent] = useState<string | null>(null);
  useEffect(() => {
    const board = boardRef.current;
    if (!board) return;
    let frame = 0;
    function measure() {
      frame = 0;
      if (!board) return;
      const edge = board.getBoundingClientRect().left;
      let best: string | null = null;
      let bestDistance = Infinity;
      for (const section of board.querySelectorAll<HTMLElement>("[data-status]")) {
        const distance = Math.abs(section.getBoundingClientRect().left - edge);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = section.dataset.status ?? null;
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
