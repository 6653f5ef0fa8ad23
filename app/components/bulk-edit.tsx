import { Form } from "@remix-run/react";
import { FormAlert, SelectField, SubmitButton, Field, formState } from "~/components/form";
import { PRIORITIES, PRIORITY_LABELS } from "~/lib/board";
import type { FieldDef } from "~/lib/fields";

/**
 * The list's bulk edit (docs/product.md §13): one form whose buttons each
 * send one change (`change`) for the ticked rows. The rows' checkboxes sit
 * in the table and belong to this form by its id; "All on this page" sends
 * the page's ids (listed here), so it works without JavaScript too. The
 * statuses are the project's (by id, in board order), the labels the
 * team's (by id). Delete only for admins+. Its changes show only while a
 * row is ticked (board.css, by :has(), so without JavaScript too); what an
 * edit did is said beside "All on this page", and the rows stay ticked.
 */
type Choices = {
  members: ReadonlyArray<{ id: string; name: string }>;
  statuses: ReadonlyArray<{ id: string; name: string }>;
};

/** The changes that set a field to one of a list (the change and the field share a name). */
const SETTERS = [
  {
    name: "status",
    label: "Status",
    options: ({ statuses }: Choices) => statuses.map((s) => ({ value: s.id, label: s.name })),
  },
  {
    name: "assignee",
    label: "Assignee",
    options: ({ members }: Choices) => [
      { value: "", label: "Unassigned" },
      ...members.map((m) => ({ value: m.id, label: m.name })),
    ],
  },
  {
    name: "priority",
    label: "Priority",
    options: () => PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] })),
  },
] as const;

export function BulkEditForm({
  pageIds,
  members,
  statuses,
  labels,
  canDelete,
  allTicked,
  result,
  fields = [],
}: {
  pageIds: readonly string[];
  members: Choices["members"];
  statuses: Choices["statuses"];
  labels: ReadonlyArray<{ id: string; name: string }>;
  canDelete: boolean;
  allTicked: boolean;
  result: unknown;
  /** the project's fields: "Set field" (one post for every ticked row) */
  fields?: readonly FieldDef[];
}) {
  const { errors, values } = formState(result, "bulk");
  const done = (result as { done?: string } | undefined)?.done ?? null;
  return (
    <Form method="post" id="bulk-edit" className="bulk-edit" aria-label="Change the ticked tasks" preventScrollReset>
      <input type="hidden" name="intent" value="bulk" />
      {pageIds.map((id) => (
        <input key={id} type="hidden" name="pageIds" value={id} />
      ))}
      {errors.form ? <FormAlert autoFocus>{errors.form}</FormAlert> : null}
      <div className="bulk-edit-head">
        <label className="checkbox-field">
          <input type="checkbox" name="all" defaultChecked={allTicked} /> All on this page
        </label>
        {done ? (
          <p className="confirmation-beside" role="status">
            {done}
          </p>
        ) : null}
      </div>
      <div className="bulk-edit-changes">
        {SETTERS.map(({ name, label, options }) => (
          <div className="bulk-edit-change" key={name}>
            <SelectField
              name={name}
              label={label}
              value={values[name]}
              error={errors[name]}
              options={options({ members, statuses })}
            />
            <SubmitButton name="change" value={name} className="button button-small button-secondary">
              Set {label.toLowerCase()}
            </SubmitButton>
          </div>
        ))}
        {labels.length > 0 ? (
          <div className="bulk-edit-change">
            <SelectField
              name="label"
              label="Label"
              value={values.label}
              error={errors.label}
              options={labels.map((l) => ({ value: l.id, label: l.name }))}
            />
            <SubmitButton name="change" value="add_label" className="button button-small button-secondary">
              Add label
            </SubmitButton>
            <SubmitButton name="change" value="remove_label" className="button button-small button-secondary">
              Remove label
            </SubmitButton>
          </div>
        ) : null}
        {fields.length > 0 ? (
          <div className="bulk-edit-change">
            <input
              type="hidden"
              name="checkboxFields"
              value={fields
                .filter((f) => f.kind === "checkbox")
                .map((f) => f.id)
                .join(",")}
            />
            <SelectField
              name="setField"
              label="Field"
              value={values.setField}
              error={errors.setField}
              options={fields.filter((f) => f.kind !== "person").map((f) => ({ value: f.id, label: f.name }))}
            />
            <Field
              name="fieldValue"
              label="Value"
              value={values.fieldValue}
              error={errors.fieldValue}
              list="bulk-field-values"
              hint="Empty clears it."
            />
            <datalist id="bulk-field-values">
              {[...new Set(fields.flatMap((f) => f.options.map((o) => o.name)))].map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <SubmitButton name="change" value="set_field" className="button button-small button-secondary">
              Set field
            </SubmitButton>
          </div>
        ) : null}
        {canDelete ? (
          <div className="bulk-edit-change">
            <SubmitButton name="change" value="delete" className="button button-small button-danger">
              Delete ticked tasks
            </SubmitButton>
          </div>
        ) : null}
      </div>
    </Form>
  );
}
