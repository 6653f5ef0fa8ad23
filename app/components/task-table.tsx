import { Link, useLocation } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import { LabelChips, StatusBadge } from "~/components/labels";
import { isClosed, PRIORITY_LABELS } from "~/lib/board";
import { isOverdue } from "~/lib/calendar";
import { formatDate, formatDateTime, type ZoneTable } from "~/lib/dates";
import { usePageTime } from "~/lib/use-page-time";
import { Day } from "~/components/day";
import { fieldWords, type FieldDef } from "~/lib/fields";
import { fieldGroupTitle, fieldOfKey, sumWords } from "~/lib/list-fields";
import {
  fieldKey,
  isFieldKey,
  SORT_KEYS,
  SORT_LABELS,
  ariaSort,
  groupTitle,
  sortSearch,
  type FieldKey,
  type GroupKey,
  type Sort,
  type SortKey,
  type TaskRow,
} from "~/lib/list";

/**
 * Tasks as a table (docs/product.md §13): the list view's and My work's. A
 * real <table>: column headers whose links sort (the current one says so
 * with aria-sort), a <tbody> per group headed by a row header, a sticky
 * header on wide screens and, on phones, each row stacked as a small card
 * (app.css's .task-table). With `selection`, a first column of checkboxes
 * that belong to the bulk edit form (by its id, so the table needn't sit
 * inside it). `hide` leaves columns out (My work's own lists: the assignee
 * is always me). The key and the title both open the task; an open task past
 * its due date says "Overdue" (docs/product.md §12). The list's `fields` are
 * columns after the others (each sorts); `allFields` names a field group's
 * heading and its sums ("Points: 12", over the whole group, not one page).
 */
export function TaskTable({
  rows,
  sort,
  group = null,
  names,
  caption,
  taskHref,
  sortParam = "sort",
  pageParam = "page",
  showProject = false,
  selection,
  hide = [],
  fields = [],
  allFields = [],
}: {
  rows: readonly TaskRow[];
  sort: Sort;
  group?: GroupKey | FieldKey | null;
  /** member names by id */
  names: Record<string, string>;
  caption: ReactNode;
  taskHref: (row: TaskRow) => string;
  sortParam?: string;
  pageParam?: string;
  /** My work: which team each task is in */
  showProject?: boolean;
  selection?: { form: string; selected: ReadonlySet<string> };
  hide?: readonly SortKey[];
  /** the fields shown as columns */
  fields?: readonly FieldDef[];
  /** every field of the project (a field group's heading, the sums) */
  allFields?: readonly FieldDef[];
}) {
  const params = new URLSearchParams(useLocation().search);
  // a field that is gone (removed since the link was made) groups nothing, as the database does
  if (group && isFieldKey(group) && !fieldOfKey(allFields, group)) group = null;
  const groups = group ? groupRows(rows) : [{ value: null, rows }];
  const shown = SORT_KEYS.filter((key) => !hide.includes(key));
  const columns = shown.length + fields.length + (selection ? 1 : 0);
  const groupField = fieldOfKey(allFields, group);
  const title = (value: string | null, first: TaskRow | undefined) =>
    groupField ? fieldGroupTitle(groupField, value, names) : groupTitle(group as GroupKey, value, names, first);
  return (
    <table className="task-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {selection ? (
            <th scope="col" className="task-table-select">
              <span className="visually-hidden">Selected</span>
            </th>
          ) : null}
          {shown.map((key) => (
            <th key={key} scope="col" className={`task-table-${key}`} aria-sort={ariaSort(key, sort)}>
              <Link to={sortSearch(params, key, sort, sortParam, pageParam)} preventScrollReset>
                {SORT_LABELS[key]}
                <SortMark sortKey={key} sort={sort} />
              </Link>
            </th>
          ))}
          {fields.map((field) => (
            <th key={field.id} scope="col" className="task-table-field" aria-sort={ariaSort(fieldKey(field.id), sort)}>
              <Link to={sortSearch(params, fieldKey(field.id), sort, sortParam, pageParam)} preventScrollReset>
                {field.name}
                <SortMark sortKey={fieldKey(field.id)} sort={sort} />
              </Link>
            </th>
          ))}
        </tr>
      </thead>
      {groups.map((part, index) => (
        <tbody key={`${part.value ?? ""}-${index}`}>
          {group ? (
            <tr className="task-table-group">
              <th scope="rowgroup" colSpan={columns}>
                {title(part.value, part.rows[0])}
                {sumWords(allFields, part.rows[0]?.sums).map((words) => (
                  <span key={words} className="task-table-sum muted small">
                    {" "}
                    · {words}
                  </span>
                ))}
              </th>
            </tr>
          ) : null}
          {part.rows.map((row, rowIndex) => (
            <Fragment key={`${row.id}-${rowIndex}`}>
              <Row
                row={row}
                names={names}
                href={taskHref(row)}
                showProject={showProject}
                selection={selection}
                shown={shown}
                fields={fields}
              />
            </Fragment>
          ))}
        </tbody>
      ))}
    </table>
  );
}

function SortMark({ sortKey, sort }: { sortKey: SortKey | FieldKey; sort: Sort }) {
  if (sortKey !== sort.key) return null;
  return <span aria-hidden="true">{sort.descending ? " ↓" : " ↑"}</span>;
}

function Row({
  row,
  names,
  href,
  showProject,
  selection,
  shown,
  fields,
}: {
  row: TaskRow;
  names: Record<string, string>;
  href: string;
  showProject: boolean;
  selection?: { form: string; selected: ReadonlySet<string> };
  shown: readonly SortKey[];
  fields: readonly FieldDef[];
}) {
  const ref = `${row.project_key}-${row.number}`;
  const { zone, today } = usePageTime();
  const overdue = isOverdue({ due_on: row.due_on, open: !isClosed(row.status.category) }, today);
  const cells: Record<SortKey, ReactNode> = {
    key: (
      <td data-label="Key" className="task-table-key">
        <Link to={href} data-nav-item>
          {ref}
        </Link>
        {showProject ? <span className="muted small task-table-team"> · {row.team_name}</span> : null}
      </td>
    ),
    title: (
      <td data-label="Title" className="task-table-title">
        <Link to={href} tabIndex={-1}>
          {row.title}
        </Link>
      </td>
    ),
    status: (
      <td data-label="Status">
        <StatusBadge status={row.status} />
      </td>
    ),
    priority: <td data-label="Priority">{row.priority === "none" ? "—" : PRIORITY_LABELS[row.priority]}</td>,
    assignee: <td data-label="Assignee">{assigneeWords(row, names)}</td>,
    due: (
      <td data-label="Due" className="task-table-due">
        {row.due_on ? <Day day={row.due_on} /> : "—"}
        {overdue ? <span className="overdue-badge">Overdue</span> : null}
      </td>
    ),
    labels: <td data-label="Labels">{row.labels.length > 0 ? <LabelChips labels={row.labels} /> : "—"}</td>,
    updated: (
      <td data-label="Last change" className="task-table-updated">
        <LastChange iso={row.updated_at} zone={zone} />
      </td>
    ),
  };
  return (
    <tr>
      {selection ? (
        <td className="task-table-select">
          <input
            type="checkbox"
            name="ids"
            value={row.id}
            form={selection.form}
            defaultChecked={selection.selected.has(row.id)}
            aria-label={`Select ${ref}`}
          />
        </td>
      ) : null}
      {shown.map((key) => (
        <Fragment key={key}>{cells[key]}</Fragment>
      ))}
      {fields.map((field) => (
        <td key={field.id} data-label={field.name} className="task-table-field">
          {fieldWords(field, row.fields?.[field.id], (id) => names[id]) ?? "—"}
        </td>
      ))}
    </tr>
  );
}

/**
 * "7 Dec 2026, 20:04 UTC" in two pieces that may stand on two lines (the
 * date, then the time): one line of it made the table wider than a laptop's
 * screen beside the sidebar.
 */
function LastChange({ iso, zone }: { iso: string; zone: ZoneTable }) {
  const full = formatDateTime(iso, zone);
  const date = formatDate(iso, zone);
  return (
    <time dateTime={iso} className="wrapping-time">
      <span>{date},</span> <span>{full.slice(date.length + 2)}</span>
    </time>
  );
}

/** Every assignee's name, in the order added ("Mia Member, Sam Admin"), or "—". */
function assigneeWords(row: TaskRow, names: Record<string, string>): string {
  const ids = row.assignee_ids ?? (row.assignee_id ? [row.assignee_id] : []);
  return ids.length ? ids.map((id) => names[id] ?? "Former member").join(", ") : "—";
}

/** Consecutive rows of one group (the database sends them in group order). */
function groupRows(rows: readonly TaskRow[]): Array<{ value: string | null; rows: TaskRow[] }> {
  const groups: Array<{ value: string | null; rows: TaskRow[] }> = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last.value === row.group) last.rows.push(row);
    else groups.push({ value: row.group, rows: [row] });
  }
  return groups;
}
