import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SubmitButton, TextAreaField, ValidatedForm, formState } from "~/components/form";
import { writeFailure } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, redirect } from "~/lib/http.server";
import { addProjectMembers, choosablePeople } from "~/lib/project-access.server";
import { can } from "~/lib/permissions";
import { createProject } from "~/lib/projects.server";
import { parseForm } from "~/lib/schemas";
import { requireTeamContext } from "~/lib/team-context.server";
import { CreateProjectSchema } from "~/lib/tasks.schemas";

export const meta: MetaFunction = () => [{ title: "New project · Teamboard" }];

export async function loader(args: LoaderFunctionArgs) {
  const { supabase, team } = await requireTeamContext(args, { need: "manageProjects" });
  const { people, error } = await choosablePeople(supabase, team.id);
  if (error) throw backendError(error);
  return { people };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team } = await requireTeamContext(args);
  const { request } = args;
  const form = await request.formData();
  const parsed = parseForm(CreateProjectSchema, form);
  // the people ticked under "Who sees it" (several fields of one name), kept if the form comes back
  const memberIds = form.getAll("memberIds").map(String);
  const result = { ...parsed, values: { ...parsed.values, memberIds: memberIds.join(",") } };
  if (!can(team.role, "manageProjects")) return forbiddenResult({ values: result.values });
  if (!result.success) return formFailure(result);
  if (!memberIds.every((id) => UUID.test(id)))
    return formFailure({ errors: { memberIds: "Choose people of this team." }, values: result.values });
  const { data: project, error } = await createProject(supabase, team.id, result.data);
  if (error) {
    const taken = error.code === "23505" ? { 23505: "That key is taken in this team." } : {};
    return writeFailure(error, { values: result.values, field: "key", messages: taken });
  }
  const added = await addProjectMembers(supabase, project.id, memberIds);
  if (added.error) {
    // the project exists: choose the people again on its settings page
    await setFlash({
      kind: "info",
      message: `Project ${result.data.name} is ready, but the people chosen could not be added: choose them here.`,
    });
    throw redirect(`/teams/${team.slug}/projects/${project.key}/settings#access`);
  }
  await setFlash({ kind: "success", message: `Project ${result.data.name} is ready.` });
  throw redirect(`/teams/${team.slug}/projects/${project.key}`);
}

export default function NewProject() {
  const actionData = useActionData<typeof action>();
  const { people } = useLoaderData<typeof loader>();
  const { errors, values } = formState(actionData);
  const visibility = values.visibility ?? "team";
  const ticked = new Set((values.memberIds ?? "").split(",").filter(Boolean));
  return (
    <section className="card narrow" aria-labelledby="new-project-title">
      <h1 id="new-project-title">New project</h1>
      <ValidatedForm schema="CreateProjectSchema" result={actionData}>
        <Field name="name" label="Project name" autoComplete="off" maxLength={80} autoFocus />
        <Field
          name="key"
          label="Key"
          hint="2–10 letters; tasks are named after it, like WEB-12. It can't be changed later."
          maxLength={10}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
        />
        <TextAreaField
          name="description"
          label="Description (optional)"
          value={values.description}
          error={errors.description}
          maxLength={10_000}
          rows={3}
        />
        <fieldset className="field">
          <legend>Visible to</legend>
          <label className="radio">
            <input type="radio" name="visibility" value="team" defaultChecked={visibility === "team"} /> the whole team
            (not its guests, unless chosen below)
          </label>
          <label className="radio">
            <input type="radio" name="visibility" value="private" defaultChecked={visibility === "private"} /> only the
            people chosen below (and the team's admins and owners)
          </label>
          {errors.visibility ? <p className="field-error">{errors.visibility}</p> : null}
        </fieldset>
        {people.length > 0 ? (
          <fieldset
            className="field"
            aria-describedby={errors.memberIds ? "new-project-people-error" : "new-project-people-hint"}
          >
            <legend>Who sees it</legend>
            <p className="muted small" id="new-project-people-hint">
              For a private project, the people who see it; guests see a project only when chosen.
            </p>
            {people.map((p) => (
              <label key={p.userId} className="checkbox">
                <input type="checkbox" name="memberIds" value={p.userId} defaultChecked={ticked.has(p.userId)} />{" "}
                {p.displayName} <span className="muted small">({p.role})</span>
              </label>
            ))}
            {errors.memberIds ? (
              <p className="field-error" id="new-project-people-error">
                {errors.memberIds}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <SubmitButton pendingText="Creating…">Create project</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
