import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { ProjectAccess } from "~/components/project-access";
import { AddStatusForm, StatusList } from "~/components/statuses";
import { ARCHIVED_MESSAGE, MAX_STATUSES } from "~/lib/board";
import { writeFailure } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { unlessFormRejected } from "~/lib/revalidation";
import { can } from "~/lib/permissions";
import {
  addProjectMember,
  projectAccess,
  removeProjectMember,
  setProjectVisibility,
} from "~/lib/project-access.server";
import { ProjectAccessSchema } from "~/lib/project-access.schemas";
import { parseIntent } from "~/lib/schemas";
import { StatusActionSchema } from "~/lib/statuses.schemas";
import { addStatus, listStatuses, moveStatus, removeStatus, updateStatus } from "~/lib/statuses.server";
import { boardPath, requireProjectContext } from "~/lib/team-context.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Settings · ${data.project.name} · Teamboard` : "Project settings · Teamboard" },
];

/** /teams/:team/projects/:key/settings — a project's statuses (docs/product.md §11), for admins and the owner. */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireProjectContext(args, { need: "manageProjects" });
  const { supabase, project, archived } = ctx;
  const [{ statuses, error }, access] = await Promise.all([
    listStatuses(supabase, project.id),
    projectAccess(supabase, project.id, ctx.team.id),
  ]);
  if (error) throw backendError(error);
  if (access.error) throw backendError(access.error);
  const { error: _accessError, ...who } = access;
  return {
    project: { key: project.key, name: project.name, archived },
    boardPath: boardPath(ctx),
    statuses,
    access: who,
  };
}

/** A rejected form leaves the page as it is (lib/revalidation.ts). */
export const shouldRevalidate = unlessFormRejected;

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireProjectContext(args);
  const { supabase, team, project, archived } = ctx;
  const form = await args.request.formData();
  const access = parseIntent(ProjectAccessSchema, form);
  if (access) return changeAccess(ctx, access);
  const parsed = parseIntent(StatusActionSchema, form);
  if (!parsed) throw notFound();
  const { intent, values } = parsed;
  if (!can(team.role, "manageStatuses")) return forbiddenResult({ intent, values });
  if (archived) return archivedResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);
  const fields = parsed.data;

  const done = async (message: string) => {
    await setFlash({ kind: "success", message });
    // back to the list, at the status the form was about
    const anchor = "statusId" in fields ? `#status-${fields.statusId}` : "";
    return redirect(`${boardPath(ctx)}/settings${anchor}`);
  };

  switch (fields.intent) {
    case "add-status": {
      const { error } = await addStatus(supabase, project.id, fields);
      if (error) return writeFailure(error, { intent, values, field: "name" });
      return done(`${fields.name} is added at the end of the board.`);
    }
    case "edit-status": {
      const { data: saved, error } = await updateStatus(supabase, project.id, fields.statusId, fields);
      if (error) return writeFailure(error, { intent, values, field: "name" });
      if (!saved) return forbiddenResult({ intent, values });
      return done(`${fields.name} is saved.`);
    }
    case "move-status": {
      const { error } = await moveStatus(supabase, fields.statusId, fields.position);
      if (error) return writeFailure(error, { intent, values });
      return done("The order of the columns is saved.");
    }
    case "remove-status": {
      const { error } = await removeStatus(supabase, fields.statusId, fields.moveTo);
      if (error) return writeFailure(error, { intent, values, field: "moveTo" });
      await setFlash({ kind: "success", message: "The status is removed." });
      return redirect(`${boardPath(ctx)}/settings`);
    }
  }
  throw notFound();
}

/** Who sees the project (docs/product.md §20): admins and the owner; also while archived. */
async function changeAccess(
  ctx: Awaited<ReturnType<typeof requireProjectContext>>,
  parsed: NonNullable<ReturnType<typeof parseIntent<typeof ProjectAccessSchema>>>,
) {
  const { supabase, team, project } = ctx;
  const { intent, values } = parsed;
  if (!can(team.role, "manageProjects")) return forbiddenResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);
  const fields = parsed.data;
  const done = async (message: string) => {
    await setFlash({ kind: "success", message });
    return redirect(`${boardPath(ctx)}/settings#access`);
  };
  switch (fields.intent) {
    case "set-visibility": {
      const { data: saved, error } = await setProjectVisibility(supabase, project.id, fields.visibility);
      if (error) return writeFailure(error, { intent, values });
      if (!saved) return forbiddenResult({ intent, values });
      return done(
        fields.visibility === "private"
          ? `${project.name} is now visible only to the people chosen and the team's admins and owners.`
          : `${project.name} is now visible to the whole team.`,
      );
    }
    case "add-project-member": {
      const { error } = await addProjectMember(supabase, project.id, fields.userId);
      if (error)
        return writeFailure(error, {
          intent,
          values,
          messages: { "23505": "That person already sees this project." },
        });
      return done("The person is added to the project.");
    }
    case "remove-project-member": {
      const { error } = await removeProjectMember(supabase, project.id, fields.userId);
      if (error) return writeFailure(error, { intent, values });
      return done("The person no longer sees this project.");
    }
  }
  throw notFound();
}

export default function ProjectSettings() {
  const { project, boardPath, statuses, access } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="settings project-settings">
      <p className="back-to-board">
        <Link to={boardPath}>
          <span aria-hidden="true">←</span> Back to the board
        </Link>
      </p>
      <h1>
        <span className="project-key">{project.key}</span> {project.name}: settings
      </h1>
      {project.archived ? (
        <p className="alert alert-info">{ARCHIVED_MESSAGE} Unarchive it to change its statuses.</p>
      ) : null}
      <section className="card" aria-labelledby="statuses-title">
        <h2 id="statuses-title">Statuses</h2>
        <p className="muted">
          The board's columns, in order. Each means one of: not started yet (backlog, not started), in progress, done or
          canceled; a project keeps at least one "not started" and one "done" status, and has at most {MAX_STATUSES}. A
          WIP limit warns when a column holds more tasks; it never stops a move.
        </p>
        <StatusList statuses={statuses} result={result} readOnly={project.archived} />
      </section>
      {!project.archived ? (
        <section className="card" aria-labelledby="add-status-title">
          <h2 id="add-status-title">Add a status</h2>
          {statuses.length >= MAX_STATUSES ? (
            <p className="muted">This project has {MAX_STATUSES} statuses, the most a project can have.</p>
          ) : (
            <AddStatusForm result={result} />
          )}
        </section>
      ) : null}
      <section className="card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <p className="muted">
          Tell other tools (chat, n8n, your own service) when tasks change:{" "}
          <Link to={`${boardPath}/settings/webhooks`}>webhooks</Link>.
        </p>
      </section>
      <section className="card" aria-labelledby="links-title">
        <h2 id="links-title">Public links</h2>
        <p className="muted">
          Show the board, or one of the team's shared views, read-only to people outside Teamboard by a secret address:{" "}
          <Link to={`${boardPath}/settings/links`}>public links</Link>.
        </p>
      </section>
      <section className="card" aria-labelledby="fields-title">
        <h2 id="fields-title">Fields</h2>
        <p className="muted">
          Your own fields on this project's tasks (like Customer or Points):{" "}
          <Link to={`${boardPath}/fields`}>fields</Link>.
        </p>
      </section>
      <ProjectAccess {...access} result={result} readOnly={false} />
      {/* rare and hard to undo by accident: here, not in the board's header row (the board's action does it) */}
      <section className="card" aria-labelledby="archive-title">
        <h2 id="archive-title">{project.archived ? "Archived" : "Archive"}</h2>
        <p className="muted">
          {project.archived
            ? "Its tasks are read-only and it is hidden from the sidebar."
            : "Its tasks become read-only and it leaves the sidebar; you can unarchive it here."}
        </p>
        <Form method="post" action={boardPath} className="inline-form">
          <input type="hidden" name="intent" value={project.archived ? "unarchive" : "archive"} />
          <button type="submit" className="button button-small button-secondary">
            {project.archived ? "Unarchive project" : "Archive project"}
          </button>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
