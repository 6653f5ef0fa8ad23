/** Invitation helpers shared by the server and the browser. */

/** "23 Nov 2026", as the app shows dates (UTC, so server and browser agree). */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium", timeZone: "UTC" });
}
