/**
 * Paging a task's timeline (its comments and events, docs/product.md §10), shared
 * by the loader and the panel. The panel shows the latest 50; "Show earlier"
 * moves a cursor back through it (`?timeline.before=<created_at>_<id>`), so
 * every item is reachable, each view reads one page, and pages don't shift
 * when someone posts meanwhile.
 */
export const TIMELINE_PAGE_SIZE = 50;
export const TIMELINE_CURSOR_PARAM = "timeline.before";

/** The id of a comment's element in the timeline, so a URL can land at it (`#comment-<id>`). */
export function commentAnchor(commentId: string): string {
  return `comment-${commentId}`;
}

export interface TimelineCursor {
  createdAt: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** The cursor that starts the page before the one whose oldest item is `oldest`. */
export function encodeTimelineCursor(oldest: { created_at: string; id: string }): string {
  return `${oldest.created_at}_${oldest.id}`;
}

/** `?timeline.before=…` (or another list's `name`), or null for the latest page (a malformed cursor also means the latest page). */
export function parseTimelineCursor(params: URLSearchParams, name = TIMELINE_CURSOR_PARAM): TimelineCursor | null {
  const raw = params.get(name)?.trim() ?? "";
  const cut = raw.lastIndexOf("_");
  if (cut < 0) return null;
  const createdAt = raw.slice(0, cut);
  const id = raw.slice(cut + 1);
  if (!TIMESTAMP.test(createdAt) || !UUID.test(id) || Number.isNaN(Date.parse(createdAt.replace(" ", "T"))))
    return null;
  return { createdAt, id: id.toLowerCase() };
}

/** The search string for the page before `oldest` (or the latest page), keeping every other parameter. */
export function timelineSearch(params: URLSearchParams, oldest: { created_at: string; id: string } | null): string {
  const next = new URLSearchParams(params);
  if (oldest) next.set(TIMELINE_CURSOR_PARAM, encodeTimelineCursor(oldest));
  else next.delete(TIMELINE_CURSOR_PARAM);
  const text = next.toString();
  return text ? `?${text}` : "";
}

/**
 * Comment writes post to the task's own `/comments` route, so a layout can
 * tell them apart by the form's action alone (the board skips reloading its
 * columns for them).
 */
export const COMMENTS_SEGMENT = "comments";

export function commentsActionPath(taskPath: string): string {
  return `${taskPath.replace(/\/+$/, "")}/${COMMENTS_SEGMENT}`;
}

export function isCommentsAction(formAction: string): boolean {
  return new URL(formAction, "http://app.invalid").pathname.replace(/\/+$/, "").endsWith(`/${COMMENTS_SEGMENT}`);
}
