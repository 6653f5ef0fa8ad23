import { useCallback, useMemo, useState, type DragEvent, type KeyboardEvent, type RefObject } from "react";
import { useMove } from "~/components/use-move";
import { applyMove, groupByStatus, nudge, taskRef, type Columns } from "~/lib/board";
import type { Card } from "~/lib/board";
import type { BoardColumn } from "~/lib/board.server";
import { showColumn } from "./column-switcher";

export const MOVE_FETCHER_KEY = "board-move";

interface Picked {
  taskId: string;
  statusId: string;
  position: number;
  from: { statusId: string; position: number };
}

/** Where a card can go from its move menu: every other column (by status id), and a step up or down. */
export interface MoveChoices {
  statuses: string[];
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
 * it. Screen readers hear every step through `announcement` (what the
 * calendar's moves share: ../use-move.ts).
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
  const [picked, setPicked] = useState<Picked | null>(null);
  const [menuId, setMenuId] = useState<string | null>(null);
  const order = useMemo(() => columns.map((c) => c.status.id), [columns]);
  const names = useMemo(() => new Map(columns.map((c) => [c.status.id, c.status.name])), [columns]);
  const nameOf = (statusId: string) => names.get(statusId) ?? "another column";
  const move = useMove({ fetcherKey: MOVE_FETCHER_KEY, describe: nameOf });
  const { refocus, announce: setAnnouncement, dragging, setDragging } = move;
  const byId = useMemo(() => new Map(columns.flatMap((c) => c.tasks.map((t) => [t.id, t] as const))), [columns]);
  const saved = useMemo(
    () =>
      groupByStatus(
        columns.flatMap((c) => c.tasks),
        order,
      ),
    [columns, order],
  );

  // What the board shows: the server's columns, with the move in flight applied, and the keyboard's preview on top.
  const pendingMove = move.pending?.get("intent") === "move" ? move.pending : null;
  const withPending = (base: Columns<Card>) =>
    pendingMove
      ? applyMove(
          base,
          String(pendingMove.get("taskId")),
          String(pendingMove.get("status")),
          Number(pendingMove.get("position")),
        )
      : base;
  let shown: Columns<Card> = withPending(saved);
  if (picked) shown = applyMove(shown, picked.taskId, picked.statusId, picked.position);

  const others = useCallback(
    (base: Columns<Card>, taskId: string) => (statusId: string) =>
      (base[statusId] ?? []).filter((t) => t.id !== taskId).length,
    [],
  );

  function submitMove(taskId: string, statusId: string, position: number) {
    const task = byId.get(taskId);
    if (!task) return;
    // already there: nothing to send
    if (task.status_id === statusId && position === positionIn(saved, taskId)) return;
    move.submit(taskRef(projectKey, task.number), statusId, {
      intent: "move",
      taskId,
      status: statusId,
      position: String(position),
    });
  }

  function describePlace(columnsNow: Columns<Card>, statusId: string, position: number, taskId: string) {
    const count = (columnsNow[statusId] ?? []).filter((t) => t.id !== taskId).length + 1;
    return `${nameOf(statusId)}, place ${position + 1} of ${count}`;
  }

  /** The move menu's choices for a card, as the board shows it now: any other column (§4). */
  function choicesFor(task: Card): MoveChoices {
    const base = withPending(saved);
    const position = positionIn(base, task.id);
    return {
      statuses: order.filter((id) => id !== task.status_id),
      up: position > 0,
      down: position < others(base, task.id)(task.status_id),
    };
  }

  /** A tap or click on a card's move button opens (or closes) its menu; Enter and Space pick it up instead. */
  function toggleMenu(task: Card) {
    if (picked) setPicked(null);
    setMenuId((open) => (open === task.id ? null : task.id));
  }

  /** A choice from the move menu: another column (its status id; at its top), or one place up or down. */
  function moveFromMenu(task: Card, choice: string) {
    const base = withPending(saved);
    const position = positionIn(base, task.id);
    setMenuId(null);
    refocus.current = task.id;
    if (choice === "up" || choice === "down") {
      submitMove(task.id, task.status_id, choice === "up" ? position - 1 : position + 1);
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
      setPicked({
        taskId: task.id,
        statusId: task.status_id,
        position,
        from: { statusId: task.status_id, position },
      });
      setAnnouncement(
        `Picked up ${ref} in ${describePlace(shown, task.status_id, position, task.id)}. Arrow keys move it, Enter or Space drops it, Escape cancels.`,
      );
      return;
    }
    setPicked(null);
    if (picked.statusId === picked.from.statusId && picked.position === picked.from.position) {
      setAnnouncement(`${ref} stays in ${nameOf(picked.statusId)}.`);
    } else {
      submitMove(task.id, picked.statusId, picked.position);
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
      const next = nudge(picked, key, order, others(base, task.id));
      setPicked({ ...picked, ...next });
      setAnnouncement(describePlace(base, next.statusId, next.position, task.id));
    } else if (key === "Escape") {
      event.preventDefault();
      setPicked(null);
      setAnnouncement(`Move canceled. ${taskRef(projectKey, task.number)} is back in ${nameOf(picked.from.statusId)}.`);
    }
  }

  /** A card dropped on a column goes above the first card whose middle is below the pointer. */
  function onDrop(event: DragEvent<HTMLElement>, statusId: string) {
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
    submitMove(taskId, statusId, position);
  }

  return {
    shown,
    nameOf,
    pickedId: picked?.taskId ?? null,
    menuId,
    choicesFor,
    toggleMenu,
    moveFromMenu,
    closeMenu,
    onPointerDown: move.onPointerDown,
    pendingId: pendingMove ? String(pendingMove.get("taskId")) : null,
    dragging: dragging !== null,
    announcement: move.announcement,
    failure: move.failure,
    dismissFailure: move.dismissFailure,
    pickOrDrop,
    onMoveKey,
    onMoveButtonBlur: (taskId: string) => move.onMoveButtonBlur(taskId, picked?.taskId ?? null),
    onDragStart: move.onDragStart,
    onDragEnd: () => setDragging(null),
    onDrop,
  };
}

export type BoardMove = ReturnType<typeof useBoardMove>;

function positionIn(columns: Columns<Card>, taskId: string): number {
  for (const cards of Object.values(columns)) {
    const index = cards.findIndex((t) => t.id === taskId);
    if (index >= 0) return index;
  }
  return 0;
}
