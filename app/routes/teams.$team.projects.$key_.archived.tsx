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
import { ArchivedActionSchema } from "~/lib/tasks.schemas";
import { archiveTask, readArchived } from "~/lib/trash.server";

/**
 * A project's archived tasks (docs/product.md §18): off the board, lists and
 * calendars, found here and by search ("Archived tasks only"); members+ put
 * one back (at the end of its column).
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Archived tasks · ${data.project.name} · Teamboard` : "Archived tasks · Teamboard" },
];

export async function loader(args: LoaderFunctionArgs) {
  const { supabase, team, project, archived } = await requireProjectContext(args);
  const { tasks, error } = await readArchived(supabase, project.id);
  if (error) throw backendError(error);
  return {
    basePath: `/teams/${team.slug}/projects/${project.key}`,
    project: { key: project.key, name: project.name },
    mayUnarchive: can(team.role, "editTasks", { archived }),
    tasks,
  };
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team, project, archived } = await requireProjectContext(args);
  const form = await args.request.formData();
  const parsed = parseIntent(ArchivedActionSchema, form);
  const values = submittedValues(form);
  if (!parsed) throw notFound();
  const { intent } = parsed;
  if (!can(team.role, "editTasks")) return forbiddenResult({ intent, values });
  if (!can(team.role, "editTasks", { archived })) return archivedResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);
  const basePath = `/teams/${team.slug}/projects/${project.key}`;
  const { data: task, error } = await archiveTask(supabase, parsed.data.taskId, false);
  if (error) return writeFailure(error, { intent, values });
  if (!task) throw notFound();
  const ref = taskRef(project.key, task.number);
  return redirectWithSuccess(`${ref} is back on the board.`, `${basePath}/archived`, {
    href: `${basePath}/tasks/${task.number}`,
    text: `Open ${ref}`,
  });
}

export default function ArchivedPage() {
  const { basePath, project, mayUnarchive, tasks } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="archived-title">
      <p>
        <Link to={basePath}>
          <span aria-hidden="true">← </span>Back to the board
        </Link>
      </p>
      <h1 id="archived-title">
        <span className="project-key">{project.key}</span> Archived tasks
      </h1>
      {result?.errors.form ? <FormAlert autoFocus>{result.errors.form}</FormAlert> : null}
      {tasks.length === 0 ? (
        <p>No archived tasks. An archived task leaves the board and lists and waits here.</p>
      ) : (
        <ul className="trash-list">
          {tasks.map((task) => {
            const ref = taskRef(project.key, task.number);
            return (
              <li key={task.id}>
                <span>
                  <Link to={`${basePath}/tasks/${task.number}`}>
                    <strong>{ref}</strong> {task.title}
                  </Link>{" "}
                  <span className="muted">
                    · archived <Day day={task.archived_at.slice(0, 10)} />
                  </span>
                </span>
                {mayUnarchive ? (
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="taskId" value={task.id} />
                    <button type="submit" name="intent" value="unarchive" className="button button-small">
                      Unarchive {ref}
                    </button>
                  </Form>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
