import { LabelChips, StatusBadge } from "~/components/labels";
import { RichText } from "~/components/rich-text";
import { PRIORITY_LABELS, type EditableTask, type LabelChip, type StatusRef } from "~/lib/board";
import { Day, DueDay } from "~/components/day";
import type { FieldDef } from "~/lib/fields";
import type { RepeatFields } from "~/lib/recurrence";
import type { ReactNode } from "react";
import { CustomFieldsRead } from "./custom-fields";
import { AssigneesInPlace, DueInPlace, LabelsInPlace, PriorityInPlace } from "./in-place";

/** For members: each fact edited in place (issue 42 §15), the status by its own form. */
export interface InPlaceEditing {
  result: unknown;
  /** the task's URL with the page's search */
  action: string;
  repeat: RepeatFields;
  teamLabels: ReadonlyArray<{ id: string; name: string; color: string }>;
  canCreateLabels: boolean;
  /** the status and place form */
  status: ReactNode;
}

/**
 * The task to read: its fields as text and its description rendered
 * (Markdown, on the server). Everyone sees this; members open the form with
 * "Edit" (the panel), viewers never see a control they can't use.
 */
export function TaskReadView({
  task,
  status,
  labels,
  assigneeNames,
  descriptionHtml,
  fields = [],
  members = [],
  edit,
}: {
  task: EditableTask & { fields?: unknown; due_at?: string | null };
  status: StatusRef;
  labels: LabelChip[];
  /** every assignee's name, first added first */
  assigneeNames: string[];
  descriptionHtml: string;
  fields?: FieldDef[];
  members?: { id: string; name: string }[];
  edit?: InPlaceEditing;
}) {
  const assignees = assigneeNames.length ? assigneeNames.join(", ") : "Unassigned";
  const due = task.due_on ? <DueDay day={task.due_on} at={task.due_at} /> : "No due date";
  const labelChips = labels.length ? <LabelChips labels={labels} /> : "None";
  const chosenAssignees = (task as { assignee_ids?: string[] }).assignee_ids ?? [];
  return (
    <>
      <dl className="task-facts">
        <div>
          <dt>Status</dt>
          <dd>{edit ? edit.status : <StatusBadge status={status} />}</dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd>
            {edit ? (
              <PriorityInPlace task={task} result={edit.result} action={edit.action} />
            ) : (
              PRIORITY_LABELS[task.priority]
            )}
          </dd>
        </div>
        <div>
          <dt>{assigneeNames.length > 1 ? "Assignees" : "Assignee"}</dt>
          <dd>
            {edit ? (
              <AssigneesInPlace
                chosen={chosenAssignees}
                members={members}
                shown={assignees}
                result={edit.result}
                action={edit.action}
              />
            ) : (
              assignees
            )}
          </dd>
        </div>
        {task.start_on ? (
          <div>
            <dt>Starts</dt>
            <dd>
              <Day day={task.start_on} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Due</dt>
          <dd>
            {edit ? (
              <DueInPlace task={task} repeat={edit.repeat} shown={due} result={edit.result} action={edit.action} />
            ) : (
              due
            )}
          </dd>
        </div>
        <div>
          <dt>Labels</dt>
          <dd>
            {edit ? (
              <LabelsInPlace
                chosen={labels.map((l) => l.name)}
                teamLabels={edit.teamLabels}
                canCreate={edit.canCreateLabels}
                shown={labelChips}
                result={edit.result}
                action={edit.action}
              />
            ) : (
              labelChips
            )}
          </dd>
        </div>
        <CustomFieldsRead fields={fields} saved={(task.fields ?? {}) as Record<string, unknown>} members={members} />
      </dl>
      <section className="task-description" aria-label="Description">
        {task.description ? (
          <RichText html={descriptionHtml} className="task-description-text" />
        ) : (
          <p className="muted">No description.</p>
        )}
      </section>
    </>
  );
}
