import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { ARCHIVED_MESSAGE, taskRef } from "~/lib/board";
import { writeFailure } from "~/lib/db-errors.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { forbidden, keepingTheForm, notFound } from "~/lib/http.server";
import {
  duplicateTask,
  fieldsDropped,
  moveTaskToProject,
  readTargetShape,
  readTargets,
  readTaskToMove,
  statusLike,
} from "~/lib/move.server";
import { can } from "~/lib/permissions";
import { unlessFormRejected } from "~/lib/revalidation";
import { submittedValues } from "~/lib/schemas";
import { boardPath, foundTask, requireTaskContext } from "~/lib/team-context.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Move or duplicate ${data.ref} · Teamboard` : "Move or duplicate · Teamboard" },
];

export const shouldRevalidate = unlessFormRejected;

/**
 * /teams/:team/projects/:key/tasks/:number/move — Move a task to another project of the team, or
 * duplicate it (docs/product.md §18), members and up. Without JavaScript in two steps: choose the
 * project (`?to=OPS`, a GET form), then its status and what is left behind.
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, team, project, archived, number } = ctx;
  const found = foundTask(ctx);
  if (!can(team.role, "editTasks")) throw forbidden();
  const [task, projects] = await Promise.all([readTaskToMove(supabase, found.id), readTargets(supabase, team.id)]);
  const others = projects.filter((p) => p.id !== project.id);
  const toKey = new URL(args.request.url).searchParams.get("to")?.toUpperCase() ?? "";
  const target = others.find((p) => p.key === toKey) ?? null;
  let move = null;
  if (target) {
    const shape = await readTargetShape(supabase, target.id);
    move = {
      target,
      statuses: shape.statuses,
      suggested: statusLike(task.statusCategory, shape.statuses)?.id ?? "",
      dropped: fieldsDropped(task, shape.fields),
    };
  }
  return {
    ref: taskRef(project.key, number),
    title: task.title,
    taskPath: `${boardPath(ctx)}/tasks/${number}`,
    project: { id: project.id, key: project.key, name: project.name },
    archived,
    isSubTask: task.parentId !== null,
    subtasks: task.subtasks,
    projects,
    others,
    unknownTarget: toKey !== "" && !target,
    move,
  };
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireTaskContext(args);
  const { supabase, team, archived, project, number } = ctx;
  const form = await args.request.formData();
  const values = submittedValues(form);
  const intent = form.get("intent");
  if (intent !== "move" && intent !== "duplicate") throw notFound();
  if (!can(team.role, "editTasks")) return forbiddenResult({ intent, values });
  if (archived) return archivedResult({ intent, values });
  const task = foundTask(ctx);
  const ref = taskRef(project.key, number);
  const projectId = String(form.get("project") ?? "");
  const targets = await readTargets(supabase, team.id);
  const target = targets.find((p) => p.id === projectId);
  const projectsPath = `/teams/${encodeURIComponent(team.slug)}/projects`;

  if (intent === "move") {
    if (!target || target.id === project.id)
      return formFailure({ intent, errors: { project: "Choose another project of this team." }, values });
    const status = String(form.get("status") ?? "") || null;
    const { answer, error } = await moveTaskToProject(supabase, task.id, target.id, status);
    if (error || !answer)
      return writeFailure(error ?? { message: "" }, {
        intent,
        values,
        field: error?.details === "status_not_in_project" ? "status" : "project",
      });
    const now = taskRef(answer.project_key, answer.number);
    const notes = [
      answer.dropped_fields.length ? `Left behind: ${answer.dropped_fields.join(", ")}.` : "",
      answer.unassigned?.length ? `Unassigned (they can't see ${target.key}): ${answer.unassigned.join(", ")}.` : "",
    ].filter(Boolean);
    return redirectWithSuccess(
      [`${ref} moved to ${target.name}: it is ${now} now.`, ...notes].join(" "),
      `${projectsPath}/${encodeURIComponent(answer.project_key)}/tasks/${answer.number}`,
    );
  }

  const title = String(form.get("title") ?? "").trim();
  const errors: Record<string, string> = {};
  if (!title || title.length > 200) errors.title = "A title has 1 to 200 characters.";
  if (!target) errors.project = "Choose a project of this team.";
  if (!target || Object.keys(errors).length) return formFailure({ intent, errors, values });
  const { answer, error } = await duplicateTask(supabase, task.id, target.id, title);
  if (error || !answer) return writeFailure(error ?? { message: "" }, { intent, values, field: "project" });
  const copy = taskRef(answer.project_key, answer.number);
  return redirectWithSuccess(
    [
      `${copy} is a copy of ${ref}.`,
      answer.dropped_fields.length ? `Left behind: ${answer.dropped_fields.join(", ")}.` : "",
    ]
      .filter(Boolean)
      .join(" "),
    `${projectsPath}/${encodeURIComponent(answer.project_key)}/tasks/${answer.number}`,
  );
}

export default function MoveTask() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { ref, title, taskPath, project, move } = data;
  const moveState = formState(result, "move");
  const duplicateState = formState(result, "duplicate");
  return (
    <div className="settings move-task">
      <p className="back-to-board">
        <Link to={taskPath}>
          <span aria-hidden="true">←</span> Back to {ref}
        </Link>
      </p>
      <h1>
        <span className="project-key">{ref}</span> {title}
      </h1>
      {data.archived ? <p className="alert alert-info">{ARCHIVED_MESSAGE}</p> : null}

      <section className="card" aria-labelledby="move-title">
        <h2 id="move-title">Move to another project</h2>
        <p className="muted">
          It gets the next key there; its old address and {ref} in text lead to it for good. Its checklist, comments,
          activity, files, watchers, labels and assignees go with it
          {data.subtasks ? `, and its ${data.subtasks === 1 ? "sub-task" : `${data.subtasks} sub-tasks`}` : ""}.
          {data.isSubTask ? " It leaves its parent task and becomes a task of its own." : ""}
        </p>
        {data.others.length === 0 ? (
          <p>This team has no other project you can move it to.</p>
        ) : (
          <Form method="get" className="inline-form">
            <label htmlFor="move-to">Project</label>{" "}
            <select id="move-to" name="to" defaultValue={move?.target.key ?? ""}>
              <option value="" disabled>
                Choose a project
              </option>
              {data.others.map((p) => (
                <option key={p.id} value={p.key}>
                  {p.key} · {p.name}
                </option>
              ))}
            </select>{" "}
            <button type="submit" className="button button-secondary button-small">
              {move ? "Choose another" : "Next"}
            </button>
            {data.unknownTarget ? (
              <p className="field-error" role="alert">
                Choose another project of this team.
              </p>
            ) : null}
          </Form>
        )}
        {move ? (
          <ValidatedForm intent="move" result={result}>
            <input type="hidden" name="project" value={move.target.id} />
            <SelectField
              name="status"
              label={`Status in ${move.target.key}`}
              hint="Sub-tasks keep a status of the same kind (open, started, done)."
              defaultValue={moveState.values.status ?? move.suggested}
              error={moveState.errors.status}
              options={move.statuses.map((s) => ({ value: s.id, label: s.name }))}
            />
            {move.dropped.length ? (
              <p className="alert alert-warning">
                {move.target.key} has no field {move.dropped.join(", ")} (same name and kind): {plural(move.dropped)}{" "}
                left behind.
              </p>
            ) : null}
            {moveState.errors.project ? (
              <p className="field-error" role="alert">
                {moveState.errors.project}
              </p>
            ) : null}
            <SubmitButton pendingText="Moving…">
              Move {ref} to {move.target.key}
            </SubmitButton>
          </ValidatedForm>
        ) : null}
      </section>

      <section className="card" aria-labelledby="duplicate-title">
        <h2 id="duplicate-title">Duplicate</h2>
        <p className="muted">
          A new task with the same description, fields, labels, assignees and checklist (unticked); not its comments,
          activity, files or sub-tasks.
        </p>
        <ValidatedForm intent="duplicate" result={result}>
          <Field
            name="title"
            label="Title"
            defaultValue={duplicateState.values.title ?? `Copy of ${title}`.slice(0, 200)}
            error={duplicateState.errors.title}
          />
          <SelectField
            name="project"
            label="Project"
            defaultValue={duplicateState.values.project ?? project.id}
            error={duplicateState.errors.project}
            options={data.projects.map((p) => ({ value: p.id, label: `${p.key} · ${p.name}` }))}
          />
          <SubmitButton pendingText="Duplicating…">Duplicate {ref}</SubmitButton>
        </ValidatedForm>
      </section>
    </div>
  );
}

function plural(names: readonly string[]): string {
  return names.length === 1 ? "its value is" : "their values are";
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
