import { useFetcher } from "@remix-run/react";
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
} from "react";
import {
  applyMove,
  canMove,
  groupByStatus,
  nudge,
  STATUS_LABELS,
  STATUSES,
  taskRef,
  type Columns,
  type Status,
} from "~/lib/board";
import type { Card } from "~/lib/board";
import type { BoardColumn } from "~/lib/board.server";
import { showColumn } from "./column-switcher";

export const MOVE_FETCHER_KEY = "board-move";

/** The board route's answer to a move (its action's `move` intent). */
interface MoveResult {
  ok?: boolean;
  errors?: Record<string, string>;
}

interface Picked {
  taskId: string;
  status: Status;
  position: number;
  from: { status: Status; position: number };
}

/** Where a card can go from its move menu: the columns its status may move to, and a step up or down. */
export interface MoveChoices {
  statuses: Status[];
  up: boolean;
  down: boolean;
}

/**
 * Moving cards on the board: drag and drop with a mouse; a card's move
 * button tapped or clicked opens a menu of where it can go (the touch way:
 * nothing to hold or drag, so swiping the board still scrolls it); or that
 * button picked up with Enter or Space and carried with the arrow keys. The
 * move shows at once (from the fetcher's form data, posted to the board route
 * with intent `move`) and falls back, with a message, if the server refuses
 * it. Screen readers hear every step through `announcement`.
 */
export function useBoardMove({
  columns,
  projectKey,
  boardRef,
}: {
  columns: BoardColumn[];
  projectKey: string;
  /** the board's scroller, to bring a card's new column into view */
  boardRef?: RefObject<HTMLElement>;
}) {
  const fetcher = useFetcher<MoveResult>({ key: MOVE_FETCHER_KEY });
  const [picked, setPicked] = useState<Picked | null>(null);
  const [menuId, setMenuId] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  /** the kind of pointer that last pressed on a card: drags start from a mouse only */
  const pointerType = useRef<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const lastMove = useRef<{ ref: string; status: Status } | null>(null);
  const refocus = useRef<string | null>(null);

  const byId = useMemo(() => new Map(columns.flatMap((c) => c.tasks.map((t) => [t.id, t] as const))), [columns]);
  const saved = useMemo(() => groupByStatus(columns.flatMap((c) => c.tasks)), [columns]);

  // What the board shows: the server's columns, with the move in flight applied, and the keyboard's preview on top.
  const pendingMove = fetcher.formData?.get("intent") === "move" ? fetcher.formData : null;
  const withPending = (base: Columns<Card>) =>
    pendingMove
      ? applyMove(
          base,
          String(pendingMove.get("taskId")),
          pendingMove.get("status") as Status,
          Number(pendingMove.get("position")),
        )
      : base;
  let shown: Columns<Card> = withPending(saved);
  if (picked) shown = applyMove(shown, picked.taskId, picked.status, picked.position);

  // The server's answer to the last move.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || !lastMove.current) return;
    const { ref, status } = lastMove.current;
    lastMove.current = null;
    if (fetcher.data.ok) {
      setFailure(null);
      setAnnouncement(`Moved ${ref} to ${STATUS_LABELS[status]}.`);
    } else {
      const reason =
        fetcher.data.errors?.form ?? Object.values(fetcher.data.errors ?? {})[0] ?? "The server refused it.";
      const message = `Couldn't move ${ref}: ${reason}`;
      setFailure(message);
      setAnnouncement(message);
    }
  }, [fetcher.state, fetcher.data]);

  // A card that changed column is a new element: give its move button the focus back.
  useEffect(() => {
    if (!refocus.current) return;
    document.querySelector<HTMLButtonElement>(`[data-move-button="${refocus.current}"]`)?.focus();
  });

  const others = useCallback(
    (base: Columns<Card>, taskId: string) => (status: Status) => base[status].filter((t) => t.id !== taskId).length,
    [],
  );

  function submitMove(taskId: string, status: Status, position: number) {
    const task = byId.get(taskId);
    if (!task) return;
    // already there: nothing to send
    if (task.status === status && position === positionIn(saved, taskId)) return;
    const ref = taskRef(projectKey, task.number);
    lastMove.current = { ref, status };
    setFailure(null);
    setAnnouncement(`Moving ${ref} to ${STATUS_LABELS[status]}…`);
    fetcher.submit({ intent: "move", taskId, status, position: String(position) }, { method: "post" });
  }

  function describePlace(columnsNow: Columns<Card>, status: Status, position: number, taskId: string) {
    const count = columnsNow[status].filter((t) => t.id !== taskId).length + 1;
    return `${STATUS_LABELS[status]}, place ${position + 1} of ${count}`;
  }

  /** The move menu's choices for a card, as the board shows it now. */
  function choicesFor(task: Card): MoveChoices {
    const base = withPending(saved);
    const position = positionIn(base, task.id);
    return {
      statuses: STATUSES.filter((s) => s !== task.status && canMove(task.status, s)),
      up: position > 0,
      down: position < others(base, task.id)(task.status),
    };
  }

  /** A tap or click on a card's move button opens (or closes) its menu; Enter and Space pick it up instead. */
  function toggleMenu(task: Card) {
    if (picked) setPicked(null);
    setMenuId((open) => (open === task.id ? null : task.id));
  }

  /** A choice from the move menu: another column (at its top), or one place up or down. */
  function moveFromMenu(task: Card, choice: Status | "up" | "down") {
    const base = withPending(saved);
    const position = positionIn(base, task.id);
    setMenuId(null);
    refocus.current = task.id;
    if (choice === "up" || choice === "down") {
      submitMove(task.id, task.status, choice === "up" ? position - 1 : position + 1);
      return;
    }
    submitMove(task.id, choice, 0);
    // on a phone the card leaves the column on screen: follow it
    requestAnimationFrame(() => showColumn(boardRef?.current ?? null, choice));
  }

  function closeMenu(taskId: string, refocusButton: boolean) {
    setMenuId(null);
    if (refocusButton) document.querySelector<HTMLButtonElement>(`[data-move-button="${taskId}"]`)?.focus();
  }

  /** Enter or Space on the move button: pick the card up, or drop it where the arrows took it. */
  function pickOrDrop(task: Card) {
    const ref = taskRef(projectKey, task.number);
    if (!picked || picked.taskId !== task.id) {
      const position = positionIn(shown, task.id);
      refocus.current = task.id;
      setPicked({ taskId: task.id, status: task.status, position, from: { status: task.status, position } });
      setAnnouncement(
        `Picked up ${ref} in ${describePlace(shown, task.status, position, task.id)}. Arrow keys move it, Enter or Space drops it, Escape cancels.`,
      );
      return;
    }
    setPicked(null);
    if (picked.status === picked.from.status && picked.position === picked.from.position) {
      setAnnouncement(`${ref} stays in ${STATUS_LABELS[picked.status]}.`);
    } else {
      submitMove(task.id, picked.status, picked.position);
    }
  }

  function onMoveKey(event: KeyboardEvent<HTMLButtonElement>, task: Card) {
    const key = event.key;
    if (key === "Enter" || key === " ") {
      event.preventDefault();
      setMenuId(null);
      pickOrDrop(task);
      return;
    }
    if (!picked || picked.taskId !== task.id) return;
    if (key === "ArrowLeft" || key === "ArrowRight" || key === "ArrowUp" || key === "ArrowDown") {
      event.preventDefault();
      const base = withPending(saved);
      const next = nudge(picked, key, others(base, task.id));
      setPicked({ ...picked, ...next });
      setAnnouncement(describePlace(base, next.status, next.position, task.id));
    } else if (key === "Escape") {
      event.preventDefault();
      setPicked(null);
      setAnnouncement(
        `Move canceled. ${taskRef(projectKey, task.number)} is back in ${STATUS_LABELS[picked.from.status]}.`,
      );
    }
  }

  function onPointerDown(event: PointerEvent<HTMLElement>) {
    pointerType.current = event.pointerType;
  }

  function onDragStart(event: DragEvent<HTMLElement>, taskId: string) {
    // A finger or pen held on a card scrolls the board; it doesn't lift the card (the move menu does that job).
    if (pointerType.current === "touch" || pointerType.current === "pen") {
      event.preventDefault();
      return;
    }
    event.dataTransfer.setData("text/plain", taskId);
    event.dataTransfer.effectAllowed = "move";
    setDragging(taskId);
  }

  /** A card dropped on a column goes above the first card whose middle is below the pointer. */
  function onDrop(event: DragEvent<HTMLElement>, status: Status) {
    event.preventDefault();
    const taskId = event.dataTransfer.getData("text/plain") || dragging;
    setDragging(null);
    if (!taskId || !byId.has(taskId)) return;
    const list = event.currentTarget.querySelector("ol");
    const cards = list
      ? [...list.querySelectorAll<HTMLElement>("[data-task-id]")].filter((el) => el.dataset.taskId !== taskId)
      : [];
    let position = cards.length;
    for (let i = 0; i < cards.length; i++) {
      const box = cards[i].getBoundingClientRect();
      if (event.clientY < box.top + box.height / 2) {
        position = i;
        break;
      }
    }
    submitMove(taskId, status, position);
  }

  /** The move button lost focus for good (not because its card moved to another column). */
  function onMoveButtonBlur(taskId: string) {
    if (refocus.current === taskId && picked?.taskId !== taskId) refocus.current = null;
  }

  return {
    shown,
    pickedId: picked?.taskId ?? null,
    menuId,
    choicesFor,
    toggleMenu,
    moveFromMenu,
    closeMenu,
    onPointerDown,
    pendingId: pendingMove ? String(pendingMove.get("taskId")) : null,
    dragging: dragging !== null,
    announcement,
    failure,
    dismissFailure: () => setFailure(null),
    pickOrDrop,
    onMoveKey,
    onMoveButtonBlur,
    onDragStart,
    onDragEnd: () => setDragging(null),
    onDrop,
  };
}

export type BoardMove = ReturnType<typeof useBoardMove>;

function positionIn(columns: Columns<Card>, taskId: string): number {
  for (const status of STATUSES) {
    const index = columns[status].findIndex((t) => t.id === taskId);
    if (index >= 0) return index;
  }
  return 0;
}
