/**
 * Offset paging for lists (`?page=N`): members, my teams, a team's projects.
 * Each page asks for one row more than it shows, which tells whether there
 * is a next page without counting.
 */

/** Members, my teams and a team's projects list this many per page (`?page=N`). */
export const MEMBERS_PAGE_SIZE = 50;
export const TEAMS_PAGE_SIZE = 50;
export const PROJECTS_PAGE_SIZE = 50;
/** The sidebar lists this many projects; the rest are a link away, on the projects page. */
export const SIDEBAR_PROJECTS = 50;
/** Offsets stay cheap: nobody pages past this, whatever the URL says. */
export const MAX_PAGE = 1000;

/** `?page=N` as a page number from 1; anything unreadable is page 1, anything huge the last allowed page. */
export function parsePage(params: URLSearchParams, name = "page"): number {
  const raw = params.get(name)?.trim() ?? "";
  if (!/^\d{1,9}$/.test(raw)) return 1;
  return Math.min(Math.max(Number(raw), 1), MAX_PAGE);
}

/**
 * The rows to ask the backend for, as `.range(from, to)` (inclusive): one page
 * and one row more, which tells "is there a next page" without counting.
 */
export function pageRange(page: number, size: number): { from: number; to: number } {
  const from = (page - 1) * size;
  return { from, to: from + size };
}

export interface Paging {
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** One page out of the `size + 1` rows `pageRange` asked for. */
export function pageOf<T>(rows: readonly T[], page: number, size: number): { items: T[]; paging: Paging } {
  return { items: rows.slice(0, size), paging: { page, hasPrevious: page > 1, hasNext: rows.length > size } };
}

/** The search string for another page, keeping every other parameter; page 1 is the bare URL. */
export function pageSearch(params: URLSearchParams, page: number, name = "page"): string {
  const next = new URLSearchParams(params);
  if (page <= 1) next.delete(name);
  else next.set(name, String(page));
  const text = next.toString();
  return text ? `?${text}` : "";
}
