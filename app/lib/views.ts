/**
 * A project's views (docs/product.md §13): Board, List and Calendar, and
 * the saved views that reopen one of them with its filters, sort and
 * grouping. Shared by the server and the browser.
 */
export const VIEW_KINDS = ["board", "list", "calendar"] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

/** Where each kind lives under the project's path (…/projects/WEB, …/projects/WEB/list). */
export const VIEW_PATHS: Record<ViewKind, string> = { board: "", list: "/list", calendar: "/calendar" };

export const VIEW_KIND_LABELS: Record<ViewKind, string> = { board: "Board", list: "List", calendar: "Calendar" };

/**
 * What a saved view keeps of a page's URL, in this order: the filters, then the list's sort and grouping,
 * its field columns, then its filters by a field's value (`f.<field id>`, in the URL's order).
 */
const VIEW_PARAMS = ["assignee", "q", "label", "sort", "group"] as const;

/** docs/product.md §13: at most 20 views per person per project (the database says so too). */
export const MAX_SAVED_VIEWS = 20;

export function isViewKind(value: unknown): value is ViewKind {
  return typeof value === "string" && (VIEW_KINDS as readonly string[]).includes(value);
}

/** The part of a search string a saved view keeps (no paging, no open task), always in the same order. */
export function viewQuery(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of VIEW_PARAMS) {
    const value = params.get(name)?.trim();
    if (value) kept.set(name, value.slice(0, 200));
  }
  // the field columns ticked (`columns` present but empty: none, not the default ones on cards)
  if (params.has("columns")) {
    const ids = params
      .getAll("columns")
      .join(",")
      .split(",")
      .map((id) => id.trim());
    kept.set("columns", ids.filter(Boolean).join(",").slice(0, 400));
  }
  for (const [name, value] of params) {
    if (/^f\.[0-9a-f-]{36}$/i.test(name) && value.trim() && !kept.has(name)) kept.set(name, value.trim().slice(0, 200));
  }
  return kept.toString();
}

/** The kind of view a path under `basePath` shows (the board for its own task and new-task paths). */
export function viewKindAt(pathname: string, basePath: string): ViewKind {
  for (const kind of ["list", "calendar"] as const) {
    const path = `${basePath}${VIEW_PATHS[kind]}`;
    if (pathname === path || pathname.startsWith(`${path}/`)) return kind;
  }
  return "board";
}

export function viewHref(basePath: string, view: { kind: ViewKind; query: string }): string {
  return `${basePath}${VIEW_PATHS[view.kind]}${view.query ? `?${view.query}` : ""}`;
}

export interface SavedView {
  id: string;
  name: string;
  kind: ViewKind;
  /** the search string it opens with (viewQuery's form) */
  query: string;
  shared: boolean;
  /** the person's own (rename and delete, unless shared and they're no longer admin+) */
  mine: boolean;
}
