import { useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type PointerEvent } from "react";
import { withMove, type CalendarTask } from "~/lib/calendar";
import { addDays, formatDay, WEEKDAY_NAMES, weekdayOf } from "~/lib/dates";

/** The calendar route's answer to a move (its action's `due` intent). */
interface MoveResult {
  ok?: boolean;
  errors?: Record<string, string>;
}

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
 * refuses. Screen readers hear every step through `announcement`.
 */
export function useCalendarMove({ tasks, days }: { tasks: CalendarTask[]; days: string[] }) {
  const fetcher = useFetcher<MoveResult>({ key: "calendar-move" });
  const [picked, setPicked] = useState<Picked | null>(null);
  const [menuId, setMenuId] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropDay, setDropDay] = useState<string | null>(null);
  const pointerType = useRef<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const lastMove = useRef<{ ref: string; day: string } | null>(null);
  const refocus = useRef<string | null>(null);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.id, t] as const)), [tasks]);

  const pending = fetcher.formData?.get("intent") === "due" ? fetcher.formData : null;
  let shown = pending ? withMove(tasks, String(pending.get("taskId")), String(pending.get("dueOn"))) : tasks;
  if (picked) shown = withMove(shown, picked.taskId, picked.day);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || !lastMove.current) return;
    const { ref, day } = lastMove.current;
    lastMove.current = null;
    if (fetcher.data.ok) {
      setFailure(null);
      setAnnouncement(`Moved ${ref} to ${describeDay(day)}.`);
    } else {
      const reason =
        fetcher.data.errors?.form ?? Object.values(fetcher.data.errors ?? {})[0] ?? "The server refused it.";
      const message = `Couldn't move ${ref}: ${reason}`;
      setFailure(message);
      setAnnouncement(message);
    }
  }, [fetcher.state, fetcher.data]);

  // a task that changed day is a new element: its move button gets the focus back
  useEffect(() => {
    if (!refocus.current) return;
    document.querySelector<HTMLButtonElement>(`[data-move-button="${refocus.current}"]`)?.focus();
  });

  function submitMove(taskId: string, day: string) {
    const task = byId.get(taskId);
    if (!task || !task.movable || task.due_on === day) return;
    lastMove.current = { ref: task.ref, day };
    setFailure(null);
    setAnnouncement(`Moving ${task.ref} to ${describeDay(day)}…`);
    fetcher.submit({ intent: "due", taskId, dueOn: day }, { method: "post" });
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
    announcement,
    failure,
    dismissFailure: () => setFailure(null),
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
    onMoveButtonBlur(taskId: string) {
      if (refocus.current === taskId && picked?.taskId !== taskId) refocus.current = null;
    },
    onPointerDown(event: PointerEvent<HTMLElement>) {
      pointerType.current = event.pointerType;
    },
    onDragStart(event: DragEvent<HTMLElement>, taskId: string) {
      // a finger held on a task scrolls the page; the move button's date field is the touch way
      if (pointerType.current === "touch" || pointerType.current === "pen") {
        event.preventDefault();
        return;
      }
      event.dataTransfer.setData("text/plain", taskId);
      event.dataTransfer.effectAllowed = "move";
      setDragging(taskId);
    },
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
