import { useState, type KeyboardEvent } from "react";
import { Field, useFormId } from "~/components/form";
import { labelInputName } from "~/lib/fields";
import type { FieldErrors, FormValues } from "~/lib/schemas";

type LabelOption = { id: string; name: string; color: string };

/**
 * A task's labels chosen from the team's (issue 42 §5): one checkbox per
 * label, in its colour. With JavaScript a search narrows the list and
 * "Create “name”" adds a label that isn't there (for those who may make
 * team labels); without it, a "New labels" field does that on purpose. A
 * name is made into a team label only by one of those two, never by a typo
 * in the search. A form sent back keeps what was ticked and what was new.
 */
export function LabelPicker({
  teamLabels,
  chosen,
  values,
  errors,
  canCreate,
}: {
  /** the team's labels, by name */
  teamLabels: ReadonlyArray<LabelOption>;
  /** the task's labels now, by name */
  chosen: string[];
  values: FormValues;
  errors: FieldErrors;
  /** whether this person may make team labels (members+, permissions.ts createLabels) */
  canCreate: boolean;
}) {
  const sentBack = values.labelsShown !== undefined;
  const known = new Set(teamLabels.map((l) => l.name.toLowerCase()));
  // names ticked in a form sent back that the team doesn't have yet (made with "Create")
  const sentNew = sentBack
    ? Object.keys(values)
        .filter((key) => key.startsWith(labelInputName("")))
        .map((key) => key.slice(labelInputName("").length))
        .filter((name) => !known.has(name.toLowerCase()))
    : [];
  const [created, setCreated] = useState<string[]>(sentNew);
  const [query, setQuery] = useState("");
  const wanted = query.trim().replace(/\s+/g, " ");
  const matches = (name: string) => name.toLowerCase().includes(wanted.toLowerCase());
  const taken = new Set([...known, ...created.map((n) => n.toLowerCase())]);
  const offerCreate = canCreate && wanted !== "" && wanted.length <= 24 && !taken.has(wanted.toLowerCase());
  const isChosen = (name: string) =>
    sentBack ? values[labelInputName(name)] !== undefined : chosen.some((c) => c.toLowerCase() === name.toLowerCase());
  const error = errors.labels ?? errors.newLabels;
  const formId = useFormId();

  const create = () => {
    if (!offerCreate) return;
    setCreated((list) => [...list, wanted]);
    setQuery("");
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter in the search never sends the whole form; it creates what is offered
    if (event.key !== "Enter") return;
    event.preventDefault();
    create();
  };
  const visible = teamLabels.filter((l) => matches(l.name)).length + created.filter(matches).length;

  return (
    <fieldset id={`${formId}-labels`} className="label-picker" aria-describedby={error ? "labels-error" : undefined}>
      <legend>Labels</legend>
      <input type="hidden" name="labelsShown" value="1" />
      <div className="label-search needs-js">
        <input
          type="search"
          aria-label="Find a label"
          placeholder={canCreate ? "Find or create a label" : "Find a label"}
          maxLength={24}
          autoComplete="off"
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          onKeyDown={onKey}
        />
        {offerCreate ? (
          <button type="button" className="button button-small button-secondary" onClick={create}>
            Create “{wanted}”
          </button>
        ) : null}
      </div>
      <ul className="label-options">
        {teamLabels.map((label) => (
          <li key={label.id} hidden={!matches(label.name)}>
            <label className="checkbox-label">
              <input type="checkbox" name={labelInputName(label.name)} defaultChecked={isChosen(label.name)} />{" "}
              <span className={`label color-${label.color}`}>{label.name}</span>
            </label>
          </li>
        ))}
        {created.map((name) => (
          <li key={`new-${name}`} hidden={!matches(name)}>
            <label className="checkbox-label">
              <input type="checkbox" name={labelInputName(name)} defaultChecked />{" "}
              <span className="label label-new">{name}</span>
            </label>
          </li>
        ))}
      </ul>
      {created.length ? <p className="hint">A new label (dashed) becomes the team's when this is saved.</p> : null}
      {teamLabels.length + created.length === 0 ? <p className="hint">The team has no labels yet.</p> : null}
      {visible === 0 && wanted !== "" && !offerCreate ? <p className="hint needs-js">No label matches.</p> : null}
      {canCreate ? (
        <div className="without-js">
          <Field
            name="newLabels"
            label="New labels"
            hint="Comma-separated; each becomes a team label."
            maxLength={300}
            autoComplete="off"
            value={values.newLabels ?? ""}
          />
        </div>
      ) : null}
      {error ? (
        <p className="field-error" id="labels-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
