import { Link, useFetcher, useLocation } from "@remix-run/react";
import { viewHref, viewKindAt, viewQuery, type SavedView } from "~/lib/views";

/**
 * The saved views beside a project's tabs (docs/product.md §13): a link
 * each (the one matching this page marked current), "Save view" (a name,
 * and for admins+ whether the team shares it) and a way to the page that
 * renames and deletes them. The save form posts to …/views: with JavaScript
 * in place (its answer shows here), without it as a plain post (the views
 * page shows a refusal).
 */
export function SavedViews({
  basePath,
  views,
  canShare,
}: {
  basePath: string;
  views: readonly SavedView[];
  canShare: boolean;
}) {
  const location = useLocation();
  const kind = viewKindAt(location.pathname, basePath);
  const query = viewQuery(new URLSearchParams(location.search));
  const fetcher = useFetcher<{ errors?: Record<string, string> }>({ key: "save-view" });
  // a refused save's reason (with JavaScript; without it the views page answers)
  const refused = fetcher.state === "idle" ? (fetcher.data?.errors?.name ?? fetcher.data?.errors?.form) : undefined;
  return (
    <div className="saved-views">
      {views.length > 0 ? (
        <nav aria-label="Saved views">
          <ul>
            {views.map((view) => (
              <li key={view.id}>
                <Link
                  to={viewHref(basePath, view)}
                  aria-current={view.kind === kind && view.query === query ? "page" : undefined}
                >
                  {view.name}
                  {view.shared ? <span className="saved-view-shared"> (shared)</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <details className="save-view">
        <summary>Save view</summary>
        {/* a plain form (the browser checks the name's length): the board and the list don't load the form kit for it */}
        <fetcher.Form method="post" action={`${basePath}/views`} className="save-view-form">
          <input type="hidden" name="intent" value="save" />
          <input type="hidden" name="kind" value={kind} />
          <input type="hidden" name="query" value={query} />
          <div className="field">
            <label htmlFor="save-view-name">Name</label>
            <p className="hint" id="save-view-hint">
              1–40 characters.
            </p>
            <input
              id="save-view-name"
              name="name"
              required
              maxLength={40}
              aria-invalid={refused ? true : undefined}
              aria-describedby={refused ? "save-view-hint save-view-error" : "save-view-hint"}
            />
            {refused ? (
              <p className="field-error" id="save-view-error">
                {refused}
              </p>
            ) : null}
          </div>
          {canShare ? (
            <label className="checkbox-field">
              <input type="checkbox" name="shared" /> Share with the team
            </label>
          ) : null}
          <button type="submit" className="button button-small">
            Save view
          </button>
        </fetcher.Form>
      </details>
      {views.length > 0 ? (
        <Link to={`${basePath}/views`} className="manage-views">
          Manage views
        </Link>
      ) : null}
    </div>
  );
}
