import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, useRef, type KeyboardEvent } from "react";
import { ErrorPage } from "~/components/error-page";
import { SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { TaskFields } from "~/components/task/task-forms";
import { useBoardData } from "~/components/task/use-route-data";
import { ARCHIVED_MESSAGE, boardSearch, taskRef } from "~/lib/board";
import { setFlash } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { writeFailure } from "~/lib/db-errors.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseForm } from "~/lib/schemas";
import { boardPath, requireProjectContext } from "~/lib/team-context.server";
import { CreateTaskSchema, labelLimit, labelsFromForm } from "~/lib/tasks.schemas";
import { taskRecurrence } from "~/lib/recurrence.server";
import { createWholeTask, saveFailureField } from "~/lib/tasks.server";
import { assigneesFromForm, fieldChangesFromForm } from "~/lib/fields";
import { previewAnswer } from "~/lib/text.server";
import { unlessFormRejected } from "~/lib/revalidation";

export const meta: MetaFunction = () => [{ title: "New task · Teamboard" }];

/** A rejected form leaves the page as it is (lib/revalidation.ts). */
export const shouldRevalidate = unlessFormRejected;

export async function loader(args: LoaderFunctionArgs) {
  const { archived } = await requireProjectContext(args, { need: "editTasks" });
  if (archived) throw new Response(ARCHIVED_MESSAGE, { status: 400 });
  return null;
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireProjectContext(args);
  const { supabase, team, project, archived } = ctx;
  const form = await args.request.formData();
  const preview = await previewAnswer(supabase, args.params.team!, form);
  if (preview) return preview;
  const result = parseForm(CreateTaskSchema, form);
  if (!can(team.role, "editTasks")) return forbiddenResult({ values: result.values });
  const limit = labelLimit(form);
  if (!result.success || limit.labels)
    return formFailure({ errors: { ...(result.success ? {} : result.errors), ...limit }, values: result.values });
  if (!can(team.role, "editTasks", { archived })) return archivedResult({ values: result.values });
  const recurrence = taskRecurrence(result.data);
  if ("error" in recurrence) return formFailure({ errors: { repeat: recurrence.error }, values: result.values });
  // one call: the task with its labels, assignees and field values, or nothing
  const { data: task, error } = await createWholeTask(supabase, project.id, {
    ...result.data,
    statusId: result.data.status,
    recurrence: recurrence.rule,
    assignees: assigneesFromForm(form, result.data.assignee),
    labels: labelsFromForm(form, result.data),
    fields: fieldChangesFromForm(form),
  });
  if (error || !task) {
    const field = error ? saveFailureField(error) : "form";
    return writeFailure(error ?? { code: "P0001" }, {
      values: result.values,
      field: field === "assignees" && !form.has("assigneesShown") ? "assignee" : field,
    });
  }
  const ref = taskRef(project.key, task.number);
  const message = `${ref} is created.`;
  await setFlash({ kind: "success", message });
  const search = boardSearch(new URL(args.request.url).searchParams);
  throw redirect(`${boardPath(ctx)}/tasks/${task.number}${search}`);
}

export default function NewTask() {
  const board = useBoardData();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const { errors, values } = formState(actionData);
  const boardPath = location.pathname.replace(/\/tasks\/new\/?$/, "");
  const team = location.pathname.split("/")[2] ?? "";
  const back = `${boardPath}${boardSearch(new URLSearchParams(location.search))}`;
  const statuses = board?.columns.map((c) => c.status) ?? [];
  // the project's first backlog status, else its first unstarted one, as the database chooses when none is sent
  const firstOpen = statuses.find((s) => s.category === "backlog") ?? statuses.find((s) => s.category === "unstarted");
  const section = useRef<HTMLElement>(null);
  // opened from the board (the "New task" link, `c`): the title is what comes next. Not on a page
  // loaded as it is: focus would start the form, and its checks load with the first form started on.
  const arrival = useNavigationType();
  useEffect(() => {
    if (arrival === "PUSH") section.current?.querySelector<HTMLInputElement>('input[name="title"]')?.focus();
  }, [arrival]);
  return (
    <section className="task-detail" aria-labelledby="new-task-title" ref={section} onKeyDown={closeIfUntouched}>
      {/* on a phone the form is the page: the way back first, as on a task's panel */}
      <p className="back-to-board">
        <Link to={back} preventScrollReset>
          <span aria-hidden="true">←</span> Back to the board
        </Link>
      </p>
      <div className="task-panel-header">
        <h2 id="new-task-title">New task</h2>
        <Link
          to={back}
          className="close-panel"
          aria-label="Close without creating"
          preventScrollReset
          data-shortcut="Escape"
        >
          ✕
        </Link>
      </div>
      <ValidatedForm schema="CreateTaskSchema" result={actionData} preventScrollReset aria-label="New task">
        <TaskFields
          members={board?.members ?? []}
          teamLabels={board?.labels ?? []}
          canCreateLabels={board?.can.createLabels ?? false}
          result={actionData}
          team={team}
        />
        <SelectField
          name="status"
          label="Status"
          options={statuses.map((s) => ({ value: s.id, label: s.name }))}
          value={values.status ?? firstOpen?.id ?? ""}
          error={errors.status}
        />
        <SubmitButton className="button button-small" pendingText="Creating…">
          Create task
        </SubmitButton>
      </ValidatedForm>
    </section>
  );
}

/**
 * Escape in the form closes the panel while nothing is typed in it (outside
 * the form, the Escape shortcut clicks the close link, lib/shortcuts.ts): a
 * started task is never thrown away by one key. The mention list's own
 * Escape comes first (it prevents the default).
 */
function closeIfUntouched(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  const typed = [
    ...event.currentTarget.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
      'input[type="text"], input:not([type]), textarea',
    ),
  ].some((field) => field.value.trim() !== "");
  if (typed) return;
  event.preventDefault();
  event.currentTarget.querySelector<HTMLElement>('[data-shortcut="Escape"]')?.click();
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
