import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Day } from "~/components/day";
import { ErrorPage } from "~/components/error-page";
import { FormAlert } from "~/components/form";
import { taskRef } from "~/lib/board";
import { writeFailure } from "~/lib/db-errors.server";
import { redirectWithSuccess } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { parseIntent, submittedValues } from "~/lib/schemas";
import { requireProjectContext } from "~/lib/team-context.server";
import { TrashActionSchema } from "~/lib/tasks.schemas";
import { purgeTask, readTrash, restoreTask } from "~/lib/trash.server";

/**
 * A project's trash (docs/product.md §18): the tasks deleted in the last 30
 * days, each with Restore (back at the end of its column, with its comments,
 * files and activity) and Delete forever. Admins+ only: whoever could delete.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Trash · ${data.project.name} · Teamboard` : "Trash · Teamboard" },
];

export async function loader(args: LoaderFunctionArgs) {
  const { supabase, team, project, archived } = await requireProjectContext(args);
  const mayRestore = can(team.role, "deleteTasks");
  const { tasks, error } = mayRestore ? await readTrash(supabase, project.id) : { tasks: [], error: null };
  if (error) throw backendError(error);
  return {
    basePath: `/teams/${team.slug}/projects/${project.key}`,
    project: { key: project.key, name: project.name },
    mayRestore,
    // an archived project is read-only: its trash is shown, nothing restored
    readOnly: !can(team.role, "deleteTasks", { archived }),
    tasks,
  };
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team, project, archived } = await requireProjectContext(args);
  const form = await args.request.formData();
  const parsed = parseIntent(TrashActionSchema, form);
  const values = submittedValues(form);
  if (!parsed) throw notFound();
  const { intent } = parsed;
  if (!can(team.role, "deleteTasks")) return forbiddenResult({ intent, values });
  if (!can(team.role, "deleteTasks", { archived })) return archivedResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);
  const basePath = `/teams/${team.slug}/projects/${project.key}`;
  const { tasks } = await readTrash(supabase, project.id);
  const task = tasks.find((t) => t.id === parsed.data.taskId);
  if (!task) return formFailure({ intent, errors: { form: "That task isn't in the trash." }, values }, 404);
  const ref = taskRef(project.key, task.number);

  if (intent === "restore") {
    const { error } = await restoreTask(supabase, task.id);
    if (error) return writeFailure(error, { intent, values });
    return redirectWithSuccess(`${ref} is restored.`, `${basePath}/trash`, {
      href: `${basePath}/tasks/${task.number}`,
      text: `Open ${ref}`,
    });
  }
  const { error } = await purgeTask(supabase, task.id);
  if (error) return writeFailure(error, { intent, values });
  return redirectWithSuccess(`${ref} is deleted for good.`, `${basePath}/trash`);
}

export default function TrashPage() {
  const { basePath, project, mayRestore, readOnly, tasks } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="trash-title">
      <p>
        <Link to={basePath}>
          <span aria-hidden="true">← </span>Back to the board
        </Link>
      </p>
      <h1 id="trash-title">
        <span className="project-key">{project.key}</span> Trash
      </h1>
      {result?.errors.form ? <FormAlert autoFocus>{result.errors.form}</FormAlert> : null}
      {!mayRestore ? (
        <p>Only admins and the owner see the trash: ask one of them to restore a task.</p>
      ) : tasks.length === 0 ? (
        <p>The trash is empty. Deleted tasks stay here for 30 days.</p>
      ) : (
        <>
          <p className="muted">Deleted tasks stay here for 30 days, then they are deleted for good.</p>
          <ul className="trash-list">
            {tasks.map((task) => {
              const ref = taskRef(project.key, task.number);
              return (
                <li key={task.id}>
                  <span>
                    <strong>{ref}</strong> {task.title}{" "}
                    <span className="muted">
                      · deleted <Day day={task.deleted_at.slice(0, 10)} />
                      {task.deleted_by_name ? ` by ${task.deleted_by_name}` : ""} · gone after{" "}
                      <Day day={task.purge_on.slice(0, 10)} />
                    </span>
                  </span>
                  {readOnly ? null : (
                    <span className="trash-actions">
                      <Form method="post" preventScrollReset>
                        <input type="hidden" name="taskId" value={task.id} />
                        <button type="submit" name="intent" value="restore" className="button button-small">
                          Restore {ref}
                        </button>
                      </Form>
                      <Form method="post" preventScrollReset>
                        <input type="hidden" name="taskId" value={task.id} />
                        <button type="submit" name="intent" value="purge" className="button button-small button-danger">
                          Delete {ref} forever
                        </button>
                      </Form>
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
