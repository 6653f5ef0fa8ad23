import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { writeFailure } from "~/lib/db-errors.server";
import { setFlash } from "~/lib/flash.server";
import { forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { LabelActionSchema } from "~/lib/labels.schemas";
import { createLabel, deleteLabel, listLabels, updateLabel, type TeamLabel } from "~/lib/labels.server";
import { colorClass, COLOR_OPTIONS } from "~/lib/palette";
import { can, permissionsOf } from "~/lib/permissions";
import { parseIntent } from "~/lib/schemas";
import { requireTeamContext, withTeamContext } from "~/lib/team-context.server";

export const meta: MetaFunction = () => [{ title: "Labels · Teamboard" }];

/** docs/product.md §11: at most 100 labels in a team. */
const MAX_LABELS = 100;

/** /teams/:team/labels — the team's labels with how many tasks carry each; members+ create, admins+ change. */
export async function loader(args: LoaderFunctionArgs) {
  const { team, read } = await withTeamContext(args, (supabase) => listLabels(supabase, args.params.team!));
  // a guest sees only their projects: the team's labels page isn't there for them
  if (!permissionsOf(team.role).seeTeam) throw notFound();
  if (read.error) throw backendError(read.error);
  return { labels: read.labels, can: permissionsOf(team.role) };
}

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const { supabase, team } = await requireTeamContext(args, { need: "seeTeam" });
  const parsed = parseIntent(LabelActionSchema, await args.request.formData());
  if (!parsed) throw notFound();
  const { intent, values } = parsed;
  const allowed = can(team.role, intent === "create-label" ? "createLabels" : "manageLabels");
  if (!allowed) return forbiddenResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);
  const fields = parsed.data;
  const done = async (message: string) => {
    await setFlash({ kind: "success", message });
    return redirect(`/teams/${team.slug}/labels`);
  };

  switch (fields.intent) {
    case "create-label": {
      const { error } = await createLabel(supabase, team.id, fields);
      if (error) return writeFailure(error, { intent, values, field: "name" });
      return done(`The label ${fields.name} is created.`);
    }
    case "edit-label": {
      const { data: saved, error } = await updateLabel(supabase, team.id, fields.labelId, fields);
      if (error) return writeFailure(error, { intent, values, field: "name" });
      if (!saved) return forbiddenResult({ intent, values });
      return done(`The label ${fields.name} is saved.`);
    }
    case "delete-label": {
      const { data: deleted, error } = await deleteLabel(supabase, team.id, fields.labelId);
      if (error) return writeFailure(error, { intent, values });
      if (!deleted) return forbiddenResult({ intent, values });
      return done("The label is deleted; no task carries it any more.");
    }
  }
  throw notFound();
}

export default function TeamLabels() {
  const { labels, can } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const create = formState(result, "create-label");
  return (
    <div className="settings labels-page">
      <h1>Labels</h1>
      <p className="muted">
        The team's labels, on tasks of every project (at most 10 on a task). Filter a board by one with its name.
      </p>
      {can.createLabels ? (
        <section className="card" aria-labelledby="new-label-title">
          <h2 id="new-label-title">New label</h2>
          {labels.length >= MAX_LABELS ? (
            <p className="muted">The team has {MAX_LABELS} labels, the most a team can have.</p>
          ) : (
            <ValidatedForm schema="LabelSchema" intent="create-label" result={result} aria-label="New label">
              <div className="field-row">
                <Field name="name" label="Name" maxLength={24} autoComplete="off" />
                <SelectField
                  name="color"
                  label="Colour"
                  options={COLOR_OPTIONS}
                  value={create.values.color ?? "blue"}
                  error={create.errors.color}
                />
              </div>
              <SubmitButton className="button button-small">Create label</SubmitButton>
            </ValidatedForm>
          )}
        </section>
      ) : null}
      <section className="card" aria-labelledby="labels-title">
        <h2 id="labels-title">{labels.length === 1 ? "1 label" : `${labels.length} labels`}</h2>
        {labels.length === 0 ? <p className="muted">No labels yet.</p> : null}
        <ul className="label-list">
          {labels.map((label) => (
            <LabelRow key={label.id} label={label} canManage={can.manageLabels} result={result} />
          ))}
        </ul>
      </section>
    </div>
  );
}

function LabelRow({ label, canManage, result }: { label: TeamLabel; canManage: boolean; result: unknown }) {
  const r = result as { intent?: string; values?: Record<string, string> } | undefined;
  const mine = r?.values?.labelId === label.id ? result : undefined;
  const edit = formState(mine, "edit-label");
  const removeFailure = formState(mine, "delete-label").errors.form;
  return (
    <li className="label-row" data-label-row={label.name}>
      <span className={`label ${colorClass(label.color)}`}>{label.name}</span>{" "}
      <span className="muted small">{label.tasks === 1 ? "on 1 task" : `on ${label.tasks} tasks`}</span>
      {canManage ? (
        <details className="label-forms" open={mine ? true : undefined}>
          <summary>
            Change<span className="visually-hidden"> {label.name}</span>
          </summary>
          <ValidatedForm
            schema="LabelSchema"
            intent="edit-label"
            result={mine}
            aria-label={`Edit the label ${label.name}`}
          >
            <input type="hidden" name="labelId" value={label.id} />
            <div className="field-row">
              <Field name="name" label="Name" defaultValue={label.name} maxLength={24} autoComplete="off" />
              <SelectField
                name="color"
                label="Colour"
                options={COLOR_OPTIONS}
                value={edit.values.color ?? label.color}
                error={edit.errors.color}
              />
            </div>
            <SubmitButton className="button button-small">Save {label.name}</SubmitButton>
          </ValidatedForm>
          <ValidatedForm intent="delete-label" result={mine} aria-label={`Delete the label ${label.name}`}>
            <input type="hidden" name="labelId" value={label.id} />
            {removeFailure ? null : (
              <p className="small">
                Deleting it takes it off {label.tasks === 1 ? "the task" : `all ${label.tasks} tasks`}.
              </p>
            )}
            <SubmitButton className="button button-small button-danger">Delete {label.name}</SubmitButton>
          </ValidatedForm>
        </details>
      ) : null}
    </li>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
