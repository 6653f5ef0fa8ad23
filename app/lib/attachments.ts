/** Task attachments (PRODUCT §3, §5): limits and wording shared by the server and the browser. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENTS_PER_TASK = 20;
/** signed download URLs are made per page view and live this long */
export const SIGNED_URL_SECONDS = 60;

export const tooLargeMessage = (name: string) => `${name} is larger than 10 MB.`;
export const TOO_MANY_MESSAGE = "A task can have at most 20 attachments.";

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A file name safe as part of an object key (Storage takes S3-safe ASCII only); the real name stays in the row. */
export function safeObjectName(name: string): string {
  const cleaned = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  return (cleaned || "file").slice(-80);
}
