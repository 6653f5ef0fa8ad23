import type { ReactNode } from "react";
import { Field, SelectField, SubmitButton, ValidatedForm, formState } from "~/components/form";
import { MarkdownField, previewOf } from "~/components/markdown-field";
import { PRIORITIES, PRIORITY_LABELS, type EditableTask, type StatusRef } from "~/lib/board";
import type { RepeatFields as SavedRepeat } from "~/lib/recurrence";
import type { FieldDef, FieldValues } from "~/lib/fields";
import { AssigneesField, CustomFieldsEdit } from "./custom-fields";
import { LabelPicker } from "./label-picker";
import { RepeatFields } from "./repeat-fields";

type MemberOption = { id: string; name: string };
type LabelOption = { id: string; name: string; color: string };

/** what a date input offers (the server checks again) */
const DATE_RANGE = { min: "2000-01-01", max: "2100-12-31" };

const PRIORITY_OPTIONS = PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));

/** The fields a task's form has, shared by "new task" and the panel's editor. */
export function TaskFields({
  task,
  repeat,
  labels = [],
  members,
  teamLabels,
  canCreateLabels,
  result,
  intent,
  team,
  attachTo,
  fields = [],
}: {
  task?: Partial<EditableTask> & { assignee_ids?: string[]; fields?: unknown };
  /** the project's fields (the task's values are task.fields) */
  fields?: FieldDef[];
  /** the task's rule as the form's fields */
  repeat?: SavedRepeat;
  /** the task's labels now */
  labels?: LabelOption[];
  members: MemberOption[];
  /** the team's labels, to choose from */
  teamLabels: LabelOption[];
  /** whether this person may make team labels (the picker's "Create") */
  canCreateLabels: boolean;
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
      </div>
      <AssigneesField
        members={members}
        chosen={task?.assignee_ids ?? (task?.assignee_id ? [task.assignee_id] : [])}
        values={values}
        errors={errors}
      />
      <div className="field-row">
        <Field
          name="startOn"
          label="Start date"
          type="date"
          {...DATE_RANGE}
          value={pick("startOn", task?.start_on ?? "")}
          error={errors.startOn}
        />
        <Field
          name="dueOn"
          label="Due date"
          type="date"
          {...DATE_RANGE}
          value={pick("dueOn", task?.due_on ?? "")}
          error={errors.dueOn}
        />
        <Field
          name="dueTime"
          label="Due time"
          type="time"
          value={pick("dueTime", task?.due_time?.slice(0, 5) ?? "")}
          error={errors.dueTime}
        />
      </div>
      <LabelPicker
        teamLabels={teamLabels}
        chosen={labels.map((l) => l.name)}
        values={values}
        errors={errors}
        canCreate={canCreateLabels}
      />
      <RepeatFields saved={repeat} values={values} errors={errors} />
      <CustomFieldsEdit
        fields={fields}
        saved={(task?.fields ?? {}) as FieldValues}
        members={members}
        values={values}
        errors={errors}
      />
    </>
  );
}

/** `action`: the task's URL (with the page's search), whichever route renders the panel. */
export function TaskEditor({
  task,
  repeat,
  labels,
  members,
  teamLabels,
  canCreateLabels,
  result,
  action,
  team,
  taskId,
  cancel,
  fields,
}: {
  task: EditableTask & { assignee_ids?: string[]; fields?: unknown };
  fields?: FieldDef[];
  repeat: SavedRepeat;
  labels: LabelOption[];
  members: MemberOption[];
  teamLabels: LabelOption[];
  canCreateLabels: boolean;
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
      <TaskFields
        task={task}
        labels={labels}
        repeat={repeat}
        members={members}
        teamLabels={teamLabels}
        canCreateLabels={canCreateLabels}
        result={result}
        intent="update"
        team={team}
        attachTo={taskId}
        fields={fields}
      />
      <div className="form-actions">
        <SubmitButton className="button button-small" pendingText="Saving…">
          Save changes
        </SubmitButton>
        {cancel}
      </div>
    </ValidatedForm>
  );
}

/** Status and place: the plain-form way to move a task, to any of the project's statuses (§4). */
export function TaskMoveForm({
  task,
  statuses,
  result,
  action,
}: {
  task: EditableTask;
  /** the project's statuses, in the board's order */
  statuses: StatusRef[];
  result: unknown;
  action: string;
}) {
  const { errors, values } = formState(result, "move");
  const options = statuses.map((s) => ({
    value: s.id,
    label: s.id === task.status_id ? `${s.name} (now)` : s.name,
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
      <SelectField
        name="status"
        label="Status"
        options={options}
        value={values.status ?? task.status_id}
        error={errors.status}
      />
      <SubmitButton className="button button-small button-secondary">Move</SubmitButton>
      {/* the place is rarely wanted: folded, open when it was refused */}
      <details className="task-move-place" open={errors.position ? true : undefined}>
        <summary>Place in column</summary>
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
      </details>
    </ValidatedForm>
  );
}

/** "Repeats every week on Monday", and for members a "Stop repeating" button (its own small form). */
export function RepeatNote({
  words,
  result,
  action,
  canEdit,
}: {
  /** describeRule's words for the task's rule, null when it doesn't repeat */
  words: string | null;
  result: unknown;
  action: string;
  canEdit: boolean;
}) {
  if (!words) return null;
  return (
    <div className="repeat-note">
      <p>
        <span className="repeat-mark" aria-hidden="true">
          ↻
        </span>{" "}
        Repeats: {words}. Completing it makes the next one.
      </p>
      {canEdit ? (
        <ValidatedForm
          intent="stop-repeating"
          action={action}
          result={result}
          preventScrollReset
          aria-label="Stop repeating"
        >
          <SubmitButton className="button button-small button-secondary" pendingText="Stopping…">
            Stop repeating
          </SubmitButton>
        </ValidatedForm>
      ) : null}
    </div>
  );
}
