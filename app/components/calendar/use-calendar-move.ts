import { useMemo, useState, type DragEvent, type KeyboardEvent } from "react";
import { useMove } from "~/components/use-move";
import type { CalendarTask } from "~/lib/calendar";
import { withMove } from "~/lib/calendar-spans";
import { addDays, formatDay, WEEKDAY_NAMES, weekdayOf } from "~/lib/dates";

interface Picked {
  taskId: string;
  day: string;
  from: string;
}

/** "Friday 27 Nov 2026" */
export const describeDay = (day: string) => `${WEEKDAY_NAMES[weekdayOf(day)]} ${formatDay(day)}`;

/**
 * Moving tasks between days. With a mouse, drag a task onto another day.
 * With the keyboard, its move button picks it up (Enter or Space), the arrow
 * keys carry it a day (left, right) or a week (up, down) within the grid,
 * Enter or Space drops it, Escape puts it back. Tapped or clicked, the
 * button opens a date field instead. Each way posts the same form to the
 * page's action (intent `due`: the task and its new due date); the task shows
 * on its new day at once and goes back, with a message, if the server
 * refuses. Screen readers hear every step through `announcement` (what the
 * board's moves share: ../use-move.ts).
 */
export function useCalendarMove({ tasks, days }: { tasks: CalendarTask[]; days: string[] }) {
  const move = useMove({ fetcherKey: "calendar-move", describe: describeDay });
  const { refocus, announce: setAnnouncement, dragging, setDragging } = move;
  const [picked, setPicked] = useState<Picked | null>(null);
  const [menuId, setMenuId] = useState<string | null>(null);
  const [dropDay, setDropDay] = useState<string | null>(null);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.id, t] as const)), [tasks]);

  const pending = move.pending?.get("intent") === "due" ? move.pending : null;
  let shown = pending ? withMove(tasks, String(pending.get("taskId")), String(pending.get("dueOn"))) : tasks;
  if (picked) shown = withMove(shown, picked.taskId, picked.day);

  function submitMove(taskId: string, day: string) {
    const task = byId.get(taskId);
    if (!task || !task.movable || task.due_on === day) return;
    move.submit(task.ref, day, { intent: "due", taskId, dueOn: day });
  }

  function onMoveKey(event: KeyboardEvent<HTMLButtonElement>, task: CalendarTask) {
    const key = event.key;
    if (key === "Enter" || key === " ") {
      event.preventDefault();
      setMenuId(null);
      refocus.current = task.id;
      if (!picked || picked.taskId !== task.id) {
        setPicked({ taskId: task.id, day: task.due_on, from: task.due_on });
        setAnnouncement(
          `Picked up ${task.ref}, due ${describeDay(task.due_on)}. Arrow keys move it a day or a week, Enter or Space drops it, Escape cancels.`,
        );
        return;
      }
      setPicked(null);
      if (picked.day === picked.from) setAnnouncement(`${task.ref} stays on ${describeDay(picked.day)}.`);
      else submitMove(task.id, picked.day);
      return;
    }
    if (!picked || picked.taskId !== task.id) return;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[key];
    if (step !== undefined) {
      event.preventDefault();
      const day = addDays(picked.day, step);
      if (day < days[0] || day > days[days.length - 1]) return;
      setPicked({ ...picked, day });
      setAnnouncement(describeDay(day));
    } else if (key === "Escape") {
      event.preventDefault();
      setPicked(null);
      setAnnouncement(`Move canceled. ${task.ref} is back on ${describeDay(picked.from)}.`);
    }
  }

  return {
    shown,
    pickedId: picked?.taskId ?? null,
    pendingId: pending ? String(pending.get("taskId")) : null,
    menuId,
    dropDay,
    announcement: move.announcement,
    failure: move.failure,
    dismissFailure: move.dismissFailure,
    onMoveKey,
    /** a tap or click on the move button opens (or closes) its date field */
    toggleMenu(task: CalendarTask) {
      if (picked) setPicked(null);
      setMenuId((open) => (open === task.id ? null : task.id));
    },
    moveFromMenu(task: CalendarTask, day: string) {
      setMenuId(null);
      refocus.current = task.id;
      submitMove(task.id, day);
    },
    closeMenu(taskId: string) {
      setMenuId(null);
      document.querySelector<HTMLButtonElement>(`[data-move-button="${taskId}"]`)?.focus();
    },
    onMoveButtonBlur: (taskId: string) => move.onMoveButtonBlur(taskId, picked?.taskId ?? null),
    onPointerDown: move.onPointerDown,
    onDragStart: move.onDragStart,
    onDragEnd() {
      setDragging(null);
      setDropDay(null);
    },
    onDragOver(event: DragEvent<HTMLElement>, day: string) {
      if (!dragging) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      if (dropDay !== day) setDropDay(day);
    },
    onDrop(event: DragEvent<HTMLElement>, day: string) {
      event.preventDefault();
      const taskId = event.dataTransfer.getData("text/plain") || dragging;
      setDragging(null);
      setDropDay(null);
      if (taskId) submitMove(taskId, day);
    },
  };
}

export type CalendarMove = ReturnType<typeof useCalendarMove>;
