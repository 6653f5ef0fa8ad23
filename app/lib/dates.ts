/**
 * Dates as the app prints them, in UTC so that the server's HTML and the
 * browser's hydration agree: "5 Sept 2026" and "5 Sept 2026, 09:05 UTC"
 * (British English, medium date, 24-hour time). Written out rather than
 * through Intl: the browser's first Intl.DateTimeFormat loads ICU's locale
 * and time-zone data, ~10 ms of main thread on a desktop and ~40 ms on a
 * phone-speed CPU (4x slowdown), all of it inside hydration on every task
 * page (docs/decisions/0021-browser-weight.md). It also cannot come out
 * differently in Node's ICU and the browser's.
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"];

const twoDigits = (n: number) => String(n).padStart(2, "0");

/** "23 Nov 2026" */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** "23 Nov 2026, 17:51 UTC" */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return `${formatDate(iso)}, ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`;
}

/**
 * "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the date:
 * how long before `now` (the loader's clock, so the server's HTML and the
 * browser's hydration print the same).
 */
export function formatAgo(iso: string, now: string): string {
  const seconds = Math.max(0, (Date.parse(now) - Date.parse(iso)) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  if (days === 1) return "yesterday";
  if (days < 7) return `${days} days ago`;
  return formatDate(iso);
}
