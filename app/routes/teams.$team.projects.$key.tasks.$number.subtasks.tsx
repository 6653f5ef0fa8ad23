import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { TaskPanel } from "~/components/task/task-panel";
import { taskRef } from "~/lib/board";
import { writeFailure } from "~/lib/db-errors.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { keepingTheForm, notFound } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseIntent, submittedValues } from "~/lib/schemas";
import { boardPath, foundTask, requireTaskContext } from "~/lib/team-context.server";
import { taskUrls } from "~/lib/task-urls";
import { SubtaskActionSchema } from "~/lib/tasks.schemas";
import { createTask } from "~/lib/tasks.server";

/**
 * A sub-task, added by its title from the parent's panel (docs/product.md
 * §11): a task of the same project in its first backlog status, with the
 * parent set. The database holds the rules (one level, at most 50).
 */
export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, team, project, archived, number } = ctx;
  const form = await args.request.formData();
  const parsed = parseIntent(SubtaskActionSchema, form);
  const values = submittedValues(form);

  if (!can(team.role, "editTasks")) return forbiddenResult({ intent: parsed?.intent, values });
  if (!can(team.role, "editTasks", { archived })) return archivedResult({ intent: parsed?.intent, values });
  const task = foundTask(ctx);
  if (!parsed) throw notFound();
  if (!parsed.success) return formFailure(parsed);

  const { data: made, error } = await createTask(supabase, project.id, {
    title: parsed.data.title,
    description: "",
    priority: "none",
    assignee: null,
    dueOn: null,
    recurrence: null,
    statusId: null,
    parentId: task.id,
  });
  if (error) return writeFailure(error, { intent: parsed.intent, values, field: "title" });
  const urls = taskUrls(args.request.url, boardPath(ctx), number);
  return redirectWithSuccess(`${taskRef(project.key, made.number)} is added as a sub-task.`, urls.task);
}

export default function TaskWithSubtaskResult() {
  const breakdownResult = useActionData<typeof action>();
  return <TaskPanel breakdownResult={breakdownResult} />;
}
