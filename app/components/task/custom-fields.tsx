import { Field, SelectField } from "~/components/form";
import {
  assigneeInputName,
  fieldInputName,
  fieldInputValue,
  fieldWords,
  type FieldDef,
  type FieldValues,
} from "~/lib/fields";
import type { FieldErrors, FormValues } from "~/lib/schemas";

type MemberOption = { id: string; name: string };

/**
 * A task's assignees in its form: one checkbox per member (0–10; the database
 * says so beyond). A form sent back keeps what was ticked.
 */
export function AssigneesField({
  members,
  chosen,
  values,
  errors,
}: {
  members: MemberOption[];
  chosen: string[];
  values: FormValues;
  errors: FieldErrors;
}) {
  // sent back: the boxes as they were sent (the hidden marker says the form was)
  const sentBack = values.assigneesShown !== undefined;
  const error = errors.assignees ?? errors.assignee;
  return (
    <fieldset className="assignees-field" aria-describedby={error ? "assignees-error" : undefined}>
      <legend>Assignees</legend>
      <input type="hidden" name="assigneesShown" value="1" />
      {members.map((m) => (
        <label key={m.id} className="checkbox-label">
          <input
            type="checkbox"
            name={assigneeInputName(m.id)}
            defaultChecked={sentBack ? Boolean(values[assigneeInputName(m.id)]) : chosen.includes(m.id)}
          />{" "}
          {m.name}
        </label>
      ))}
      {error ? (
        <p className="field-error" id="assignees-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function hintOf(def: FieldDef): string | undefined {
  if (def.kind !== "number") return undefined;
  const { min, max } = def;
  if (min != null && max != null) return `${min} to ${max}`;
  if (min != null) return `At least ${min}`;
  if (max != null) return `At most ${max}`;
  return undefined;
}

/** The project's fields in a task's form, each beside its refusal ("Points is a number from 0 to 100."). */
export function CustomFieldsEdit({
  fields,
  saved,
  members,
  values,
  errors,
}: {
  fields: FieldDef[];
  saved: FieldValues;
  members: MemberOption[];
  values: FormValues;
  errors: FieldErrors;
}) {
  if (!fields.length) return null;
  const sentBack = values.fieldsShown !== undefined;
  return (
    <fieldset className="custom-fields">
      <legend>Fields</legend>
      <input type="hidden" name="fieldsShown" value={fields.map((f) => f.id).join(",")} />
      {fields.map((def) => {
        const name = fieldInputName(def.id);
        const value = values[name] ?? (sentBack ? "" : fieldInputValue(def, saved[def.id]));
        const error = errors[name];
        switch (def.kind) {
          case "select":
          case "person":
            return (
              <SelectField
                key={def.id}
                name={name}
                label={def.name}
                options={[
                  { value: "", label: "None" },
                  ...(def.kind === "select"
                    ? def.options.map((o) => ({ value: o.id, label: o.name }))
                    : members.map((m) => ({ value: m.id, label: m.name }))),
                ]}
                value={value}
                error={error}
              />
            );
          case "multi_select": {
            const chosen = Array.isArray(saved[def.id]) ? (saved[def.id] as string[]) : [];
            return (
              <fieldset key={def.id} className="custom-field-options">
                <legend>{def.name}</legend>
                {def.options.map((o) => (
                  <label key={o.id} className="checkbox-label">
                    <input
                      type="checkbox"
                      name={`${name}:${o.id}`}
                      defaultChecked={sentBack ? Boolean(values[`${name}:${o.id}`]) : chosen.includes(o.id)}
                    />{" "}
                    {o.name}
                  </label>
                ))}
                {error ? <p className="field-error">{error}</p> : null}
              </fieldset>
            );
          }
          case "checkbox":
            return (
              <div key={def.id} className="field">
                <label className="checkbox-label">
                  <input type="checkbox" name={name} defaultChecked={value === "on"} /> {def.name}
                </label>
                {error ? <p className="field-error">{error}</p> : null}
              </div>
            );
          default:
            return (
              <Field
                key={def.id}
                name={name}
                label={def.name}
                type={
                  def.kind === "number" ? "text" : def.kind === "date" ? "date" : def.kind === "link" ? "url" : "text"
                }
                inputMode={def.kind === "number" ? "numeric" : undefined}
                maxLength={def.kind === "link" ? 2000 : 500}
                hint={hintOf(def)}
                value={value}
                error={error}
              />
            );
        }
      })}
    </fieldset>
  );
}

/** The task's field values to read (those it has; "—" for none). */
export function CustomFieldsRead({
  fields,
  saved,
  members,
}: {
  fields: FieldDef[];
  saved: FieldValues;
  members: MemberOption[];
}) {
  const names = new Map(members.map((m) => [m.id, m.name]));
  return (
    <>
      {fields.map((def) => {
        const words = fieldWords(def, saved[def.id], names);
        return (
          <div key={def.id}>
            <dt>{def.name}</dt>
            <dd>
              {def.kind === "link" && words ? (
                <a href={words} rel="noopener noreferrer nofollow" target="_blank">
                  {words}
                </a>
              ) : (
                (words ?? "—")
              )}
            </dd>
          </div>
        );
      })}
    </>
  );
}
