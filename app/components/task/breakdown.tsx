import { Form, Link } from "@remix-run/react";
import { Field, SubmitButton, ValidatedForm } from "~/components/form";
import { StatusBadge } from "~/components/labels";
import { isClosed, taskRef } from "~/lib/board";
import { RELATION_CHOICE_LABELS, RELATION_CHOICES } from "~/lib/relations";
import type { ChecklistItem, SubTask, TaskRelation } from "~/lib/tasks.server";
import { formState, SelectField } from "~/components/form";

/**
 * Breaking the open task down (docs/product.md §11): its checklist, its
 * sub-tasks and its relations, each a list with plain forms (they post to
 * the task's /checklist, /subtasks and /relations routes, so they work
 * without JavaScript; with it they submit in place). `result` is those
 * routes' answer, told apart by intent.
 */
interface BreakdownProps {
  /** /teams/acme/projects/WEB/tasks/12 */
  taskPath: string;
  /** the page's search, kept on every form's action */
  search: string;
  canEdit: boolean;
  result?: unknown;
}

export function Checklist({ items, taskPath, search, canEdit, result }: BreakdownProps & { items: ChecklistItem[] }) {
  const action = `${taskPath}/checklist${search}`;
  const done = items.filter((item) => item.done).length;
  const failure = formState(result);
  const itemFailure = failure.errors.form && result && !isAdd(result) ? failure.errors.form : null;
  return (
    <section className="task-section checklist" aria-labelledby="checklist-title">
      <h3 id="checklist-title">
        Checklist{" "}
        {items.length > 0 ? (
          <span className="muted small" aria-label={`${done} of ${items.length} done`}>
            {done}/{items.length}
          </span>
        ) : null}
      </h3>
      {itemFailure ? (
        <p className="alert alert-error" role="alert">
          {itemFailure}
        </p>
      ) : null}
      <ol className="checklist-items">
        {items.map((item, index) => (
          <li key={item.id} className={item.done ? "is-done" : undefined} data-checklist-item={item.title}>
            {canEdit ? (
              <Form method="post" action={action} preventScrollReset className="inline-form">
                <input type="hidden" name="intent" value="tick-item" />
                <input type="hidden" name="itemId" value={item.id} />
                <input type="hidden" name="done" value={item.done ? "false" : "true"} />
                <button
                  type="submit"
                  className="tick"
                  aria-pressed={item.done}
                  aria-label={`${item.done ? "Untick" : "Tick"} “${item.title}”`}
                >
                  <span aria-hidden="true">{item.done ? "☑" : "☐"}</span>
                </button>
              </Form>
            ) : (
              <span className="tick" aria-label={item.done ? "Done" : "Not done"}>
                <span aria-hidden="true">{item.done ? "☑" : "☐"}</span>
              </span>
            )}
            {/* members click the item itself to change it (issue 42 §15): no "Change" line under each */}
            {canEdit ? null : <span className="checklist-title">{item.title}</span>}
            {canEdit ? (
              <details className="item-actions in-place">
                <summary>
                  <span className="checklist-title">{item.title}</span>
                  {item.done && item.ticked_by ? (
                    <span className="muted small"> · {item.ticked_by.display_name}</span>
                  ) : null}
                  <span className="visually-hidden">, change “{item.title}”</span>
                </summary>
                <ValidatedForm
                  intent="edit-item"
                  action={action}
                  result={isFor(result, item.id) ? result : undefined}
                  preventScrollReset
                  aria-label={`Edit “${item.title}”`}
                >
                  <input type="hidden" name="itemId" value={item.id} />
                  <Field name="title" label="Item" defaultValue={item.title} maxLength={200} autoComplete="off" />
                  <SubmitButton className="button button-small">Save</SubmitButton>
                </ValidatedForm>
                <div className="item-buttons">
                  {index > 0 ? (
                    <ItemButton action={action} item={item} intent="move-item" position={index - 1} label="Up" />
                  ) : null}
                  {index < items.length - 1 ? (
                    <ItemButton action={action} item={item} intent="move-item" position={index + 1} label="Down" />
                  ) : null}
                  <ItemButton action={action} item={item} intent="remove-item" label="Remove" />
                </div>
              </details>
            ) : item.done && item.ticked_by ? (
              <span className="muted small"> · {item.ticked_by.display_name}</span>
            ) : null}
          </li>
        ))}
      </ol>
      {/* the 51st item is refused by the database, in words beside the field */}
      {canEdit ? (
        <ValidatedForm
          schema="ChecklistItemSchema"
          intent="add-item"
          action={action}
          result={result}
          preventScrollReset
          className="add-item"
          aria-label="Add a checklist item"
        >
          <Field name="title" label="New item" maxLength={200} autoComplete="off" />
          <SubmitButton className="button button-small button-secondary">Add item</SubmitButton>
        </ValidatedForm>
      ) : null}
    </section>
  );
}

function ItemButton({
  action,
  item,
  intent,
  position,
  label,
}: {
  action: string;
  item: ChecklistItem;
  intent: "move-item" | "remove-item";
  position?: number;
  label: string;
}) {
  return (
    <Form method="post" action={action} preventScrollReset className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="itemId" value={item.id} />
      {position !== undefined ? <input type="hidden" name="position" value={position} /> : null}
      <button type="submit" className="button button-small button-secondary">
        {label}
        <span className="visually-hidden"> “{item.title}”</span>
      </button>
    </Form>
  );
}

function isAdd(result: unknown) {
  return (result as { intent?: string } | undefined)?.intent === "add-item";
}

function isFor(result: unknown, itemId: string) {
  const r = result as { intent?: string; values?: Record<string, string> } | undefined;
  return r?.intent === "edit-item" && r.values?.itemId === itemId;
}

export function SubTasks({
  subtasks,
  isSubTask,
  projectPath,
  taskPath,
  search,
  canEdit,
  result,
}: BreakdownProps & {
  subtasks: SubTask[];
  /** a sub-task has no sub-tasks of its own */
  isSubTask: boolean;
  /** /teams/acme/projects/WEB */
  projectPath: string;
}) {
  if (isSubTask) return null;
  const key = projectPath.slice(projectPath.lastIndexOf("/") + 1);
  const done = subtasks.filter((s) => isClosed(s.status.category)).length;
  return (
    <section className="task-section subtasks" aria-labelledby="subtasks-title">
      <h3 id="subtasks-title">
        Sub-tasks{" "}
        {subtasks.length > 0 ? (
          <span className="muted small" aria-label={`${done} of ${subtasks.length} done`}>
            {done}/{subtasks.length}
          </span>
        ) : null}
      </h3>
      <ul className="task-links">
        {subtasks.map((sub) => (
          <li key={sub.id}>
            <Link to={`${projectPath}/tasks/${sub.number}${search}`} preventScrollReset>
              <span className="task-ref">{taskRef(key, sub.number)}</span> {sub.title}
            </Link>{" "}
            <StatusBadge status={sub.status} />
          </li>
        ))}
      </ul>
      {canEdit ? (
        <ValidatedForm
          schema="SubtaskSchema"
          intent="add-subtask"
          action={`${taskPath}/subtasks${search}`}
          result={result}
          preventScrollReset
          className="add-item"
          aria-label="Add a sub-task"
        >
          <Field name="title" label="New sub-task" maxLength={200} autoComplete="off" />
          <SubmitButton className="button button-small button-secondary">Add sub-task</SubmitButton>
        </ValidatedForm>
      ) : null}
    </section>
  );
}

/** How a relation reads from this task's side. */
function relationLabel(relation: TaskRelation): string {
  if (relation.kind === "relates") return "Relates to";
  if (relation.kind === "blocks") return relation.outgoing ? "Blocks" : "Blocked by";
  return relation.outgoing ? "Duplicates" : "Duplicated by";
}

export function Relations({
  relations,
  teamPath,
  taskPath,
  search,
  canEdit,
  result,
}: BreakdownProps & {
  relations: TaskRelation[];
  /** /teams/acme */
  teamPath: string;
}) {
  const action = `${taskPath}/relations${search}`;
  const { errors, values } = formState(result, "add-relation");
  const removeFailure = formState(result, "remove-relation").errors.form;
  return (
    <section className="task-section relations" aria-labelledby="relations-title">
      <h3 id="relations-title">Relations</h3>
      {removeFailure ? (
        <p className="alert alert-error" role="alert">
          {removeFailure}
        </p>
      ) : null}
      <ul className="task-links">
        {relations.map((relation) => {
          const ref = taskRef(relation.task.project_key, relation.task.number);
          return (
            <li key={relation.id} data-relation={relationLabel(relation)}>
              <span className="relation-kind">{relationLabel(relation)}</span>{" "}
              <Link to={`${teamPath}/projects/${relation.task.project_key}/tasks/${relation.task.number}`}>
                <span className="task-ref">{ref}</span> {relation.task.title}
              </Link>
              {relation.task.closed ? <span className="muted small"> (closed)</span> : null}
              {canEdit ? (
                <Form method="post" action={action} preventScrollReset className="inline-form">
                  <input type="hidden" name="intent" value="remove-relation" />
                  <input type="hidden" name="relationId" value={relation.id} />
                  <button type="submit" className="link-button small">
                    Remove<span className="visually-hidden"> the relation to {ref}</span>
                  </button>
                </Form>
              ) : null}
            </li>
          );
        })}
      </ul>
      {canEdit ? (
        <ValidatedForm
          intent="add-relation"
          action={action}
          result={result}
          preventScrollReset
          className="add-relation"
          aria-label="Relate to another task"
        >
          <div className="field-row">
            <SelectField
              name="relation"
              label="This task"
              options={RELATION_CHOICES.map((choice) => ({ value: choice, label: RELATION_CHOICE_LABELS[choice] }))}
              value={values.relation ?? "blocks"}
              error={errors.relation}
            />
            <Field
              name="other"
              label="Task"
              hint="Its key and number, like WEB-12."
              maxLength={20}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
            />
          </div>
          <SubmitButton className="button button-small button-secondary">Add relation</SubmitButton>
        </ValidatedForm>
      ) : null}
    </section>
  );
}
