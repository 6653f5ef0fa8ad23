import { Form } from "@remix-run/react";
import type { FieldDef } from "~/lib/fields";
import { GROUP_KEYS, GROUP_LABELS, SORT_KEYS, SORT_LABELS, fieldKey } from "~/lib/list";
import { GROUPABLE_KINDS, fieldFilterName } from "~/lib/list-fields";

/**
 * The list's sorting, grouping, field columns and filters by a field's value:
 * one GET form that keeps the board's filters (the headers sort too; on
 * phones they're hidden), so all of it works without JavaScript and lands in
 * the URL (and so in a saved view). "Columns" lists every field, ticked when
 * it is shown; a hidden empty `columns` says the ticks are the whole choice.
 */
export function ListArrangeForm({
  query,
  fields,
  columns,
  fieldFilters,
  members,
}: {
  query: { sort: string; group: string | null; filters: Record<string, string | null> };
  fields: readonly FieldDef[];
  /** the ids of the fields shown as columns */
  columns: readonly string[];
  fieldFilters: Record<string, string>;
  members: ReadonlyArray<{ id: string; name: string }>;
}) {
  return (
    <Form method="get" className="group-form" aria-label="Sort and group">
      {Object.entries(query.filters).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <div className="field">
        <label htmlFor="list-sort">Sort by</label>
        <select id="list-sort" name="sort" defaultValue={query.sort}>
          {SORT_KEYS.flatMap((key) => [
            <option key={key} value={key}>
              {SORT_LABELS[key]}, ascending
            </option>,
            <option key={`-${key}`} value={`-${key}`}>
              {SORT_LABELS[key]}, descending
            </option>,
          ])}
          {fields.flatMap((field) => [
            <option key={field.id} value={fieldKey(field.id)}>
              {field.name}, ascending
            </option>,
            <option key={`-${field.id}`} value={`-${fieldKey(field.id)}`}>
              {field.name}, descending
            </option>,
          ])}
        </select>
      </div>
      <div className="field">
        <label htmlFor="list-group">Group by</label>
        <select id="list-group" name="group" defaultValue={query.group ?? ""}>
          <option value="">Nothing</option>
          {GROUP_KEYS.map((key) => (
            <option key={key} value={key}>
              {GROUP_LABELS[key]}
            </option>
          ))}
          {fields
            .filter((field) => GROUPABLE_KINDS.includes(field.kind))
            .map((field) => (
              <option key={field.id} value={fieldKey(field.id)}>
                {field.name}
              </option>
            ))}
        </select>
      </div>
      {fields.length > 0 ? (
        <>
          <fieldset className="field list-columns">
            <legend>Columns</legend>
            <input type="hidden" name="columns" value="" />
            {fields.map((field) => (
              <label key={field.id} className="checkbox-field">
                <input type="checkbox" name="columns" value={field.id} defaultChecked={columns.includes(field.id)} />{" "}
                {field.name}
              </label>
            ))}
          </fieldset>
          {fields.map((field) => (
            <FieldFilter key={field.id} field={field} value={fieldFilters[field.id] ?? ""} members={members} />
          ))}
        </>
      ) : null}
      <button type="submit" className="button button-small button-secondary">
        Show
      </button>
    </Form>
  );
}

/** A filter by one field's value: a choice for a select, person or checkbox, else what to look for. */
function FieldFilter({
  field,
  value,
  members,
}: {
  field: FieldDef;
  value: string;
  members: ReadonlyArray<{ id: string; name: string }>;
}) {
  const id = `list-filter-${field.id}`;
  const name = fieldFilterName(field.id);
  const choices =
    field.kind === "select" || field.kind === "multi_select"
      ? field.options.map((o) => ({ value: o.id, label: o.name }))
      : field.kind === "person"
        ? [{ value: "me", label: "Me" }, ...members.map((m) => ({ value: m.id, label: m.name }))]
        : field.kind === "checkbox"
          ? [
              { value: "yes", label: "Yes" },
              { value: "no", label: "No" },
            ]
          : null;
  return (
    <div className="field">
      <label htmlFor={id}>{field.name}</label>
      {choices ? (
        <select id={id} name={name} defaultValue={value}>
          <option value="">Any</option>
          {field.kind !== "checkbox" ? <option value="none">None</option> : null}
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          name={name}
          defaultValue={value}
          type={field.kind === "date" ? "date" : "text"}
          inputMode={field.kind === "number" ? "decimal" : undefined}
          placeholder={field.kind === "date" ? undefined : "Any"}
          maxLength={200}
        />
      )}
    </div>
  );
}
