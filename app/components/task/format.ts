/** Dates as the server and the browser both print them (a fixed zone, so hydration matches). */
export function formatDateTime(iso: string): string {
  return `${new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
}
