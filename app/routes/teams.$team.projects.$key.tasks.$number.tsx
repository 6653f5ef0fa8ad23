import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useOutlet } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { TaskPanel } from "~/components/task/task-panel";
import { taskRef } from "~/lib/board";
import { parseTimelineCursor } from "~/lib/comments";
import { requireUser } from "~/lib/auth.server";
import { writeFailure } from "~/lib/db-errors.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { keepingTheForm, notFound } from "~/lib/http.server";
import { can, permissionsOf } from "~/lib/permissions";
import { parseIntent, submittedValues } from "~/lib/schemas";
import {
  boardPath,
  foundTask,
  requireProjectContext,
  requireTaskContext,
  requireTaskNumber,
} from "~/lib/team-context.server";
import { taskUrls } from "~/lib/task-urls";
import { labelLimit, labelsFromForm, TaskActionSchema } from "~/lib/tasks.schemas";
import { describeRule, fieldsFromRule } from "~/lib/recurrence";
import { taskRecurrence } from "~/lib/recurrence.server";
import { requestClient } from "~/lib/supabase.server";
import { previewAnswer, renderTexts } from "~/lib/text.server";
import {
  deleteTask,
  moveTask,
  readSuccessor,
  requireTaskPanel,
  saveFailureField,
  saveTask,
  saveTaskField,
  stopRepeating,
} from "~/lib/tasks.server";
import { formatDay } from "~/lib/dates";
import { movedTaskRedirect } from "~/lib/move.server";
import { assigneesFromForm, fieldChangesFromForm } from "~/lib/fields";
import { unlessFormRejected } from "~/lib/revalidation";
import { archiveTask } from "~/lib/trash.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${taskRef(data.projectKey, data.task.number)} ${data.task.title} · Teamboard` : "Task · Teamboard" },
];

/** A rejected form leaves the page as it is (lib/revalidation.ts). */
export const shouldRevalidate = unlessFormRejected;

export async function loader(args: LoaderFunctionArgs) {
  // the project context (its reads shared with the board) and the panel's own read, side by side
  const [ctx, panel] = await Promise.all([requireProjectContext(args), readPanel(args)]);
  const { user, team, project, archived } = ctx;
  const number = requireTaskNumber(args.params);
  const before = parseTimelineCursor(new URL(args.request.url).searchParams);
  return {
    projectKey: project.key,
    teamSlug: args.params.team!,
    taskPath: `${boardPath(ctx)}/tasks/${number}`,
    ...panel,
    earlierPage: before !== null,
    now: new Date().toISOString(),
    // in words here, so the browser needn't carry the wording (docs/decisions/0021)
    repeatWords: describeRule(panel.task.recurrence),
    repeat: fieldsFromRule(panel.task.recurrence),
    userId: user.id,
    can: permissionsOf(team.role, { archived }),
  };
}

/**
 * The task, its timeline, attachments and watchers, named by the URL (a 404
 * for a malformed one), with the description and comments rendered from
 * Markdown (one more request when they refer to tasks, people or pictures).
 */
async function readPanel(args: LoaderFunctionArgs) {
  // nobody signed in never reaches the backend (the same memoised check as the context's)
  await requireUser(args.request);
  const number = requireTaskNumber(args.params);
  const { team, key } = args.params;
  if (!team || !key) throw notFound();
  const before = parseTimelineCursor(new URL(args.request.url).searchParams);
  const supabase = requestClient();
  const names = { teamSlug: team, projectKey: key, number };
  const panel = await requireTaskPanel(supabase, names, before).catch(async (error: unknown) => {
    // a task that moved to another project: its old address leads there for good (§18)
    if (error instanceof Response && error.status === 404)
      throw (await movedTaskRedirect(supabase, names, new URL(args.request.url))) ?? error;
    throw error;
  });
  const known = panel.attachments.map((a) => ({ id: a.id, file_name: a.fileName, content_type: a.contentType }));
  const comments = panel.timeline.filter((item) => item.type === "comment");
  const [descriptionHtml, ...bodies] = await renderTexts(
    supabase,
    team,
    [panel.task.description ?? "", ...comments.map((c) => c.body)],
    known,
  );
  const html = new Map(comments.map((c, i) => [c.id, bodies[i]]));
  const timeline = panel.timeline.map((item) =>
    item.type === "comment" ? { ...item, bodyHtml: html.get(item.id) ?? "" } : item,
  );
  return { ...panel, timeline, descriptionHtml };
}

/** The task's own forms: its fields, its status and place, archiving or deleting it. Comments post to ./comments. */
export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, team, project, archived } = ctx;
  const { number } = ctx;
  const form = await args.request.formData();
  const parsed = parseIntent(TaskActionSchema, form);
  const values = submittedValues(form);
  const preview = await previewAnswer(supabase, args.params.team!, form, parsed?.intent);
  if (preview) return preview;

  if (!can(team.role, "editTasks")) return forbiddenResult({ intent: parsed?.intent, values });
  if (!can(team.role, "editTasks", { archived })) return archivedResult({ intent: parsed?.intent, values });
  const task = foundTask(ctx);
  if (!parsed) throw notFound();

  const ref = taskRef(project.key, number);
  const urls = taskUrls(args.request.url, boardPath(ctx), number);
  const done = (message: string, to = urls.task) => redirectWithSuccess(message, to);

  switch (parsed.intent) {
    case "update": {
      const { intent } = parsed;
      const limit = labelLimit(form);
      if (!parsed.success || limit.labels)
        return formFailure({ intent, errors: { ...(parsed.success ? {} : parsed.errors), ...limit }, values });
      const recurrence = taskRecurrence(parsed.data);
      if ("error" in recurrence) return formFailure({ intent, errors: { repeat: recurrence.error }, values });
      // one call: the columns, labels, assignees and field values together, or none of them
      const { error } = await saveTask(supabase, task.id, {
        ...parsed.data,
        recurrence: recurrence.rule,
        assignees: assigneesFromForm(form, parsed.data.assignee),
        labels: labelsFromForm(form, parsed.data),
        fields: fieldChangesFromForm(form),
      });
      if (error) {
        const field = saveFailureField(error);
        // a form with the one-assignee select hears about it there
        return writeFailure(error, {
          intent,
          values,
          field: field === "assignees" && !form.has("assigneesShown") ? "assignee" : field,
        });
      }
      return done(`${ref} is saved.`);
    }

    case "set-title":
    case "set-priority":
    case "set-due":
    case "set-assignees":
    case "set-labels": {
      // one field edited in place: the same save_task as the form, with that field alone
      const { intent } = parsed;
      const limit = intent === "set-labels" ? labelLimit(form) : {};
      if (!parsed.success || limit.labels)
        return formFailure({ intent, errors: { ...(parsed.success ? {} : parsed.errors), ...limit }, values });
      const change = inPlaceChange(parsed.data, form);
      if ("error" in change) return formFailure({ intent, errors: { dueOn: change.error }, values });
      const { error } = await saveTaskField(supabase, task.id, change);
      if (error) {
        const field = intent === "set-due" ? "dueOn" : saveFailureField(error);
        return writeFailure(error, { intent, values, field });
      }
      return done(`${ref} is saved.`);
    }

    case "move": {
      if (!parsed.success) return formFailure(parsed);
      const [{ data: moved, error }, { data: status }] = await Promise.all([
        moveTask(supabase, task.id, parsed.data.status, parsed.data.position),
        supabase.from("project_statuses").select("name, category").eq("id", parsed.data.status).maybeSingle(),
      ]);
      if (error) return writeFailure(error, { intent: parsed.intent, values, field: "status" });
      const message = status ? `${ref} is in ${status.name}.` : `${ref} is moved.`;
      // a repeating task completed: its next one, made by the database, is where the person goes next
      const next =
        status?.category === "completed" && moved?.successor_id
          ? await readSuccessor(supabase, moved.successor_id)
          : null;
      if (!next) return done(message);
      const nextRef = taskRef(project.key, next.number);
      return redirectWithSuccess(`${message} ${nextOneWords(nextRef, next)}`, urls.task, {
        href: taskUrls(args.request.url, boardPath(ctx), next.number).task,
        text: `Open ${nextRef}`,
      });
    }

    case "stop-repeating": {
      const { error } = await stopRepeating(supabase, task.id);
      if (error) return writeFailure(error, { intent: parsed.intent, values });
      return done(`${ref} no longer repeats.`);
    }

    case "delete-task": {
      const { intent } = parsed;
      if (!can(team.role, "deleteTasks")) return forbiddenResult({ intent, values });
      // to the project's trash, where admins+ restore it for 30 days (docs/product.md §18)
      const { data: deleted, error } = await deleteTask(supabase, task.id);
      if (error) return writeFailure(error, { intent, values });
      if (!deleted) return forbiddenResult({ intent, values });
      return redirectWithSuccess(`${ref} is in the trash.`, urls.board, {
        href: `${boardPath(ctx)}/trash`,
        text: "Open the trash",
      });
    }

    case "archive-task":
    case "unarchive-task": {
      const archive = parsed.intent === "archive-task";
      const { error } = await archiveTask(supabase, task.id, archive);
      if (error) return writeFailure(error, { intent: parsed.intent, values });
      return archive
        ? redirectWithSuccess(`${ref} is archived.`, urls.board, {
            href: `${boardPath(ctx)}/archived`,
            text: "Archived tasks",
          })
        : done(`${ref} is back on the board.`);
    }
  }
  throw notFound();
}

type InPlace = Extract<NonNullable<ReturnType<typeof parseIntent<typeof TaskActionSchema>>>, { success: true }>["data"];

/** What one in-place form changes, as save_task takes it; a repeating task's new due date remakes its rule. */
function inPlaceChange(data: InPlace, form: FormData): Parameters<typeof saveTaskField>[2] | { error: string } {
  switch (data.intent) {
    case "set-title":
      return { title: data.title };
    case "set-priority":
      return { priority: data.priority };
    case "set-due": {
      const recurrence = taskRecurrence({
        ...data,
        title: "",
        description: "",
        priority: "none",
        assignee: null,
        labels: [],
        newLabels: [],
      });
      return "error" in recurrence ? recurrence : { due_on: data.dueOn, recurrence: recurrence.rule };
    }
    case "set-assignees":
      return { assignees: assigneesFromForm(form, null) ?? [] };
    case "set-labels":
      return { labels: labelsFromForm(form, data) ?? [] };
  }
  throw notFound();
}

/** "The next one, WEB-34, is due 15 Dec 2026 in To do." */
function nextOneWords(ref: string, next: { due_on: string | null; status: { name: string } | null }): string {
  const due = next.due_on ? ` is due ${formatDay(next.due_on)}` : " is";
  return `The next one, ${ref},${due} in ${next.status?.name ?? "the board"}.`;
}

/** The panel; when a comment form came back, the /comments child renders it instead, with that answer. */
export default function TaskRoute() {
  const result = useActionData<typeof action>();
  const outlet = useOutlet();
  return outlet ?? <TaskPanel result={result} />;
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
