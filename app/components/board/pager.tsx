import { Link, useLocation } from "@remix-run/react";
import { pageSearch, type Paging } from "~/lib/paging";

/**
 * "Previous / Page N / Next" under a paged list: plain links carrying `?page=`
 * (every other parameter kept), so they work without JavaScript and survive
 * reloads; with JavaScript they navigate inside the layout.
 */
export function Pager({
  page,
  hasPrevious,
  hasNext,
  label,
  name = "page",
}: Paging & { label: string; /** the page's parameter, when a page has more than one list */ name?: string }) {
  const params = new URLSearchParams(useLocation().search);
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="pager" aria-label={label}>
      {hasPrevious ? (
        <Link to={pageSearch(params, page - 1, name)} rel="prev">
          ← Previous page
        </Link>
      ) : (
        <span />
      )}
      <span className="muted small">Page {page}</span>
      {hasNext ? (
        <Link to={pageSearch(params, page + 1, name)} rel="next">
          Next page →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
