import { Form, useFetcher } from "@remix-run/react";
import { useState, type DragEvent } from "react";
import { Field, SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { CATEGORIES, CATEGORY_LABELS, overWipLimit } from "~/lib/board";
import type { StatusWithCount as StatusColumnInfo } from "~/lib/statuses.server";
import { colorClass, COLOR_OPTIONS } from "~/lib/palette";

/**
 * A project's statuses on its settings page (docs/product.md §11): each with
 * its forms (rename, recolour and WIP limit; up and down; remove, saying
 * where its tasks go). Every form is a plain post; with JavaScript a status
 * can also be dragged to its place (the same `move-status` post, sent by a
 * fetcher, the list reordered at once).
 */
export function StatusList({
  statuses,
  result,
  readOnly,
}: {
  statuses: StatusColumnInfo[];
  result: unknown;
  readOnly: boolean;
}) {
  const reorder = useFetcher<{ errors?: Record<string, string> }>({ key: "move-status" });
  const [dragging, setDragging] = useState<string | null>(null);
  const pending = reorder.formData?.get("intent") === "move-status" ? reorder.formData : null;
  const shown = pending ? moveTo(statuses, String(pending.get("statusId")), Number(pending.get("position"))) : statuses;
  // draggable from the first HTML (only script acts on a drop; without it the buttons do the job)
  const canDrag = !readOnly && statuses.length > 1;
  const dragFailure = reorder.state === "idle" ? reorder.data?.errors?.form : undefined;

  function onDrop(event: DragEvent<HTMLElement>, target: number) {
    event.preventDefault();
    const id = event.dataTransfer.getData("text/plain") || dragging;
    setDragging(null);
    if (!id || shown.findIndex((s) => s.id === id) === target) return;
    reorder.submit({ intent: "move-status", statusId: id, position: String(target) }, { method: "post" });
  }

  return (
    <>
      {canDrag ? <p className="hint needs-js">Drag a status by its ⠿ handle, or use its Up and Down buttons.</p> : null}
      {dragFailure ? (
        <p className="alert alert-error" role="alert">
          {dragFailure}
        </p>
      ) : null}
      <ol className="status-list" aria-label="Statuses in board order">
        {shown.map((status, index) => (
          <li
            key={status.id}
            id={`status-${status.id}`}
            className={`status-row ${colorClass(status.color)}${dragging === status.id ? " is-dragging" : ""}`}
            data-status-row={status.name}
            draggable={canDrag || undefined}
            onDragStart={
              canDrag
                ? (event) => {
                    event.dataTransfer.setData("text/plain", status.id);
                    event.dataTransfer.effectAllowed = "move";
                    setDragging(status.id);
                  }
                : undefined
            }
            onDragEnd={canDrag ? () => setDragging(null) : undefined}
            onDragOver={canDrag ? (event) => event.preventDefault() : undefined}
            onDrop={canDrag ? (event) => onDrop(event, index) : undefined}
          >
            <StatusRow
              status={status}
              index={index}
              statuses={statuses}
              result={result}
              readOnly={readOnly}
              draggable={canDrag}
            />
          </li>
        ))}
      </ol>
    </>
  );
}

/** The list as it will be once `id` is at `position`. */
function moveTo(statuses: StatusColumnInfo[], id: string, position: number): StatusColumnInfo[] {
  const moving = statuses.find((s) => s.id === id);
  if (!moving) return statuses;
  const rest = statuses.filter((s) => s.id !== id);
  const place = Math.max(0, Math.min(position, rest.length));
  return [...rest.slice(0, place), moving, ...rest.slice(place)];
}

/** Whether the action's answer is about this status's form with `intent`. */
function answerFor(result: unknown, intent: string, statusId: string) {
  const r = result as { intent?: string; values?: Record<string, string> } | undefined;
  return r?.intent === intent && r.values?.statusId === statusId ? result : undefined;
}

function StatusRow({
  status,
  index,
  statuses,
  result,
  readOnly,
  draggable,
}: {
  status: StatusColumnInfo;
  index: number;
  statuses: StatusColumnInfo[];
  result: unknown;
  readOnly: boolean;
  draggable: boolean;
}) {
  const others = statuses.filter((s) => s.id !== status.id);
  const edit = answerFor(result, "edit-status", status.id);
  const remove = answerFor(result, "remove-status", status.id);
  const move = answerFor(result, "move-status", status.id);
  const editState = formState(edit, "edit-status");
  const removeState = formState(remove, "remove-status");
  const tasks = status.count === 1 ? "1 task" : `${status.count} tasks`;
  return (
    <>
      <div className="status-row-head">
        {draggable ? (
          <span className="drag-handle" aria-hidden="true">
            ⠿
          </span>
        ) : null}
        <span className="column-swatch" aria-hidden="true" />
        <h3 className="status-row-name">{status.name}</h3>
        <span className="muted small">
          {CATEGORY_LABELS[status.category]} · {tasks}
          {status.wip_limit !== null ? ` · WIP limit ${status.wip_limit}` : ""}
          {overWipLimit(status) ? " (over it)" : ""}
        </span>
      </div>
      {readOnly ? null : (
        <details className="status-row-forms" open={edit || remove || move ? true : undefined}>
          <summary>
            Change<span className="visually-hidden"> {status.name}</span>
          </summary>
          <ValidatedForm
            schema="EditStatusSchema"
            intent="edit-status"
            result={edit}
            className="status-edit"
            aria-label={`Edit ${status.name}`}
          >
            <input type="hidden" name="statusId" value={status.id} />
            <div className="field-row">
              <Field name="name" label="Name" defaultValue={status.name} maxLength={30} autoComplete="off" />
              <SelectField
                name="color"
                label="Colour"
                options={COLOR_OPTIONS}
                value={editState.values.color ?? status.color}
                error={editState.errors.color}
              />
              <Field
                name="wipLimit"
                label="WIP limit"
                hint="Empty: no limit."
                inputMode="numeric"
                defaultValue={status.wip_limit === null ? "" : String(status.wip_limit)}
                maxLength={3}
                autoComplete="off"
              />
            </div>
            <SubmitButton className="button button-small">Save {status.name}</SubmitButton>
          </ValidatedForm>
          <div className="status-order" role="group" aria-label={`Move ${status.name}`}>
            {formState(move, "move-status").errors.form ? (
              <p className="field-error">{formState(move, "move-status").errors.form}</p>
            ) : null}
            {index > 0 ? <MoveButton status={status} position={index - 1} label="Up" /> : null}
            {index < statuses.length - 1 ? <MoveButton status={status} position={index + 1} label="Down" /> : null}
          </div>
          {/* removing asks first (a second click, as "Delete task…" does), with JavaScript or without */}
          <details className="danger-zone status-remove-confirm" open={remove ? true : undefined}>
            <summary>Remove {status.name}…</summary>
            <ValidatedForm
              intent="remove-status"
              result={remove}
              className="status-remove"
              aria-label={`Remove ${status.name}`}
            >
              <input type="hidden" name="statusId" value={status.id} />
              {status.count > 0 ? (
                <SelectField
                  name="moveTo"
                  label={`Move its ${tasks} to`}
                  options={[
                    { value: "", label: "Choose a status" },
                    ...others.map((s) => ({ value: s.id, label: s.name })),
                  ]}
                  value={removeState.values.moveTo ?? ""}
                  error={removeState.errors.moveTo}
                />
              ) : (
                <>
                  <input type="hidden" name="moveTo" value="" />
                  {/* a refusal with no field to stand beside (the last done status, say) is said here */}
                  {removeState.errors.moveTo ? (
                    <p className="field-error" role="alert">
                      {removeState.errors.moveTo}
                    </p>
                  ) : null}
                </>
              )}
              <SubmitButton className="button button-small button-danger">Remove {status.name}</SubmitButton>
            </ValidatedForm>
          </details>
        </details>
      )}
    </>
  );
}

function MoveButton({ status, position, label }: { status: StatusColumnInfo; position: number; label: string }) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value="move-status" />
      <input type="hidden" name="statusId" value={status.id} />
      <input type="hidden" name="position" value={position} />
      <button type="submit" className="button button-small button-secondary">
        {label}
        <span className="visually-hidden"> {status.name}</span>
      </button>
    </Form>
  );
}

const CATEGORY_OPTIONS = CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] }));

/** A new status: it goes at the end of the board (move it from there). */
export function AddStatusForm({ result }: { result: unknown }) {
  const { errors, values } = formState(result, "add-status");
  return (
    <ValidatedForm schema="AddStatusSchema" intent="add-status" result={result} aria-label="Add a status">
      <div className="field-row">
        <Field name="name" label="Name" maxLength={30} autoComplete="off" />
        <SelectField
          name="category"
          label="What it means"
          options={CATEGORY_OPTIONS}
          value={values.category ?? "started"}
          error={errors.category}
        />
      </div>
      <div className="field-row">
        <SelectField
          name="color"
          label="Colour"
          options={COLOR_OPTIONS}
          value={values.color ?? "purple"}
          error={errors.color}
        />
        <Field
          name="wipLimit"
          label="WIP limit"
          hint="Empty: no limit."
          inputMode="numeric"
          maxLength={3}
          autoComplete="off"
        />
      </div>
      <SubmitButton className="button button-small">Add status</SubmitButton>
    </ValidatedForm>
  );
}
