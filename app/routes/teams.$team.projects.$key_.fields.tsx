import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { Field, SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { ARCHIVED_MESSAGE } from "~/lib/board";
import { writeFailure } from "~/lib/db-errors.server";
import { FieldActionSchema, KIND_LABELS } from "~/lib/fields.schemas";
import { addField, editField, listFields, moveField, optionRow } from "~/lib/fields.server";
import { setFlash } from "~/lib/flash.server";
import { archivedResult, forbiddenResult, formFailure } from "~/lib/forms.server";
import { backendError, keepingTheForm, notFound, redirect } from "~/lib/http.server";
import { COLOR_OPTIONS } from "~/lib/palette";
import { can } from "~/lib/permissions";
import { unlessFormRejected } from "~/lib/revalidation";
import { parseIntent } from "~/lib/schemas";
import { boardPath, requireProjectContext } from "~/lib/team-context.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Fields · ${data.project.name} · Teamboard` : "Fields · Teamboard" },
];

/** /teams/:team/projects/:key/fields — the project's own fields (docs/product.md §17), for admins and the owner. */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireProjectContext(args, { need: "manageProjects" });
  const { supabase, project, archived } = ctx;
  const { fields, error } = await listFields(supabase, project.id);
  if (error) throw backendError(error);
  return { project: { key: project.key, name: project.name, archived }, boardPath: boardPath(ctx), fields };
}

export const shouldRevalidate = unlessFormRejected;

export const action = keepingTheForm(submit);

async function submit(args: ActionFunctionArgs) {
  const ctx = await requireProjectContext(args);
  const { supabase, team, project, archived } = ctx;
  const parsed = parseIntent(FieldActionSchema, await args.request.formData());
  if (!parsed) throw notFound();
  const { intent, values } = parsed;
  if (!can(team.role, "manageStatuses")) return forbiddenResult({ intent, values });
  if (archived) return archivedResult({ intent, values });
  if (!parsed.success) return formFailure(parsed);
  const input = parsed.data;
  const here = `${boardPath(ctx)}/fields`;
  const done = async (message: string) => {
    await setFlash({ kind: "success", message });
    return redirect(here);
  };
  const { fields, error: listError } = await listFields(supabase, project.id);
  if (listError) throw backendError(listError);
  const fieldOf = (id: string) => fields.find((f) => f.id === id);

  switch (input.intent) {
    case "add-field": {
      const { error } = await addField(supabase, project.id, input);
      if (error)
        return writeFailure(error, { intent, values, field: /option/.test(error.details ?? "") ? "options" : "name" });
      return done(`${input.name} is added.`);
    }
    case "edit-field": {
      const field = fieldOf(input.fieldId);
      if (!field) throw notFound();
      const { error } = await editField(supabase, field.id, field.kind, input);
      if (error) return writeFailure(error, { intent, values, field: "name" });
      return done(`${input.name} is saved.`);
    }
    case "move-field": {
      const { error } = await moveField(supabase, fields, input.fieldId, input.direction === "up");
      if (error) return writeFailure(error, { intent, values });
      return done("The order of the fields is saved.");
    }
    case "remove-field": {
      const field = fieldOf(input.fieldId);
      if (!field) throw notFound();
      // a value on any task: say how many, and remove only when that is confirmed
      if (field.held > 0 && !input.confirmed) {
        return { intent, confirm: { fieldId: field.id, name: field.name, held: field.held } };
      }
      const { error } = await supabase.from("fields").delete().eq("id", field.id);
      if (error) return writeFailure(error, { intent, values });
      return done(`${field.name} is removed${field.held ? `, with its values on ${plural(field.held)}` : ""}.`);
    }
    case "add-option": {
      const { error } = await supabase
        .from("field_options")
        .insert(optionRow({ field_id: input.fieldId, name: input.optionName, color: input.color }));
      if (error) return writeFailure(error, { intent, values, field: "optionName" });
      return done(`${input.optionName} is added.`);
    }
    case "edit-option": {
      const { error } = await supabase
        .from("field_options")
        .update({ name: input.optionName, color: input.color })
        .eq("id", input.optionId);
      if (error) return writeFailure(error, { intent, values, field: "optionName" });
      return done(`${input.optionName} is saved, on every task that has it.`);
    }
    case "remove-option": {
      const { error } = await supabase.from("field_options").delete().eq("id", input.optionId);
      if (error) return writeFailure(error, { intent, values });
      return done("The option is removed from the field and every task.");
    }
  }
  throw notFound();
}

const plural = (n: number) => `${n} ${n === 1 ? "task" : "tasks"}`;

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

export default function ProjectFields() {
  const { project, boardPath, fields } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const confirm = result && "confirm" in result ? result.confirm : null;
  const onCards = fields.filter((f) => f.on_card).length;
  return (
    <div className="settings project-settings">
      <p className="back-to-board">
        <Link to={`${boardPath}/settings`}>
          <span aria-hidden="true">←</span> Back to the settings
        </Link>
      </p>
      <h1>
        <span className="project-key">{project.key}</span> {project.name}: fields
      </h1>
      {project.archived ? <p className="alert alert-info">{ARCHIVED_MESSAGE}</p> : null}
      {confirm ? (
        <div className="alert alert-warning" role="alert">
          <p>
            {confirm.name} is set on {plural(confirm.held)}. Removing it removes those values too.
          </p>
          <ValidatedForm intent="remove-field" result={result} className="inline-form">
            <input type="hidden" name="fieldId" value={confirm.fieldId} />
            <input type="hidden" name="confirmed" value="1" />
            <SubmitButton className="button button-small button-danger">
              Remove {confirm.name} and its values
            </SubmitButton>{" "}
            <Link to=".">Keep it</Link>
          </ValidatedForm>
        </div>
      ) : null}
      <section className="card" aria-labelledby="fields-title">
        <h2 id="fields-title">Fields</h2>
        <p className="muted">
          Your own fields on this project's tasks: at most 30, and 3 of them on the board's cards ({onCards} now). A
          number field can be summed in the board's column headers and the list's groups.
        </p>
        {fields.length === 0 ? <p>No fields yet.</p> : null}
        <ol className="field-list">
          {fields.map((field, i) => (
            <FieldItem key={field.id} field={field} first={i === 0} last={i === fields.length - 1} result={result} />
          ))}
        </ol>
      </section>
      {!project.archived ? (
        <section className="card" aria-labelledby="add-field-title">
          <h2 id="add-field-title">Add a field</h2>
          <AddFieldForm result={result} />
        </section>
      ) : null}
    </div>
  );
}

function NumberRules({ field, values }: { field?: Loaded["fields"][number]; values: Record<string, string> }) {
  return (
    <div className="field-row">
      <Field name="min" label="Minimum (numbers)" value={values.min ?? (field?.min == null ? "" : String(field.min))} />
      <Field name="max" label="Maximum (numbers)" value={values.max ?? (field?.max == null ? "" : String(field.max))} />
      <Field
        name="decimals"
        label="Decimals (numbers)"
        hint="0 to 6; empty: any"
        value={values.decimals ?? (field?.decimals == null ? "" : String(field.decimals))}
      />
    </div>
  );
}

function Ticks({
  field,
  values,
  sent,
}: {
  field?: Loaded["fields"][number];
  values: Record<string, string>;
  sent: boolean;
}) {
  return (
    <p>
      <label className="checkbox-label">
        <input type="checkbox" name="onCard" defaultChecked={sent ? Boolean(values.onCard) : Boolean(field?.on_card)} />{" "}
        Show on cards
      </label>{" "}
      <label className="checkbox-label">
        <input type="checkbox" name="sum" defaultChecked={sent ? Boolean(values.sum) : Boolean(field?.sum)} /> Sum it
        (numbers)
      </label>
    </p>
  );
}

function AddFieldForm({ result }: { result: unknown }) {
  const { errors, values } = formState(result, "add-field");
  const sent = Object.keys(values).length > 0;
  return (
    <ValidatedForm intent="add-field" result={result} aria-label="Add a field">
      <div className="field-row">
        <Field name="name" label="Name" maxLength={40} value={values.name ?? ""} error={errors.name} />
        <SelectField
          name="kind"
          label="Kind"
          options={Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))}
          value={values.kind ?? "text"}
          error={errors.kind}
        />
      </div>
      <Field
        name="options"
        label="Options (selects)"
        hint="Comma-separated, up to 50, like: Acme, Globex"
        value={values.options ?? ""}
        error={errors.options}
      />
      <NumberRules values={values} />
      {errors.min || errors.max || errors.decimals ? (
        <p className="field-error">{errors.min ?? errors.max ?? errors.decimals}</p>
      ) : null}
      <Ticks values={values} sent={sent} />
      <SubmitButton className="button button-small" pendingText="Adding…">
        Add field
      </SubmitButton>
    </ValidatedForm>
  );
}

function FieldItem({
  field,
  first,
  last,
  result,
}: {
  field: Loaded["fields"][number];
  first: boolean;
  last: boolean;
  result: unknown;
}) {
  const mine = (intent: string) =>
    result && typeof result === "object" && (result as { values?: Record<string, string> }).values?.fieldId === field.id
      ? formState(result, intent)
      : { errors: {}, values: {} as Record<string, string> };
  const edit = mine("edit-field");
  const option = mine("add-option");
  const selectable = field.kind === "select" || field.kind === "multi_select";
  return (
    <li id={`field-${field.id}`} className="field-item">
      <h3>
        {field.name} <span className="muted">· {KIND_LABELS[field.kind]}</span>
        {field.on_card ? <span className="muted"> · on cards</span> : null}
        {field.sum ? <span className="muted"> · summed</span> : null}
        <span className="muted"> · set on {plural(field.held)}</span>
      </h3>
      <ValidatedForm intent="edit-field" result={result} aria-label={`Edit ${field.name}`}>
        <input type="hidden" name="fieldId" value={field.id} />
        <Field
          name="name"
          label="Name"
          maxLength={40}
          value={edit.values.name ?? field.name}
          error={edit.errors.name}
        />
        {field.kind === "number" ? <NumberRules field={field} values={edit.values} /> : null}
        <Ticks field={field} values={edit.values} sent={Object.keys(edit.values).length > 0} />
        <SubmitButton className="button button-small button-secondary">Save {field.name}</SubmitButton>
      </ValidatedForm>
      {selectable ? (
        <ul className="field-options">
          {field.options.map((o) => (
            <li key={o.id}>
              <ValidatedForm
                intent="edit-option"
                result={result}
                className="inline-form"
                aria-label={`Option ${o.name}`}
              >
                <input type="hidden" name="optionId" value={o.id} />
                <Field name="optionName" label="Option" maxLength={40} value={o.name} />
                <SelectField name="color" label="Colour" options={COLOR_OPTIONS} value={o.color} />
                <SubmitButton className="button button-small button-secondary">Save</SubmitButton>
              </ValidatedForm>
              <ValidatedForm intent="remove-option" result={result} className="inline-form">
                <input type="hidden" name="optionId" value={o.id} />
                <SubmitButton className="button button-small button-danger">Remove {o.name}</SubmitButton>
              </ValidatedForm>
            </li>
          ))}
          <li>
            <ValidatedForm
              intent="add-option"
              result={result}
              className="inline-form"
              aria-label={`Add an option to ${field.name}`}
            >
              <input type="hidden" name="fieldId" value={field.id} />
              <Field
                name="optionName"
                label="New option"
                maxLength={40}
                value={option.values.optionName ?? ""}
                error={option.errors.optionName}
              />
              <SelectField name="color" label="Colour" options={COLOR_OPTIONS} value={option.values.color ?? "blue"} />
              <SubmitButton className="button button-small button-secondary">Add option</SubmitButton>
            </ValidatedForm>
          </li>
        </ul>
      ) : null}
      <div className="inline-form">
        {!first ? (
          <ValidatedForm intent="move-field" result={result} className="inline-form">
            <input type="hidden" name="fieldId" value={field.id} />
            <input type="hidden" name="direction" value="up" />
            <SubmitButton className="button button-small button-secondary">Move {field.name} up</SubmitButton>
          </ValidatedForm>
        ) : null}
        {!last ? (
          <ValidatedForm intent="move-field" result={result} className="inline-form">
            <input type="hidden" name="fieldId" value={field.id} />
            <input type="hidden" name="direction" value="down" />
            <SubmitButton className="button button-small button-secondary">Move {field.name} down</SubmitButton>
          </ValidatedForm>
        ) : null}
        <ValidatedForm intent="remove-field" result={result} className="inline-form">
          <input type="hidden" name="fieldId" value={field.id} />
          <SubmitButton className="button button-small button-danger">Remove {field.name}</SubmitButton>
        </ValidatedForm>
      </div>
    </li>
  );
}

export function ErrorBoundary() {
  return <ErrorPage compact />;
}
