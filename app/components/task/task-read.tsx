import { LabelChips, StatusBadge } from "~/components/labels";
import { RichText } from "~/components/rich-text";
import { PRIORITY_LABELS, type EditableTask, type LabelChip, type StatusRef } from "~/lib/board";
import { Day, DueDay } from "~/components/day";
import type { FieldDef } from "~/lib/fields";
import { CustomFieldsRead } from "./custom-fields";

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
}: {
  task: EditableTask & { fields?: unknown; due_at?: string | null };
  status: StatusRef;
  labels: LabelChip[];
  /** every assignee's name, first added first */
  assigneeNames: string[];
  descriptionHtml: string;
  fields?: FieldDef[];
  members?: { id: string; name: string }[];
}) {
  return (
    <>
      <dl className="task-facts">
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={status} />
          </dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd>{PRIORITY_LABELS[task.priority]}</dd>
        </div>
        <div>
          <dt>{assigneeNames.length > 1 ? "Assignees" : "Assignee"}</dt>
          <dd>{assigneeNames.length ? assigneeNames.join(", ") : "Unassigned"}</dd>
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
          <dd>{task.due_on ? <DueDay day={task.due_on} at={task.due_at} /> : "No due date"}</dd>
        </div>
        <div>
          <dt>Labels</dt>
          <dd>{labels.length ? <LabelChips labels={labels} /> : "None"}</dd>
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
