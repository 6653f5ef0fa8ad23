import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { SubmitButton, ValidatedForm } from "~/components/form";
import { formState, SelectField } from "~/components/task/fields";
import { TaskFields } from "~/components/task/task-panel";
import { requireUser } from "~/lib/auth.server";
import { ARCHIVED_MESSAGE, boardSearch, STATUS_LABELS, STATUSES, taskRef } from "~/lib/board";
import { setFlash } from "~/lib/flash.server";
import { formFailure } from "~/lib/forms.server";
import { requireProject } from "~/lib/projects.server";
import { parseForm } from "~/lib/schemas";
import { createServerClient } from "~/lib/supabase.server";
import { hasRole } from "~/lib/teams";
import { forbidden, forbiddenResult, requireTeam, writeFailure } from "~/lib/teams.server";
import { CreateTaskSchema } from "~/lib/tasks.schemas";
import { createTask } from "~/lib/tasks.server";
import type { loader as boardLoader } from "./teams.$team.projects.$key";

export const meta: MetaFunction = () => [{ title: "New task · Teamboard" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const team = await requireTeam(client, user.id, params.team);
  const project = await requireProject(client, team.id, params.key);
  if (!hasRole(team.role, "member")) throw forbidden(client.headers);
  if (project.archived_at) throw new Response(ARCHIVED_MESSAGE, { status: 400, headers: client.headers });
  return data(null, { headers: client.headers });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const client = createServerClient({ request, context });
  const user = await requireUser(client, request);
  const team = await requireTeam(client, user.id, params.team);
  const project = await requireProject(client, team.id, params.key);
  const result = parseForm(CreateTaskSchema, await request.formData());
  if (!hasRole(team.role, "member")) return forbiddenResult(client.headers, { values: result.values });
  if (!result.success) return formFailure(result, client.headers);
  if (project.archived_at) return formFailure({ errors: { form: ARCHIVED_MESSAGE }, values: result.values }, client.headers);
  const { data: task, error } = await createTask(client.supabase, project.id, result.data);
  if (error) return writeFailure(error, { values: result.values, field: /assignee/i.test(error.message) ? "assignee" : "form" }, client.headers);
  await setFlash(request, client.headers, { kind: "success", message: `${taskRef(project.key, task.number)} is created.` });
  const search = boardSearch(new URL(request.url).searchParams);
  throw redirect(`/teams/${team.slug}/projects/${project.key}/tasks/${task.number}${search}`, { headers: client.headers });
}

const STATUS_OPTIONS = STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));

export default function NewTask() {
  const board = useRouteLoaderData<typeof boardLoader>("routes/teams.$team.projects.$key");
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const { errors, values } = formState(actionData);
  const boardPath = location.pathname.replace(/\/tasks\/new\/?$/, "");
  return (
    <section className="task-detail" aria-labelledby="new-task-title">
      <div className="task-panel-header">
        <h2 id="new-task-title">New task</h2>
        <Link to={`${boardPath}${boardSearch(new URLSearchParams(location.search))}`} className="close-panel" aria-label="Close without creating" preventScrollReset>
          ✕
        </Link>
      </div>
      <ValidatedForm schema="CreateTaskSchema" result={actionData} preventScrollReset aria-label="New task">
        <TaskFields members={board?.members ?? []} result={actionData} />
        <SelectField name="status" label="Status" options={STATUS_OPTIONS} value={values.status ?? "backlog"} error={errors.status} />
        <SubmitButton className="button button-small" pendingText="Creating…">
          Create task
        </SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
