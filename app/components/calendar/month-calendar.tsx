import { Link, useLocation } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/components/board/use-hydrated";
import { FormAlert } from "~/components/form";
import { calendarMonth, isOverdue, TASKS_PER_DAY, tasksByDay, type CalendarTask } from "~/lib/calendar";
import { spansByDay } from "~/lib/calendar-spans";
import { formatDay, MONTH_NAMES, WEEKDAY_NAMES, weekdayOf } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import { describeDay, useCalendarMove, type CalendarMove } from "./use-calendar-move";

const monthLabel = (month: string) => {
  const [year, m] = month.split("-").map(Number);
  return `${MONTH_NAMES[m - 1]} ${year}`;
};

/**
 * A month: on wide screens a grid of whole weeks, Monday first, each task on
 * its due date (4 a day, then "+N more", which opens the whole day); on
 * phones the same list of days shows as a list of the month's days that have
 * tasks. Previous and next month are links (`?month=`), so the page is whole
 * without JavaScript; with it, tasks move between days (use-calendar-move).
 */
export function MonthCalendar({
  month,
  tasks,
  capped,
  showsAssigned,
}: {
  month: string;
  tasks: CalendarTask[];
  capped: boolean;
  /** the page of my own tasks, across teams (what an empty month says) */
  showsAssigned?: boolean;
}) {
  const { today, now } = usePageTime();
  const grid = calendarMonth(month);
  const location = useLocation();
  const hydrated = useHydrated();
  const move = useCalendarMove({ tasks, days: grid.days });
  const anyMovable = hydrated && tasks.some((t) => t.movable);
  const byDay = tasksByDay(move.shown);
  const spans = spansByDay(move.shown, grid.days[0]);
  const inMonth = tasks.filter((t) => t.due_on >= grid.first && t.due_on <= grid.last).length;
  const monthLink = (target: string) => {
    const params = new URLSearchParams(location.search);
    params.set("month", target);
    return `?${params}`;
  };

  return (
    <section className="calendar" aria-labelledby="calendar-title" id="calendar">
      <div className="calendar-header">
        <h2 id="calendar-title">{grid.label}</h2>
        <nav className="calendar-nav" aria-label="Months">
          {grid.previous ? (
            <Link to={monthLink(grid.previous)} rel="prev" preventScrollReset>
              <span aria-hidden="true">← </span>
              {monthLabel(grid.previous)}
            </Link>
          ) : null}
          {today.slice(0, 7) !== month ? (
            <Link to={monthLink(today.slice(0, 7))} preventScrollReset>
              This month
            </Link>
          ) : null}
          {grid.next ? (
            <Link to={monthLink(grid.next)} rel="next" preventScrollReset>
              {monthLabel(grid.next)}
              <span aria-hidden="true"> →</span>
            </Link>
          ) : null}
        </nav>
      </div>
      <p className="muted small calendar-summary">
        {inMonth === 0
          ? showsAssigned
            ? "Nothing assigned to you is due this month."
            : "No task is due this month."
          : `${inMonth} ${inMonth === 1 ? "task is" : "tasks are"} due this month.`}
        {anyMovable ? (
          <span className="calendar-hint">
            {" "}
            Drag a task to another day, or use its ⠿ button: Enter picks it up, arrow keys move it, Enter drops it.
          </span>
        ) : null}
      </p>
      {capped ? (
        <p className="alert alert-info">This month has more tasks than one page shows; the first 1,000 are here.</p>
      ) : null}
      {move.failure ? <FormAlert>{move.failure}</FormAlert> : null}
      <ol className="calendar-weekdays" aria-hidden="true">
        {WEEKDAY_NAMES.map((name) => (
          <li key={name}>{name.slice(0, 3)}</li>
        ))}
      </ol>
      <ol className="calendar-grid">
        {grid.days.map((day) => (
          <CalendarDay
            key={day}
            day={day}
            tasks={byDay.get(day) ?? []}
            spans={spans.get(day) ?? []}
            now={now}
            outside={day < grid.first || day > grid.last}
            today={today}
            move={hydrated ? move : null}
          />
        ))}
      </ol>
      <p className="visually-hidden" aria-live="polite">
        {move.announcement}
      </p>
    </section>
  );
}

function CalendarDay({
  day,
  tasks,
  spans,
  now,
  outside,
  today,
  move,
}: {
  day: string;
  tasks: CalendarTask[];
  /** tasks that started on or before this day and are due after it */
  spans: CalendarTask[];
  now: number;
  outside: boolean;
  today: string;
  move: CalendarMove | null;
}) {
  const isToday = day === today;
  const extra = tasks.length - TASKS_PER_DAY;
  const classes = [
    "calendar-day",
    outside ? "is-outside" : "",
    isToday ? "is-today" : "",
    weekdayOf(day) >= 5 ? "is-weekend" : "",
    tasks.length === 0 && spans.length === 0 ? "is-empty" : "",
    move?.dropDay === day ? "is-drop-target" : "",
  ]
    .filter(Boolean)
    .join(" ");
  const [, , date] = day.split("-").map(Number);
  return (
    <li
      className={classes}
      id={`day-${day}`}
      data-day={day}
      onDragOver={move ? (event) => move.onDragOver(event, day) : undefined}
      onDrop={move ? (event) => move.onDrop(event, day) : undefined}
    >
      <h3 className="calendar-day-heading">
        <time dateTime={day} aria-current={isToday ? "date" : undefined}>
          <span className="calendar-day-number" aria-hidden="true">
            {date}
          </span>
          <span className="calendar-day-name">{describeDay(day)}</span>
        </time>
        {isToday ? <span className="today-mark">Today</span> : null}
      </h3>
      {spans.length > 0 ? (
        <ul className="calendar-spans">
          {spans.map((task) => (
            <li
              key={task.id}
              className={`calendar-span${task.start_on === day ? " is-span-start" : ""}${task.open ? "" : " is-closed"}`}
              data-span-of={task.id}
            >
              <Link to={task.href} className="calendar-task-link" tabIndex={task.start_on === day ? undefined : -1}>
                <span className="task-ref">{task.ref}</span> {task.title}
                <span className="visually-hidden">
                  {task.start_on === day ? " starts" : " continues"}, due {formatDay(task.due_on)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {tasks.length > 0 ? (
        <ul className="calendar-tasks">
          {tasks.map((task, index) => (
            <CalendarTaskItem
              key={task.id}
              task={task}
              overdue={isOverdue(task, today, now)}
              extra={index >= TASKS_PER_DAY}
              move={move && task.movable ? move : null}
            />
          ))}
        </ul>
      ) : null}
      {extra > 0 ? (
        <>
          <a className="calendar-more" href={`#day-${day}`}>
            +{extra} more<span className="visually-hidden"> on {formatDay(day)}</span>
          </a>
          <a className="calendar-fewer" href="#calendar">
            Show fewer
          </a>
        </>
      ) : null}
    </li>
  );
}

function CalendarTaskItem({
  task,
  overdue,
  extra,
  move,
}: {
  task: CalendarTask;
  overdue: boolean;
  extra: boolean;
  move: CalendarMove | null;
}) {
  const picked = move?.pickedId === task.id;
  const menuOpen = move?.menuId === task.id;
  const classes = [
    "calendar-task",
    extra ? "is-extra" : "",
    task.open ? "" : "is-closed",
    overdue ? "is-overdue" : "",
    picked ? "is-picked" : "",
    move?.pendingId === task.id ? "is-pending" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <li
      className={classes}
      data-task-id={task.id}
      draggable={move ? true : undefined}
      onPointerDown={move ? move.onPointerDown : undefined}
      onDragStart={move ? (event) => move.onDragStart(event, task.id) : undefined}
      onDragEnd={move ? move.onDragEnd : undefined}
    >
      <Link to={task.href} className="calendar-task-link">
        <span className="task-ref">{task.ref}</span> {task.title}
        {task.due_time ? <span className="calendar-task-time"> {task.due_time}</span> : null}
      </Link>
      {task.repeats ? (
        <span className="repeat-mark" title="Repeats">
          <span aria-hidden="true">↻</span>
          <span className="visually-hidden">Repeats</span>
        </span>
      ) : null}
      {overdue ? <span className="overdue-badge">Overdue</span> : null}
      {!task.open ? <span className="visually-hidden">(done)</span> : null}
      {move ? (
        <button
          type="button"
          className="move-handle"
          data-move-button={task.id}
          aria-label={`Move ${task.ref} to another day`}
          aria-pressed={picked}
          aria-expanded={menuOpen}
          onKeyDown={(event) => move.onMoveKey(event, task)}
          onClick={(event) => {
            // keyboard activation is handled on keydown; this is for pointers
            if (event.detail !== 0) move.toggleMenu(task);
          }}
          onBlur={() => move.onMoveButtonBlur(task.id)}
        >
          ⠿
        </button>
      ) : null}
      {move && menuOpen ? <MoveToDay task={task} move={move} /> : null}
    </li>
  );
}

/** The touch way: a date field for the task's new due date. */
function MoveToDay({ task, move }: { task: CalendarTask; move: CalendarMove }) {
  const [day, setDay] = useState(task.due_on);
  const id = `move-day-${task.id}`;
  return (
    <div
      className="move-menu"
      role="group"
      aria-label={`Move ${task.ref}`}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        move.closeMenu(task.id);
      }}
    >
      <label htmlFor={id}>New due date</label>
      <input
        id={id}
        type="date"
        value={day}
        min="2000-01-01"
        max="2100-12-31"
        onChange={(e) => setDay(e.target.value)}
      />
      <div className="move-menu-choices">
        <button type="button" className="button button-small" onClick={() => day && move.moveFromMenu(task, day)}>
          Move
        </button>
        <button type="button" className="button button-small button-secondary" onClick={() => move.closeMenu(task.id)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
