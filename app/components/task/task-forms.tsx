import { Field, SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { MarkdownField, previewOf } from "~/components/markdown-field";
import type { ReactNode } from "react";
import { PRIORITIES, PRIORITY_LABELS, STATUS_LABELS, STATUSES, canMove, type EditableTask } from "~/lib/board";

type MemberOption = { id: string; name: string };

const PRIORITY_OPTIONS = PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));

function assigneeOptions(members: MemberOption[]) {
  return [{ value: "", label: "Unassigned" }, ...members.map((m) => ({ value: m.id, label: m.name }))];
}

/** The fields a task's form has, shared by "new task" and the panel's editor. */
export function TaskFields({
  task,
  members,
  result,
  intent,
  team,
  attachTo,
}: {
  task?: Partial<EditableTask>;
  members: MemberOption[];
  result: unknown;
  intent?: string;
  /** the team the description may refer to (its tasks and people) */
  team: string;
  /** the task pasted pictures are attached to (the panel's editor) */
  attachTo?: string;
}) {
  const { errors, values } = formState(result, intent);
  const pick = (name: string, saved: string) => values[name] ?? saved;
  return (
    <>
      <Field name="title" label="Title" maxLength={200} value={pick("title", task?.title ?? "")} error={errors.title} />
      <MarkdownField
        name="description"
        label="Description"
        maxLength={10_000}
        rows={8}
        value={pick("description", task?.description ?? "")}
        error={errors.description}
        preview={previewOf(result, intent, "description")}
        team={team}
        attachTo={attachTo}
      />
      <div className="field-row">
        <SelectField
          name="priority"
          label="Priority"
          options={PRIORITY_OPTIONS}
          value={pick("priority", task?.priority ?? "none")}
          error={errors.priority}
        />
        <SelectField
          name="assignee"
          label="Assignee"
          options={assigneeOptions(members)}
          value={pick("assignee", task?.assignee_id ?? "")}
          error={errors.assignee}
        />
      </div>
      <div className="field-row">
        <Field
          name="dueOn"
          label="Due date"
          type="date"
          min="2000-01-01"
          max="2100-12-31"
          value={pick("dueOn", task?.due_on ?? "")}
          error={errors.dueOn}
        />
        <Field
          name="labels"
          label="Labels"
          hint="Comma-separated, up to 10."
          maxLength={300}
          value={pick("labels", (task?.labels ?? []).join(", "))}
          error={errors.labels}
        />
      </div>
    </>
  );
}

/** `action`: the task's URL (with the page's search), whichever route renders the panel. */
export function TaskEditor({
  task,
  members,
  result,
  action,
  team,
  taskId,
  cancel,
}: {
  task: EditableTask;
  members: MemberOption[];
  result: unknown;
  action: string;
  team: string;
  taskId: string;
  /** back to reading the task */
  cancel: ReactNode;
}) {
  return (
    <ValidatedForm
      intent="update"
      action={action}
      result={result}
      className="task-editor"
      preventScrollReset
      aria-label="Edit task"
    >
      <TaskFields task={task} members={members} result={result} intent="update" team={team} attachTo={taskId} />
      <div className="form-actions">
        <SubmitButton className="button button-small" pendingText="Saving…">
          Save changes
        </SubmitButton>
        {cancel}
      </div>
    </ValidatedForm>
  );
}

/** Status and place: the plain-form way to move a task (docs/product.md §4's rules are the server's). */
export function TaskMoveForm({ task, result, action }: { task: EditableTask; result: unknown; action: string }) {
  const { errors, values } = formState(result, "move");
  const options = STATUSES.map((s) => ({
    value: s,
    label:
      s === task.status
        ? `${STATUS_LABELS[s]} (now)`
        : canMove(task.status, s)
          ? STATUS_LABELS[s]
          : `${STATUS_LABELS[s]} (not from ${STATUS_LABELS[task.status]})`,
  }));
  return (
    <ValidatedForm
      intent="move"
      action={action}
      result={result}
      className="task-move"
      preventScrollReset
      aria-label="Move task"
    >
      <div className="field-row">
        <SelectField
          name="status"
          label="Status"
          options={options}
          value={values.status ?? task.status}
          error={errors.status}
        />
        <Field
          name="position"
          label="Place in column"
          type="number"
          min="1"
          inputMode="numeric"
          hint="1 is the top; empty puts it last."
          value={values.position ?? String(task.position + 1)}
          error={errors.position}
        />
      </div>
      <SubmitButton className="button button-small button-secondary">Move</SubmitButton>
    </ValidatedForm>
  );
}
