import { addDays, daysBetween } from "./dates";

// The month calendar's spans and moves (its own module: the board's cards import lib/calendar for
// "Overdue", and need none of this)

/**
 * The days before its due date that a task with a start date covers (§17: the
 * calendar draws it from start to due), from its start or the grid's first
 * day, whichever is later: day -> the tasks passing through it, in the order given.
 */
export function spansByDay<T extends { due_on: string; start_on?: string | null }>(
  tasks: T[],
  firstDay: string,
): Map<string, T[]> {
  const byDay = new Map<string, T[]>();
  for (const task of tasks) {
    if (!task.start_on || task.start_on >= task.due_on) continue;
    for (let day = task.start_on < firstDay ? firstDay : task.start_on; day < task.due_on; day = addDays(day, 1)) {
      const list = byDay.get(day);
      if (list) list.push(task);
      else byDay.set(day, [task]);
    }
  }
  return byDay;
}

/**
 * The calendar with a task moved to another day (what the page shows while
 * the move is on its way): a start date moves by as many days (calendar.server's setDueDate).
 */
export function withMove<T extends { id: string; due_on: string; start_on?: string | null }>(
  tasks: T[],
  taskId: string,
  dueOn: string,
): T[] {
  return tasks.map((task) =>
    task.id === taskId
      ? {
          ...task,
          due_on: dueOn,
          ...(task.start_on ? { start_on: addDays(task.start_on, daysBetween(task.due_on, dueOn)) } : {}),
        }
      : task,
  );
}
