import { Avatar } from "~/components/avatar";
import { Link } from "@remix-run/react";
import { PRIORITY_LABELS, taskRef } from "~/lib/board";
import { isOverdue } from "~/lib/calendar";
import { usePageTime } from "~/lib/use-page-time";
import type { Card } from "~/lib/board";
import { LabelChips } from "~/components/labels";
import type { BoardMove } from "./use-board-move";
import { DueDay } from "~/components/day";
import { fieldWords, type FieldDef } from "~/lib/fields";

/**
 * One card: a link that opens the task in the panel and, when the person may
 * move it (with JavaScript), a drag source (for a mouse) and a move button:
 * tapped or clicked it opens a menu of where the card can go; with the
 * keyboard (Enter or Space) it picks the card up for the arrow keys.
 */
export function TaskCard({
  task,
  projectKey,
  href,
  people,
  fields = [],
  open,
  closed,
  move,
}: {
  task: Card;
  projectKey: string;
  href: string;
  /** the assignees, first added first (a name the board doesn't know: a former member) */
  people: CardPerson[];
  /** the project's fields shown on cards (at most 3) */
  fields?: FieldDef[];
  /** the task open in the panel */
  open: boolean;
  /** its column's status is completed or canceled (no "Overdue") */
  closed: boolean;
  /** null when the card can't be moved (no JavaScript yet, or a viewer) */
  move: BoardMove | null;
}) {
  const ref = taskRef(projectKey, task.number);
  const isPicked = move?.pickedId === task.id;
  const isPending = move?.pendingId === task.id;
  const menuOpen = move?.menuId === task.id;
  const menuId = `move-menu-${task.id}`;
  return (
    <li
      className={`task-card priority-${task.priority}${open ? " is-open" : ""}${isPicked ? " is-picked" : ""}${isPending ? " is-pending" : ""}`}
      data-task-id={task.id}
      draggable={move ? true : undefined}
      onPointerDown={move ? move.onPointerDown : undefined}
      onDragStart={move ? (event) => move.onDragStart(event, task.id) : undefined}
      onDragEnd={move ? move.onDragEnd : undefined}
    >
      <div className="task-card-top">
        <Link to={href} className="task-card-link" preventScrollReset data-nav-item>
          <span className="task-ref">{ref}</span> <span className="task-card-title">{task.title}</span>
        </Link>
        {move ? (
          <button
            type="button"
            className="move-handle"
            data-move-button={task.id}
            aria-label={`Move ${ref}`}
            aria-pressed={isPicked}
            aria-expanded={menuOpen}
            aria-controls={menuOpen ? menuId : undefined}
            onKeyDown={(event) => move.onMoveKey(event, task)}
            onClick={(event) => {
              // keyboard activation is handled on keydown; this is for pointers (a tap, a click)
              if (event.detail !== 0) move.toggleMenu(task);
            }}
            onBlur={() => move.onMoveButtonBlur(task.id)}
          >
            ⠿
          </button>
        ) : null}
      </div>
      <CardFields task={task} fields={fields} people={people} />
      <CardMeta task={task} people={people} closed={closed} />
      {move && menuOpen ? <MoveMenu id={menuId} task={task} label={`Move ${ref}`} move={move} /> : null}
    </li>
  );
}

/** A place up or down within the card's column, in the order the menu offers them. */
const STEPS = ["up", "down"] as const;
const STEP_LABELS = { up: "Up one place", down: "Down one place" } satisfies Record<(typeof STEPS)[number], string>;

/**
 * Where a card can go, as buttons big enough for a finger: the columns its
 * status may move to (it lands at the top), a place up or down, or nothing.
 */
function MoveMenu({ id, task, label, move }: { id: string; task: Card; label: string; move: BoardMove }) {
  const choices = move.choicesFor(task);
  return (
    <div
      id={id}
      className="move-menu"
      role="group"
      aria-label={label}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        move.closeMenu(task.id, true);
      }}
    >
      {choices.statuses.length > 0 ? (
        <>
          <p className="move-menu-heading">Move to</p>
          <ul className="move-menu-choices">
            {choices.statuses.map((statusId) => (
              <li key={statusId}>
                <button type="button" className="button button-small" onClick={() => move.moveFromMenu(task, statusId)}>
                  {move.nameOf(statusId)}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <ul className="move-menu-choices">
        {STEPS.filter((step) => choices[step]).map((step) => (
          <li key={step}>
            <button
              type="button"
              className="button button-small button-secondary"
              onClick={() => move.moveFromMenu(task, step)}
            >
              {STEP_LABELS[step]}
            </button>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => move.closeMenu(task.id, true)}
          >
            Cancel
          </button>
        </li>
      </ul>
    </div>
  );
}

type CardPerson = { id: string; name: string | undefined; avatarPath: string | null };

/** Up to 3 avatars, stacked, then "+2"; every name for a screen reader and on hover. */
function Assignees({ people }: { people: CardPerson[] }) {
  if (!people.length) return <span className="assignee">Unassigned</span>;
  const names = people.map((p) => p.name ?? "A former member");
  if (people.length === 1) {
    return (
      <span className="assignee with-avatar">
        <Avatar path={people[0].avatarPath} name={people[0].name} size={18} />
        {names[0]}
      </span>
    );
  }
  const shown = people.slice(0, 3);
  const more = people.length - shown.length;
  return (
    <span className="assignee assignees-stack with-avatar" title={names.join(", ")}>
      <span className="avatar-stack" aria-hidden="true">
        {shown.map((p) => (
          <Avatar key={p.id} path={p.avatarPath} name={p.name} size={18} />
        ))}
        {more > 0 ? <span className="avatar-more">+{more}</span> : null}
      </span>
      <span className="visually-hidden">Assigned to {names.join(", ")}</span>
    </span>
  );
}

/** The values of the fields shown on cards ("Points 5", "Acme"), only those the task has. */
function CardFields({ task, fields, people }: { task: Card; fields: FieldDef[]; people: CardPerson[] }) {
  const values = task.fields ?? {};
  const names = (id: string) => people.find((p) => p.id === id)?.name;
  const shown = fields.flatMap((def) => {
    const words = fieldWords(def, values[def.id], names);
    if (words === null) return [];
    const option = def.kind === "select" ? def.options.find((o) => o.id === values[def.id]) : undefined;
    return [{ def, words, color: option?.color }];
  });
  if (!shown.length) return null;
  return (
    <ul className="card-fields">
      {shown.map(({ def, words, color }) => (
        <li key={def.id} className={color ? `card-field chip color-${color}` : "card-field"}>
          <span className="card-field-name">{def.name}</span> {words}
        </li>
      ))}
    </ul>
  );
}

function CardMeta({ task, people, closed }: { task: Card; people: CardPerson[]; closed: boolean }) {
  const { today, now } = usePageTime();
  return (
    <div className="task-card-meta">
      {task.blocked ? <span className="blocked">Blocked</span> : null}
      {task.priority !== "none" ? (
        <span className={`priority priority-${task.priority}`}>{PRIORITY_LABELS[task.priority]}</span>
      ) : null}
      {task.due_on ? (
        <span className="due">
          Due <DueDay day={task.due_on} at={task.due_at} />
        </span>
      ) : null}
      {task.repeats ? (
        <span className="repeat-mark" title="Repeats">
          ↻<span className="visually-hidden"> Repeats</span>
        </span>
      ) : null}
      {isOverdue({ ...task, open: !closed }, today, now) ? <span className="overdue-badge">Overdue</span> : null}
      <Assignees people={people} />
      {task.checklist ? (
        <span
          className={`tally${task.checklist.done === task.checklist.total ? " tally-done" : ""}`}
          aria-label={`Checklist: ${task.checklist.done} of ${task.checklist.total} done`}
        >
          <span aria-hidden="true">☑ </span>
          {task.checklist.done}/{task.checklist.total}
        </span>
      ) : null}
      {task.subtasks ? (
        <span
          className={`tally${task.subtasks.done === task.subtasks.total ? " tally-done" : ""}`}
          aria-label={`Sub-tasks: ${task.subtasks.done} of ${task.subtasks.total} done`}
        >
          <span aria-hidden="true">↳ </span>
          {task.subtasks.done}/{task.subtasks.total}
        </span>
      ) : null}
      {task.comments > 0 ? <CardCount count={task.comments} one="comment" many="comments" icon={COMMENT_ICON} /> : null}
      {task.attachments > 0 ? (
        <CardCount count={task.attachments} one="attachment" many="attachments" icon={PAPERCLIP_ICON} />
      ) : null}
      <LabelChips labels={task.labels} />
    </div>
  );
}

const COMMENT_ICON =
  "M3 4.5A1.5 1.5 0 0 1 4.5 3h11A1.5 1.5 0 0 1 17 4.5v8a1.5 1.5 0 0 1-1.5 1.5H8l-4 3v-3.2A1.5 1.5 0 0 1 3 12.5Z";
const PAPERCLIP_ICON =
  "M15.5 9.5l-5.8 5.8a3.5 3.5 0 0 1-5-5l6.4-6.4a2.3 2.3 0 0 1 3.3 3.3l-6.4 6.4a1.2 1.2 0 0 1-1.7-1.7l5.8-5.8";

/** "2 comments" as an icon and the number; the words are there for a screen reader and a pointer's tooltip. */
function CardCount({ count, one, many, icon }: { count: number; one: string; many: string; icon: string }) {
  const words = count === 1 ? one : many;
  return (
    <span className="tally card-count" title={`${count} ${words}`}>
      <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
        <path
          d={icon}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {count}
      <span className="visually-hidden"> {words}</span>
    </span>
  );
}
