import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SubmitButton, TextAreaField, ValidatedForm, formState } from "~/components/form";
import { writeFailure } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { forbiddenResult, formFailure } from "~/lib/forms.server";
import { keepingTheForm, redirect } from "~/lib/http.server";
import { can } from "~/lib/permissions";
import { createProject } from "~/lib/projects.server";
import { parseForm } from "~/lib/schemas";
import { requireTeamContext } from "~/lib/team-context.server";
import { CreateProjectSchema } from "~/lib/tasks.schemas";

export const meta: MetaFunction = () => [{ title: "New project · Teamboard" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireTeamContext(args, { need: "manageProjects" });
  return null;
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team } = await requireTeamContext(args);
  const { request } = args;
  const result = parseForm(CreateProjectSchema, await request.formData());
  if (!can(team.role, "manageProjects")) return forbiddenResult({ values: result.values });
  if (!result.success) return formFailure(result);
  const { data: project, error } = await createProject(supabase, team.id, result.data);
  if (error) {
    const taken = error.code === "23505" ? { 23505: "That key is taken in this team." } : {};
    return writeFailure(error, { values: result.values, field: "key", messages: taken });
  }
  await setFlash({ kind: "success", message: `Project ${result.data.name} is ready.` });
  throw redirect(`/teams/${team.slug}/projects/${project.key}`);
}

export default function NewProject() {
  const actionData = useActionData<typeof action>();
  const { errors, values } = formState(actionData);
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
        <SubmitButton pendingText="Creating…">Create project</SubmitButton>
      </ValidatedForm>
    </section>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
