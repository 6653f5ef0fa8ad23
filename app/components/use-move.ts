import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type DragEvent, type PointerEvent } from "react";

/** The page action's answer to a move (the board's `move` intent, the calendar's `due`). */
interface MoveResult {
  ok?: boolean;
  errors?: Record<string, string>;
}

/**
 * What moving a card on the board and a task on the calendar share
 * (board/use-board-move.ts, calendar/use-calendar-move.ts; each adds where a
 * thing can go and how the keys carry it): one fetcher posting the move to
 * the page's action; what screen readers hear ("Moving WEB-3 to Done…",
 * "Moved …", "Couldn't move …: <the server's reason>") and the message kept
 * when the server refuses; the move button's focus given back after the
 * re-render that moved its card; drags started by a mouse only (a finger
 * held on a card scrolls the page; the move button's menu is the touch way).
 * `describe` names a place: a column's status, a day.
 */
export function useMove<Place>({ fetcherKey, describe }: { fetcherKey: string; describe: (place: Place) => string }) {
  const fetcher = useFetcher<MoveResult>({ key: fetcherKey });
  const [announcement, setAnnouncement] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  /** the kind of pointer that last pressed on a card */
  const pointerType = useRef<string | null>(null);
  const lastMove = useRef<{ ref: string; place: Place } | null>(null);
  /** the task whose move button gets the focus back after the next render */
  const refocus = useRef<string | null>(null);

  // The server's answer to the last move.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || !lastMove.current) return;
    const { ref, place } = lastMove.current;
    lastMove.current = null;
    if (fetcher.data.ok) {
      setFailure(null);
      setAnnouncement(`Moved ${ref} to ${describe(place)}.`);
    } else {
      const reason =
        fetcher.data.errors?.form ?? Object.values(fetcher.data.errors ?? {})[0] ?? "The server refused it.";
      const message = `Couldn't move ${ref}: ${reason}`;
      setFailure(message);
      setAnnouncement(message);
    }
    // describe reads this render's names: the answer is about the move just made
  }, [fetcher.state, fetcher.data]);

  // A card that moved is a new element: give its move button the focus back.
  useEffect(() => {
    if (!refocus.current) return;
    document.querySelector<HTMLButtonElement>(`[data-move-button="${refocus.current}"]`)?.focus();
  });

  return {
    /** the move in flight, as posted (for the page to show it at once) */
    pending: fetcher.formData ?? null,
    announcement,
    announce: setAnnouncement,
    failure,
    dismissFailure: () => setFailure(null),
    refocus,
    dragging,
    setDragging,
    /** posts `form` to the page's action and says so; the answer is announced when it comes */
    submit(ref: string, place: Place, form: Record<string, string>) {
      lastMove.current = { ref, place };
      setFailure(null);
      setAnnouncement(`Moving ${ref} to ${describe(place)}…`);
      fetcher.submit(form, { method: "post" });
    },
    onPointerDown(event: PointerEvent<HTMLElement>) {
      pointerType.current = event.pointerType;
    },
    onDragStart(event: DragEvent<HTMLElement>, taskId: string) {
      if (pointerType.current === "touch" || pointerType.current === "pen") {
        event.preventDefault();
        return;
      }
      event.dataTransfer.setData("text/plain", taskId);
      event.dataTransfer.effectAllowed = "move";
      setDragging(taskId);
    },
    /** The move button lost focus for good (not because its card moved while picked up). */
    onMoveButtonBlur(taskId: string, pickedId: string | null) {
      if (refocus.current === taskId && pickedId !== taskId) refocus.current = null;
    },
  };
}
