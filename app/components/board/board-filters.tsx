import { Form, Link } from "@remix-run/react";
import { Fold, FoldLabel } from "~/components/fold";
import { hasFilters, type BoardFilters as Filters } from "~/lib/board";

/**
 * The board's filter form: a plain GET, so the filters live in the URL. On a
 * narrow screen it folds behind a "Filters" button (a Fold: a <details>, so
 * it opens without JavaScript) that says how many filters are on.
 */
export function BoardFilters({
  filters,
  members,
  labels,
  userId,
  basePath,
  formKey,
  keep = {},
}: {
  filters: Filters;
  members: Array<{ id: string; name: string }>;
  /** the team's labels, offered as the label filter's suggestions */
  labels: Array<{ id: string; name: string }>;
  userId: string;
  basePath: string;
  /** re-mounts the form when the URL changes, so its fields show the URL's filters */
  formKey: string;
  /** other parameters of the view the filters keep (the list's sort and grouping), and "Clear filters" too */
  keep?: Record<string, string>;
}) {
  const kept = new URLSearchParams(keep).toString();
  const active = [filters.assignee, filters.q, filters.label].filter((value) => value !== null).length;
  return (
    <Fold className="filters-fold" summary={<FoldLabel title="Filters" place={active > 0 ? `${active} on` : null} />}>
      <Form method="get" className="board-filters" aria-label="Filter tasks" key={formKey}>
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="field">
          <label htmlFor="filter-assignee">Assignee</label>
          <select
            id="filter-assignee"
            name="assignee"
            defaultValue={filters.assignee === userId ? "me" : (filters.assignee ?? "")}
          >
            <option value="">Anyone</option>
            <option value="me">Me</option>
            <option value="none">Unassigned</option>
            {members
              .filter((m) => m.id !== userId)
              .map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-q">Text</label>
          <input id="filter-q" name="q" type="search" defaultValue={filters.q ?? ""} maxLength={200} />
        </div>
        <div className="field">
          <label htmlFor="filter-label">Label</label>
          <input
            id="filter-label"
            name="label"
            type="text"
            list="filter-label-names"
            defaultValue={filters.label ?? ""}
            maxLength={24}
            autoComplete="off"
          />
          <datalist id="filter-label-names">
            {labels.map((label) => (
              <option key={label.id} value={label.name} />
            ))}
          </datalist>
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-small">
            Filter
          </button>
          {hasFilters(filters) ? (
            <Link to={kept ? `${basePath}?${kept}` : basePath} className="small">
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>
    </Fold>
  );
}
