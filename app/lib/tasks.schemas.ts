import { z } from "zod";
import { PRIORITIES } from "./board";
import { VISIBILITIES } from "./project-access.schemas";
import { RELATION_CHOICES } from "./relations";

/** Forms of projects, tasks and comments (docs/product.md §5), for the server and the browser. */

/** Browsers send textarea line breaks as CRLF; the limits count characters a person sees. */
const plainText = (max: number, message: string) =>
  z
    .string()
    .default("")
    .transform((value) => value.replace(/\r\n?/g, "\n"))
    .pipe(z.string().max(max, message));

export const CreateProjectSchema = z.object({
  key: z
    .string({ required_error: "Enter a key." })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2,10}$/, "A key is 2–10 letters, like WEB."),
  name: z
    .string({ required_error: "Enter a project name." })
    .trim()
    .min(1, "Enter a project name.")
    .max(80, "A project name has at most 80 characters."),
  description: plainText(10_000, "A description has at most 10,000 characters.").transform((value) => value.trim()),
  /** who sees it (docs/product.md §20); the people chosen come as several `memberIds` fields */
  visibility: z.enum(VISIBILITIES, { errorMap: () => ({ message: "Choose who sees the project." }) }).default("team"),
});

const title = z
  .string({ required_error: "Enter a title." })
  .trim()
  .min(1, "Enter a title.")
  .max(200, "A title has at most 200 characters.");

const description = plainText(10_000, "A description has at most 10,000 characters.");

const priority = z.enum(PRIORITIES, { errorMap: () => ({ message: "Choose a priority." }) }).default("none");

const assignee = z
  .string()
  .default("")
  .transform((value) => value.trim())
  .pipe(z.union([z.literal("").transform(() => null), z.string().uuid("Choose a member of this team.")]));

/** A real calendar date between 2000-01-01 and 2100-12-31, or empty. */
export function isValidDueDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    value >= "2000-01-01" &&
    value <= "2100-12-31"
  );
}

const dueOn = z
  .string()
  .default("")
  .transform((value) => value.trim())
  .refine((value) => value === "" || isValidDueDate(value), "Enter a real date between 2000-01-01 and 2100-12-31.")
  .transform((value) => (value === "" ? null : value));

/**
 * The start date and the due time (docs/product.md §17): optional, and left
 * out of the save when the form has no such input (a key not sent keeps the
 * column). "Not after the due date" and "a time needs a date" are the
 * database's checks (tasks_start_before_due, tasks_due_time_needs_due_on),
 * worded beside these inputs.
 */
const startOn = z
  .string()
  .optional()
  .transform((value) => value?.trim())
  .refine(
    (value) => value === undefined || value === "" || isValidDueDate(value),
    "Enter a real start date between 2000-01-01 and 2100-12-31.",
  )
  .transform((value) => (value === undefined ? undefined : value === "" ? null : value));

const dueTime = z
  .string()
  .optional()
  .transform((value) => value?.trim())
  // <input type="time"> sends "14:30" (or "14:30:00" with a step under a minute)
  .refine(
    (value) => value === undefined || value === "" || /^([01]\d|2[0-3]):[0-5]\d(:00)?$/.test(value),
    "Enter a time of day, such as 14:30.",
  )
  .transform((value) => (value === undefined ? undefined : value === "" ? null : value.slice(0, 5)));

/** "bug, a11y, Bug" → ["bug", "a11y"]: trimmed, empty ones dropped, a name (any capitals) once. */
export function parseLabels(value: string): string[] {
  const seen = new Map<string, string>();
  for (const part of value.split(",")) {
    const label = part.trim();
    if (label && !seen.has(label.toLowerCase())) seen.set(label.toLowerCase(), label);
  }
  return [...seen.values()];
}

const labelList = z
  .string()
  .default("")
  .transform(parseLabels)
  .refine((list) => list.length <= 10, "A task has at most 10 labels.")
  .refine((list) => list.every((label) => label.length <= 24), "Each label has at most 24 characters.");

/**
 * A task's labels in its form (issue 42 §5): one checkbox per team label,
 * named `label:<name>` (ticked: on), with the marker `labelsShown`, and
 * `newLabels`, names to make into team labels on purpose (the form's
 * "New labels" without JavaScript, the picker's "Create" with it). A name is
 * never made from a typo in a search. `labels`, the comma-separated field
 * forms had before, is still read when a post has no picker (`labelsShown`).
 */
const labels = labelList;
// how many in all (ticked and new) is counted by labelLimit, once
const newLabels = z
  .string()
  .default("")
  .transform(parseLabels)
  .refine((list) => list.every((label) => label.length <= 24), "Each label has at most 24 characters.");

// the picker's checkboxes (labelInputName in lib/fields.ts, which the page loads without Zod)
const LABEL_INPUT = "label:";

/** More than 10 labels ticked and new: the message for the picker, else nothing (spread into a form's errors). */
export function labelLimit(form: FormData): { labels?: string } {
  if (!form.has("labelsShown")) return {};
  const ticked = [...form.keys()].filter((key) => key.startsWith(LABEL_INPUT)).length;
  const named = parseLabels(String(form.get("newLabels") ?? "")).length;
  return ticked + named > 10 ? { labels: "A task has at most 10 labels." } : {};
}

/**
 * The labels a posted task form asks for, by name: the ticked ones and the
 * new ones; the comma-separated `labels` of a form without the picker; null
 * when the form had neither (they stay as they are).
 */
export function labelsFromForm(form: FormData, parsed: { labels: string[]; newLabels: string[] }): string[] | null {
  if (form.has("labelsShown")) {
    const ticked = [...form.keys()]
      .filter((key) => key.startsWith(LABEL_INPUT))
      .map((key) => key.slice(LABEL_INPUT.length).trim())
      .filter(Boolean);
    const seen = new Map<string, string>();
    for (const name of [...ticked, ...parsed.newLabels]) {
      if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
    }
    return [...seen.values()];
  }
  return form.has("labels") ? parsed.labels : null;
}

/**
 * Repeating (docs/product.md §12): how often, every N, the weekdays (one checkbox
 * each, day_MO … day_SU) and the month's day or last day. The rule itself
 * comes from these and the due date (taskRecurrence in lib/recurrence.server.ts;
 * this file imports nothing of lib/recurrence.ts, so the pages that load it for
 * other forms don't fetch that too).
 */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value !== undefined && value !== "");

const repeatFields = {
  repeat: z
    .enum(["never", "daily", "weekly", "monthly", "yearly"], {
      errorMap: () => ({ message: "Choose how often it repeats." }),
    })
    .default("never"),
  every: z
    .string()
    .default("1")
    .transform((value) => value.trim() || "1")
    .refine((value) => /^\d{1,2}$/.test(value) && Number(value) >= 1, "Repeat every 1 to 99.")
    .transform(Number),
  monthly: z.enum(["day", "last"]).default("day"),
  day_MO: checkbox,
  day_TU: checkbox,
  day_WE: checkbox,
  day_TH: checkbox,
  day_FR: checkbox,
  day_SA: checkbox,
  day_SU: checkbox,
};

export const TaskFieldsSchema = z.object({
  title,
  description,
  priority,
  assignee,
  dueOn,
  startOn,
  dueTime,
  labels,
  newLabels,
  ...repeatFields,
});

/** One of the project's statuses (the database checks it is this project's). */
const statusId = z.string({ required_error: "Choose a status." }).uuid("Choose a status.");

/** No status: the project's first backlog (else unstarted) status. */
export const CreateTaskSchema = TaskFieldsSchema.extend({
  status: z
    .string()
    .default("")
    .transform((value) => value.trim())
    .pipe(z.union([z.literal("").transform(() => null), statusId])),
});

/**
 * Moving a task: a status and, optionally, a place in that column. People
 * count places from 1 (the top); the move_task RPC counts from 0.
 */
export const MoveTaskSchema = z.object({
  taskId: z.string().uuid("That task doesn't exist."),
  status: statusId,
  position: z
    .string()
    .default("")
    .transform((value) => value.trim())
    .refine(
      (value) => value === "" || /^\d{1,6}$/.test(value),
      "Enter a place of 1 or more, or leave it empty for the end.",
    )
    .transform((value) => (value === "" ? null : Math.max(0, Number(value) - 1))),
});

/** The same move from the board's drag and drop, which already counts from 0. */
export const BoardMoveSchema = z.object({
  taskId: z.string().uuid("That task doesn't exist."),
  status: statusId,
  position: z.coerce.number().int().min(0),
});

const body = z
  .string({ required_error: "Write a comment." })
  .transform((value) => value.replace(/\r\n?/g, "\n").trim())
  .pipe(z.string().min(1, "Write a comment.").max(5000, "A comment has at most 5,000 characters."));

export const CommentSchema = z.object({ body });
export const EditCommentSchema = z.object({ commentId: z.string().uuid(), body });
export const DeleteCommentSchema = z.object({ commentId: z.string().uuid() });

// One schema per page with several forms, each form told apart by its `intent`.

/** The board: archive or unarchive the project, or a card's drag and drop. */
export const BoardActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("archive") }),
  z.object({ intent: z.literal("unarchive") }),
  BoardMoveSchema.extend({ intent: z.literal("move") }),
]);

/** A calendar: a task dragged or carried to another day gets that day as its due date. */
export const CalendarActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("due"),
    taskId: z.string().uuid("That task doesn't exist."),
    dueOn: z
      .string({ required_error: "Choose a day." })
      .refine(isValidDueDate, "Enter a real date between 2000-01-01 and 2100-12-31."),
  }),
]);

/**
 * The panel's fields edited in place (issue 42 §15), one form per field, each
 * saved by save_task with that field alone. The due date comes with the
 * task's repeat rule as the form's hidden fields, so the rule is made again
 * from the new date, as the task form does.
 */
const InPlaceSchemas = [
  z.object({ intent: z.literal("set-title"), title }),
  z.object({ intent: z.literal("set-priority"), priority }),
  z.object({ intent: z.literal("set-due"), dueOn, ...repeatFields }),
  z.object({ intent: z.literal("set-assignees") }),
  z.object({ intent: z.literal("set-labels"), labels, newLabels }),
] as const;

/** The task panel: its fields, one of them in place, its status and place (the task is the URL's), archiving or deleting it. */
export const TaskActionSchema = z.discriminatedUnion("intent", [
  TaskFieldsSchema.extend({ intent: z.literal("update") }),
  ...InPlaceSchemas,
  MoveTaskSchema.omit({ taskId: true }).extend({ intent: z.literal("move") }),
  z.object({ intent: z.literal("stop-repeating") }),
  z.object({ intent: z.literal("delete-task") }),
  z.object({ intent: z.literal("archive-task") }),
  z.object({ intent: z.literal("unarchive-task") }),
]);

const trashedTaskId = z
  .string({ required_error: "That task isn't in the trash." })
  .uuid("That task isn't in the trash.");

/** The project's trash (docs/product.md §18): restore a task, or delete it for good. */
export const TrashActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("restore"), taskId: trashedTaskId }),
  z.object({ intent: z.literal("purge"), taskId: trashedTaskId }),
]);

/** The project's archived tasks: put one back on the board. */
export const ArchivedActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("unarchive"), taskId: z.string().uuid("That task isn't archived.") }),
]);

/** A task's comments: a new one, or the author's edit, or a delete (the comment is a hidden field). */
export const CommentActionSchema = z.discriminatedUnion("intent", [
  CommentSchema.extend({ intent: z.literal("comment") }),
  EditCommentSchema.extend({ intent: z.literal("edit-comment") }),
  DeleteCommentSchema.extend({ intent: z.literal("delete-comment") }),
]);

// Breaking a task down (docs/product.md §11): its checklist, sub-tasks and relations.

const itemId = z.string({ required_error: "That item doesn't exist." }).uuid("That item doesn't exist.");
const itemTitle = z
  .string({ required_error: "Write the item." })
  .transform((value) => value.replace(/\s+/g, " ").trim())
  .pipe(z.string().min(1, "Write the item.").max(200, "A checklist item has at most 200 characters."));

export const ChecklistItemSchema = z.object({ title: itemTitle });

/** A task's checklist: add, edit, tick or untick, move up or down, remove. */
export const ChecklistActionSchema = z.discriminatedUnion("intent", [
  ChecklistItemSchema.extend({ intent: z.literal("add-item") }),
  ChecklistItemSchema.extend({ intent: z.literal("edit-item"), itemId }),
  z.object({ intent: z.literal("tick-item"), itemId, done: z.enum(["true", "false"]).transform((v) => v === "true") }),
  z.object({ intent: z.literal("move-item"), itemId, position: z.coerce.number().int().min(0) }),
  z.object({ intent: z.literal("remove-item"), itemId }),
]);

export const SubtaskSchema = z.object({ title });
export const SubtaskActionSchema = z.discriminatedUnion("intent", [
  SubtaskSchema.extend({ intent: z.literal("add-subtask") }),
]);

/** "web-12", " WEB-12 " → { key: "WEB", number: 12 }; null for anything else. */
export function parseTaskRef(value: string): { key: string; number: number } | null {
  const match = /^\s*([A-Za-z]{2,10})-(\d{1,9})\s*$/.exec(value);
  return match ? { key: match[1].toUpperCase(), number: Number(match[2]) } : null;
}

export const RelationSchema = z.object({
  relation: z.enum(RELATION_CHOICES, { errorMap: () => ({ message: "Choose how the tasks are related." }) }),
  other: z.string({ required_error: "Enter the other task, like WEB-12." }).transform((value, ctx) => {
    const ref = parseTaskRef(value);
    if (!ref) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Enter the other task, like WEB-12." });
    return ref ?? { key: "", number: 0 };
  }),
});

/** A task's relations: add one, or remove one (from either side). */
export const RelationActionSchema = z.discriminatedUnion("intent", [
  RelationSchema.extend({ intent: z.literal("add-relation") }),
  z.object({ intent: z.literal("remove-relation"), relationId: z.string().uuid() }),
]);
