import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { TaskPanel } from "~/components/task/task-panel";
import {
  addChecklistItem,
  editChecklistItem,
  moveChecklistItem,
  removeChecklistItem,
  tickChecklistItem,
} from "~/lib/breakdown.server";
import { writeFailure } from "~/lib/db-errors.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { keepingTheForm, notFound } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseIntent, submittedValues } from "~/lib/schemas";
import { boardPath, foundTask, requireTaskContext } from "~/lib/team-context.server";
import { taskUrls } from "~/lib/task-urls";
import { ChecklistActionSchema } from "~/lib/tasks.schemas";

/**
 * A task's checklist (docs/product.md §11): add, edit, tick or untick, move
 * up or down, remove an item. Members and up, in active projects; the
 * database holds the limits (50 items, 1–200 characters). No loader: after a
 * rejected form this route renders the task panel with the answer.
 */
export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, team, archived, number } = ctx;
  const form = await args.request.formData();
  const parsed = parseIntent(ChecklistActionSchema, form);
  const values = submittedValues(form);

  if (!can(team.role, "editTasks")) return forbiddenResult({ intent: parsed?.intent, values });
  if (!can(team.role, "editTasks", { archived })) return archivedResult({ intent: parsed?.intent, values });
  const task = foundTask(ctx);
  if (!parsed) throw notFound();
  if (!parsed.success) return formFailure(parsed);

  const urls = taskUrls(args.request.url, boardPath(ctx), number);
  const { intent, data: fields } = parsed;
  const failed = (error: Parameters<typeof writeFailure>[0], field = "form") =>
    writeFailure(error, { intent, values, field });
  const gone = () => formFailure({ intent, errors: { form: "That item isn't on this task any more." }, values });

  switch (fields.intent) {
    case "add-item": {
      const { error } = await addChecklistItem(supabase, task.id, fields.title);
      if (error) return failed(error, "title");
      return redirectWithSuccess("The item is added.", urls.task);
    }
    case "edit-item": {
      const { data: saved, error } = await editChecklistItem(supabase, task.id, fields.itemId, fields.title);
      if (error) return failed(error, "title");
      if (!saved) return gone();
      return redirectWithSuccess("The item is saved.", urls.task);
    }
    case "tick-item": {
      const { data: saved, error } = await tickChecklistItem(supabase, task.id, fields.itemId, fields.done);
      if (error) return failed(error);
      if (!saved) return gone();
      return redirectWithSuccess(fields.done ? "The item is ticked." : "The item is unticked.", urls.task);
    }
    case "move-item": {
      const { error } = await moveChecklistItem(supabase, fields.itemId, fields.position);
      if (error) return failed(error);
      return redirectWithSuccess("The item is moved.", urls.task);
    }
    case "remove-item": {
      const { data: removed, error } = await removeChecklistItem(supabase, task.id, fields.itemId);
      if (error) return failed(error);
      if (!removed) return gone();
      return redirectWithSuccess("The item is removed.", urls.task);
    }
  }
  throw notFound();
}

export default function TaskWithChecklistResult() {
  const breakdownResult = useActionData<typeof action>();
  return <TaskPanel breakdownResult={breakdownResult} />;
}
