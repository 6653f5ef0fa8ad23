import { Link, useFetcher, useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from "react";
import {
  applyMove,
  boardSearch,
  groupByStatus,
  nudge,
  PRIORITY_LABELS,
  showMoreSearch,
  STATUS_LABELS,
  STATUSES,
  taskRef,
  type Columns,
  type Status,
} from "~/lib/board";
import type { BoardColumn, Card } from "~/lib/board.server";
import { useHydrated } from "./use-hydrated";

export const MOVE_FETCHER_KEY = "board-move";

interface MoveResult {
  ok?: boolean;
  errors?: Record<string, string>;
}

interface BoardProps {
  columns: BoardColumn[];
  projectKey: string;
  /** /teams/acme/projects/WEB */
  basePath: string;
  memberNames: Record<string, string>;
  canMove: boolean;
  /** the task open in the panel, if any */
  openNumber: number | null;
}

interface Picked {
  taskId: string;
  status: Status;
  position: number;
  from: { status: Status; position: number };
}

/**
 * The board: a column per status. With JavaScript, cards can be dragged, or
 * picked up with their move button and carried with the arrow keys; the move
 * shows at once (from the fetcher's form data) and falls back, with a message,
 * if the server refuses it. Without JavaScript, the task panel's status form
 * does the same job.
 */
export function Board({ columns, projectKey, basePath, memberNames, canMove, openNumber }: BoardProps) {
  const hydrated = useHydrated();
  const interactive = hydrated && canMove;
  const [searchParams] = useSearchParams();
  const linkSearch = boardSearch(searchParams);
  const fetcher = useFetcher<MoveResult>({ key: MOVE_FETCHER_KEY });
  const [picked, setPicked] = useState<Picked | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const lastMove = useRef<{ ref: string; status: Status } | null>(null);
  const refocus = useRef<string | null>(null);

  const byId = useMemo(() => new Map(columns.flatMap((c) => c.tasks.map((t) => [t.id, t] as const))), [columns]);
  const totals = useMemo(() => Object.fromEntries(columns.map((c) => [c.status, c])) as Record<Status, BoardColumn>, [columns]);
  const saved = useMemo(() => groupByStatus(columns.flatMap((c) => c.tasks)), [columns]);

  // What the board shows: the server's columns, with the move in flight applied, and the keyboard's preview on top.
  const pendingMove = fetcher.formData?.get("intent") === "move" ? fetcher.formData : null;
  let shown: Columns<Card> = saved;
  if (pendingMove) {
    shown = applyMove(shown, String(pendingMove.get("taskId")), pendingMove.get("status") as Status, Number(pendingMove.get("position")));
  }
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
      const reason = fetcher.data.errors?.form ?? Object.values(fetcher.data.errors ?? {})[0] ?? "The server refused it.";
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

  const others = useCallback((base: Columns<Card>, taskId: string) => (status: Status) => base[status].filter((t) => t.id !== taskId).length, []);

  function submitMove(taskId: string, status: Status, position: number) {
    const task = byId.get(taskId);
    if (!task) return;
    if (task.status === status && task.position === positionIn(saved, taskId)) return;
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

  /** Enter, Space or a click: pick the card up, or drop it where the arrows took it. */
  function pickOrDrop(task: Card) {
    const ref = taskRef(projectKey, task.number);
    if (!picked || picked.taskId !== task.id) {
      const position = positionIn(shown, task.id);
      refocus.current = task.id;
      setPicked({ taskId: task.id, status: task.status, position, from: { status: task.status, position } });
      setAnnouncement(`Picked up ${ref} in ${describePlace(shown, task.status, position, task.id)}. Arrow keys move it, Enter or Space drops it, Escape cancels.`);
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
      pickOrDrop(task);
      return;
    }
    if (!picked || picked.taskId !== task.id) return;
    if (key === "ArrowLeft" || key === "ArrowRight" || key === "ArrowUp" || key === "ArrowDown") {
      event.preventDefault();
      const base = pendingMove ? applyMove(saved, String(pendingMove.get("taskId")), pendingMove.get("status") as Status, Number(pendingMove.get("position"))) : saved;
      const next = nudge(picked, key, others(base, task.id));
      setPicked({ ...picked, ...next });
      setAnnouncement(describePlace(base, next.status, next.position, task.id));
    } else if (key === "Escape") {
      event.preventDefault();
      setPicked(null);
      setAnnouncement(`Move canceled. ${taskRef(projectKey, task.number)} is back in ${STATUS_LABELS[picked.from.status]}.`);
    }
  }

  function onDrop(event: DragEvent<HTMLElement>, status: Status) {
    event.preventDefault();
    const taskId = event.dataTransfer.getData("text/plain") || dragging;
    setDragging(null);
    if (!taskId || !byId.has(taskId)) return;
    const list = event.currentTarget.querySelector("ol");
    const cards = list ? [...list.querySelectorAll<HTMLElement>("[data-task-id]")].filter((el) => el.dataset.taskId !== taskId) : [];
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

  return (
    <div className="board-wrap">
      <p className="visually-hidden" role="status" aria-live="assertive" data-board-announcer>
        {announcement}
      </p>
      {failure ? (
        <div className="alert alert-error board-failure" role="alert">
          {failure}{" "}
          <button type="button" className="link-button" onClick={() => setFailure(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {interactive ? (
        <p className="hint board-hint">Drag a card, or focus its ⠿ button, press Enter, move it with the arrow keys and press Enter again.</p>
      ) : null}
      <div className="board" data-board>
        {STATUSES.map((status) => {
          const column = totals[status];
          const tasks = shown[status];
          const headingId = `column-${status}`;
          return (
            <section
              key={status}
              className={`board-column status-${status}${dragging ? " drop-ready" : ""}`}
              aria-labelledby={headingId}
              data-status={status}
              onDragOver={interactive ? (event) => event.preventDefault() : undefined}
              onDrop={interactive ? (event) => onDrop(event, status) : undefined}
            >
              <h2 id={headingId} className="column-heading">
                {STATUS_LABELS[status]}{" "}
                <span className="column-count" aria-label={column.hasMore ? `${column.tasks.length} shown, more below` : `${column.tasks.length} tasks`}>
                  {column.tasks.length}
                  {column.hasMore ? "+" : ""}
                </span>
              </h2>
              <ol className="card-list">
                {tasks.map((task) => {
                  const ref = taskRef(projectKey, task.number);
                  const isPicked = picked?.taskId === task.id;
                  const isPending = pendingMove?.get("taskId") === task.id;
                  return (
                    <li
                      key={task.id}
                      className={`task-card priority-${task.priority}${task.number === openNumber ? " is-open" : ""}${isPicked ? " is-picked" : ""}${isPending ? " is-pending" : ""}`}
                      data-task-id={task.id}
                      draggable={interactive || undefined}
                      onDragStart={
                        interactive
                          ? (event) => {
                              event.dataTransfer.setData("text/plain", task.id);
                              event.dataTransfer.effectAllowed = "move";
                              setDragging(task.id);
                            }
                          : undefined
                      }
                      onDragEnd={interactive ? () => setDragging(null) : undefined}
                    >
                      <div className="task-card-top">
                        <Link to={`${basePath}/tasks/${task.number}${linkSearch}`} className="task-card-link" preventScrollReset>
                          <span className="task-ref">{ref}</span> <span className="task-card-title">{task.title}</span>
                        </Link>
                        {interactive ? (
                          <button
                            type="button"
                            className="move-handle"
                            data-move-button={task.id}
                            aria-label={`Move ${ref}`}
                            aria-pressed={isPicked}
                            onKeyDown={(event) => onMoveKey(event, task)}
                            onClick={(event) => {
                              // keyboard activation is handled on keydown; this is for pointers
                              if (event.detail !== 0) pickOrDrop(task);
                            }}
                            onBlur={() => {
                              if (refocus.current === task.id && !isPicked) refocus.current = null;
                            }}
                          >
                            ⠿
                          </button>
                        ) : null}
                      </div>
                      <CardMeta task={task} assignee={task.assignee_id ? memberNames[task.assignee_id] : null} />
                    </li>
                  );
                })}
              </ol>
              {column.hasMore ? (
                <p className="show-more">
                  <Link to={showMoreSearch(searchParams, status, column.limit)} preventScrollReset>
                    Show more {STATUS_LABELS[status].toLowerCase()} tasks
                  </Link>
                </p>
              ) : null}
            </section>
          );
        })}
      </div>
    </div>
  );
}

function positionIn(columns: Columns<Card>, taskId: string): number {
  for (const status of STATUSES) {
    const index = columns[status].findIndex((t) => t.id === taskId);
    if (index >= 0) return index;
  }
  return 0;
}

function CardMeta({ task, assignee }: { task: Card; assignee: string | null | undefined }) {
  return (
    <div className="task-card-meta">
      {task.priority !== "none" ? <span className={`priority priority-${task.priority}`}>{PRIORITY_LABELS[task.priority]}</span> : null}
      {task.due_on ? <span className="due">Due {task.due_on}</span> : null}
      <span className="assignee">{assignee ?? (task.assignee_id ? "Assigned" : "Unassigned")}</span>
      {task.labels.length > 0 ? (
        <ul className="labels" aria-label="Labels">
          {task.labels.map((label) => (
            <li key={label} className="label">
              {label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
