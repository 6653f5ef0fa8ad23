import { PRIORITY_LABELS, type Priority } from "./board";
import { formatDay } from "./dates";
import { statusName } from "./notifications";

/**
 * Task events in words (docs/product.md §10), for the task's timeline ("Olive
 * moved this from To do to In progress") and the team's activity page
 * ("Olive moved WEB-12 Write the brief from To do to In progress"). The
 * events and their data are written by the database (migration
 * 20261126000400 lists the kinds); names of the people an event names come
 * from the team's members, so a renamed person shows under their new name.
 */
export interface TaskEvent {
  id: string;
  kind: string;
  data: Record<string, unknown>;
  actor_id: string | null;
  actor: { display_name: string } | null;
  created_at: string;
}

type Change = { from?: unknown; to?: unknown };

export interface EventWording {
  /** people by id (the team's members) */
  names: ReadonlyMap<string, string>;
  /** how the task is named: "this" on its own page, "WEB-12 Write the brief" elsewhere */
  subject: string;
}

export function actorName(event: Pick<TaskEvent, "actor" | "actor_id">): string {
  if (event.actor) return event.actor.display_name;
  return event.actor_id ? "A former member" : "Someone";
}

function person(id: unknown, names: ReadonlyMap<string, string>): string {
  return (typeof id === "string" && names.get(id)) || "a former member";
}

function quoted(text: unknown, max = 80): string {
  const s = String(text ?? "");
  return `“${s.length > max ? `${s.slice(0, max - 1)}…` : s}”`;
}

function listOf(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

function idList(ids: unknown): string[] {
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

/** Labels as an event keeps them, `{ id, name }` (no name: deleted with the change). */
function labelList(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  return labels.map((l: { name?: unknown } | null) => (typeof l?.name === "string" ? l.name : "a deleted label"));
}

/** Another task as an event keeps it: "WEB-12 “Write the brief”", or "a deleted task". */
function otherTask(ref: { number?: unknown; title?: unknown; project_key?: unknown } | null | undefined): string {
  if (!ref || typeof ref.number !== "number") return "a deleted task";
  const key = typeof ref.project_key === "string" ? `${ref.project_key}-` : "#";
  // a private project's task, named from elsewhere: its key and number only (decision 0039)
  if (typeof ref.title !== "string") return `${key}${ref.number}`;
  return `${key}${ref.number} ${quoted(ref.title)}`;
}

const RELATION_ADDED: Record<string, (subject: string, other: string) => string> = {
  blocks: (s, o) => `marked ${s} as blocking ${o}`,
  blocked_by: (s, o) => `marked ${s} as blocked by ${o}`,
  duplicates: (s, o) => `marked ${s} as a duplicate of ${o}`,
  duplicated_by: (s, o) => `marked ${o} as a duplicate of ${s}`,
  relates: (s, o) => `related ${s} to ${o}`,
};

const RELATION_NAMES: Record<string, string> = {
  blocks: "blocking",
  blocked_by: "blocking",
  duplicates: "duplicate",
  duplicated_by: "duplicate",
  relates: "related",
};

interface ProjectPlace {
  key: string;
  name: string;
  number: number;
}

/** One phrase per changed field, in a fixed order; the task is named once, then "it". */
function changePhrases(changes: Record<string, Change>, { names, subject: named }: EventWording): string[] {
  const phrases: string[] = [];
  let mentioned = false;
  const task = () => {
    const name = mentioned && named !== "this" ? "it" : named;
    mentioned = true;
    return name;
  };
  // " to WEB-12 …" where the task isn't named yet on the line, else nothing
  const onTask = (preposition: string) => (mentioned || named === "this" ? "" : ` ${preposition} ${task()}`);
  const { title, description, status, priority, assignee, due_on, labels, parent, recurrence } = changes;
  // moved to another project (…_move_and_duplicate.sql): its keys there and here
  const project = changes.project as { from?: ProjectPlace; to?: ProjectPlace } | undefined;
  if (project?.from && project.to)
    phrases.push(
      `moved ${task()} from ${project.from.name} to ${project.to.name} (${project.from.key}-${project.from.number} is ${project.to.key}-${project.to.number} now)`,
    );
  if (status) phrases.push(`moved ${task()} from ${statusName(status.from)} to ${statusName(status.to)}`);
  if (assignee) {
    phrases.push(
      assignee.to
        ? `assigned ${task()} to ${person(assignee.to, names)}`
        : `unassigned ${person(assignee.from, names)} from ${task()}`,
    );
  }
  // several assignees (…_task_assignees.sql): the set before and after
  const assignees = changes.assignees;
  if (assignees) {
    const from = idList(assignees.from);
    const to = idList(assignees.to);
    const added = to.filter((id) => !from.includes(id)).map((id) => person(id, names));
    const removed = from.filter((id) => !to.includes(id)).map((id) => person(id, names));
    if (added.length) phrases.push(`assigned ${task()} to ${listOf(added)}`);
    if (removed.length) phrases.push(`unassigned ${listOf(removed)} from ${task()}`);
  }
  if (title) phrases.push(`renamed ${task()} from ${quoted(title.from)} to ${quoted(title.to)}`);
  if (description) phrases.push(`edited the description${onTask("of")}`);
  if (priority) {
    phrases.push(
      priority.to === "none"
        ? `cleared the priority of ${task()}`
        : `set the priority of ${task()} to ${PRIORITY_LABELS[priority.to as Priority] ?? String(priority.to)}`,
    );
  }
  if (due_on) {
    phrases.push(
      due_on.to
        ? `set the due date of ${task()} to ${formatDay(String(due_on.to))}`
        : `removed the due date of ${task()}`,
    );
  }
  const added = labelList((labels as { added?: unknown } | undefined)?.added);
  const removed = labelList((labels as { removed?: unknown } | undefined)?.removed);
  if (added.length)
    phrases.push(`added the ${added.length === 1 ? "label" : "labels"} ${listOf(added)}${onTask("to")}`);
  if (removed.length)
    phrases.push(`removed the ${removed.length === 1 ? "label" : "labels"} ${listOf(removed)}${onTask("from")}`);
  if (parent) {
    phrases.push(
      parent.to
        ? `made ${task()} a sub-task of ${otherTask(parent.to as Parameters<typeof otherTask>[0])}`
        : `made ${task()} a task of its own`,
    );
  }
  if (recurrence) phrases.push(recurrence.to ? `changed how ${task()} repeats` : `stopped ${task()} repeating`);
  // fields the team defines (…_fields.sql): "field:<id>": {name, from, to}, the values in words then
  for (const [key, change] of Object.entries(changes)) {
    if (!key.startsWith("field:")) continue;
    const name =
      typeof (change as { name?: unknown }).name === "string" ? (change as { name: string }).name : "a field";
    phrases.push(
      change.to == null || change.to === ""
        ? `cleared ${name}${onTask("on")}`
        : `set ${name}${onTask("of")} to ${String(change.to)}`,
    );
  }
  return phrases;
}

/** What the actor did, after their name: "moved this from To do to In progress". */
export function describeEvent(event: Pick<TaskEvent, "kind" | "data">, wording: EventWording): string {
  const { subject } = wording;
  const d = event.data;
  switch (event.kind) {
    case "task_created":
      // a duplicate (…_move_and_duplicate.sql) names what it copies
      return d.copied_from
        ? `created ${subject} as a copy of ${otherTask(d.copied_from as never)}`
        : `created ${subject}`;
    case "task_deleted":
      return `deleted ${subject}`;
    case "task_updated": {
      const phrases = changePhrases((d.changes ?? {}) as Record<string, Change>, wording);
      return phrases.length ? listOf(phrases) : `changed ${subject}`;
    }
    case "comment_posted":
      return subject === "this" ? "commented" : `commented on ${subject}`;
    case "comment_edited":
      return subject === "this" ? "edited a comment" : `edited a comment on ${subject}`;
    case "comment_deleted":
      return subject === "this" ? "deleted a comment" : `deleted a comment on ${subject}`;
    case "attachment_added":
      return `attached ${d.file_name}${subject === "this" ? "" : ` to ${subject}`}`;
    case "attachment_removed":
      return `removed the attachment ${d.file_name}${subject === "this" ? "" : ` from ${subject}`}`;
    case "checklist_item_added":
      return `added ${quoted(d.text)} to the checklist${subject === "this" ? "" : ` of ${subject}`}`;
    case "checklist_item_ticked":
      return `ticked ${quoted(d.text)}${subject === "this" ? "" : ` on ${subject}`}`;
    case "checklist_item_unticked":
      return `unticked ${quoted(d.text)}${subject === "this" ? "" : ` on ${subject}`}`;
    case "checklist_item_removed":
      return `removed ${quoted(d.text)} from the checklist${subject === "this" ? "" : ` of ${subject}`}`;
    case "checklist_item_renamed":
      return `renamed the checklist item ${quoted(d.from)} to ${quoted(d.to)}${subject === "this" ? "" : ` on ${subject}`}`;
    case "subtask_added":
      return `added the sub-task ${quoted(d.title)}${subject === "this" ? "" : ` to ${subject}`}`;
    case "subtask_removed":
      return `removed the sub-task ${quoted(d.title)}${subject === "this" ? "" : ` from ${subject}`}`;
    case "relation_added": {
      const say = RELATION_ADDED[String(d.relation)] ?? RELATION_ADDED.relates;
      return say(subject, otherTask(d));
    }
    case "relation_removed":
      return `removed the ${RELATION_NAMES[String(d.relation)] ?? "related"} relation between ${subject} and ${otherTask(d)}`;
    default:
      return `changed ${subject}`;
  }
}
