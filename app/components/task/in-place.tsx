import type { ReactNode } from "react";
import { Field, SelectField, SubmitButton, ValidatedForm, formState, isFormFailure } from "~/components/form";
import { PRIORITIES, PRIORITY_LABELS, type EditableTask } from "~/lib/board";
import type { RepeatFields } from "~/lib/recurrence";
import { AssigneesField } from "./custom-fields";
import { LabelPicker } from "./label-picker";

/**
 * The task panel's fields edited in place (issue 42 §15): the value is what
 * the panel shows; one click on it opens a small form under it, one post per
 * change to the task's route (`set-title`, `set-priority`, …; save_task with
 * that field alone), with or without JavaScript. The value is a <summary>,
 * so it opens without JavaScript too. A refused change comes back open,
 * with its message and what was chosen. After a save the panel's data is
 * new and the parent keys these afresh, so they close.
 */
export function InPlace({
  what,
  shown,
  intent,
  result,
  action,
  children,
  className,
}: {
  /** "priority": the form's name ("Change the priority") */
  what: string;
  /** the value as the panel shows it */
  shown: ReactNode;
  intent: string;
  result: unknown;
  action: string;
  children: ReactNode;
  className?: string;
}) {
  const refused = isFormFailure(result) && result.intent === intent;
  return (
    <details className={className ? `in-place ${className}` : "in-place"} open={refused || undefined}>
      <summary>
        {shown}
        <span className="visually-hidden">, change the {what}</span>
      </summary>
      <ValidatedForm
        intent={intent}
        action={action}
        result={result}
        preventScrollReset
        className="in-place-form"
        aria-label={`Change the ${what}`}
      >
        {children}
        <SubmitButton className="button button-small" pendingText="Saving…">
          Save
        </SubmitButton>
      </ValidatedForm>
    </details>
  );
}

const PRIORITY_OPTIONS = PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));

export function PriorityInPlace({ task, result, action }: { task: EditableTask; result: unknown; action: string }) {
  const { values, errors } = formState(result, "set-priority");
  return (
    <InPlace
      what="priority"
      shown={PRIORITY_LABELS[task.priority]}
      intent="set-priority"
      result={result}
      action={action}
    >
      <SelectField
        name="priority"
        label="Priority"
        options={PRIORITY_OPTIONS}
        value={values.priority ?? task.priority}
        error={errors.priority}
      />
    </InPlace>
  );
}

/** The due date; the task's repeat rule goes with it (hidden), so the server makes the rule again from the new date. */
export function DueInPlace({
  task,
  repeat,
  shown,
  result,
  action,
}: {
  task: EditableTask;
  repeat: RepeatFields;
  shown: ReactNode;
  result: unknown;
  action: string;
}) {
  const { values, errors } = formState(result, "set-due");
  return (
    <InPlace what="due date" shown={shown} intent="set-due" result={result} action={action}>
      <input type="hidden" name="repeat" value={repeat.repeat} />
      <input type="hidden" name="every" value={String(repeat.every)} />
      <input type="hidden" name="monthly" value={repeat.monthly} />
      {repeat.days.map((day) => (
        <input key={day} type="hidden" name={`day_${day}`} value="on" />
      ))}
      <Field
        name="dueOn"
        label="Due date"
        type="date"
        min="2000-01-01"
        max="2100-12-31"
        hint={repeat.repeat === "never" ? "Empty: no due date." : "A repeating task keeps a due date."}
        value={values.dueOn ?? task.due_on ?? ""}
        error={errors.dueOn}
      />
    </InPlace>
  );
}

export function AssigneesInPlace({
  chosen,
  members,
  shown,
  result,
  action,
}: {
  chosen: string[];
  members: { id: string; name: string }[];
  shown: ReactNode;
  result: unknown;
  action: string;
}) {
  const { values, errors } = formState(result, "set-assignees");
  return (
    <InPlace what="assignees" shown={shown} intent="set-assignees" result={result} action={action}>
      <AssigneesField members={members} chosen={chosen} values={values} errors={errors} />
    </InPlace>
  );
}

export function LabelsInPlace({
  chosen,
  teamLabels,
  canCreate,
  shown,
  result,
  action,
}: {
  chosen: string[];
  teamLabels: ReadonlyArray<{ id: string; name: string; color: string }>;
  canCreate: boolean;
  shown: ReactNode;
  result: unknown;
  action: string;
}) {
  const { values, errors } = formState(result, "set-labels");
  return (
    <InPlace
      what="labels"
      shown={shown}
      intent="set-labels"
      result={result}
      action={action}
      className="labels-in-place"
    >
      <LabelPicker teamLabels={teamLabels} chosen={chosen} values={values} errors={errors} canCreate={canCreate} />
    </InPlace>
  );
}

/** The title, the panel's heading: a click on it opens the field. */
export function TitleInPlace({
  task,
  heading,
  result,
  action,
}: {
  task: EditableTask;
  heading: ReactNode;
  result: unknown;
  action: string;
}) {
  const { values, errors } = formState(result, "set-title");
  return (
    <InPlace what="title" shown={heading} intent="set-title" result={result} action={action} className="title-in-place">
      <Field name="title" label="Title" maxLength={200} value={values.title ?? task.title} error={errors.title} />
    </InPlace>
  );
}
