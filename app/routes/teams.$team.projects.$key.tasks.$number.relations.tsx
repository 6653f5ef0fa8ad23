import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { TaskPanel } from "~/components/task/task-panel";
import { taskRef } from "~/lib/board";
import { addRelation, findTeamTask, relationRow, removeRelation } from "~/lib/breakdown.server";
import { writeFailure } from "~/lib/db-errors.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseIntent, submittedValues } from "~/lib/schemas";
import { boardPath, foundTask, requireTaskContext } from "~/lib/team-context.server";
import { taskUrls } from "~/lib/task-urls";
import { RelationActionSchema } from "~/lib/tasks.schemas";

/**
 * A task's relations (docs/product.md §11): add one to another task of the
 * team, named by its reference (WEB-12), from this task's side; remove one
 * from either side. The database holds the rules (no task to itself, no
 * pair twice, no two tasks blocking each other, one team).
 */
export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, team, project, archived, number } = ctx;
  const form = await args.request.formData();
  const parsed = parseIntent(RelationActionSchema, form);
  const values = submittedValues(form);

  if (!can(team.role, "editTasks")) return forbiddenResult({ intent: parsed?.intent, values });
  if (!can(team.role, "editTasks", { archived })) return archivedResult({ intent: parsed?.intent, values });
  const task = foundTask(ctx);
  if (!parsed) throw notFound();
  if (!parsed.success) return formFailure(parsed);
  const urls = taskUrls(args.request.url, boardPath(ctx), number);
  const { intent } = parsed;

  if (parsed.data.intent === "remove-relation") {
    const { data: removed, error } = await removeRelation(supabase, task.id, parsed.data.relationId);
    if (error) return writeFailure(error, { intent, values });
    if (!removed) return formFailure({ intent, errors: { form: "That relation is gone already." }, values });
    return redirectWithSuccess("The relation is removed.", urls.task);
  }

  const { other, relation } = parsed.data;
  const ref = taskRef(other.key, other.number);
  const { data: found, error: findError } = await findTeamTask(supabase, team.slug, other);
  if (findError) throw backendError(findError);
  if (!found) return formFailure({ intent, errors: { other: `There's no task ${ref} in this team.` }, values });
  const { error } = await addRelation(supabase, relationRow(task.id, found.id, relation));
  if (error) return writeFailure(error, { intent, values, field: "other" });
  return redirectWithSuccess(`${taskRef(project.key, number)} and ${ref} are related.`, urls.task);
}

export default function TaskWithRelationResult() {
  const breakdownResult = useActionData<typeof action>();
  return <TaskPanel breakdownResult={breakdownResult} />;
}
