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

/** The image types shown as pictures (docs/product.md §14); other files are listed by name. */
export const PREVIEWABLE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

export function isPreviewableImage(contentType: string): boolean {
  return PREVIEWABLE_IMAGE_TYPES.includes(contentType.toLowerCase().split(";")[0].trim());
}

/**
 * An attachment's own address in the app: it answers with a fresh signed URL
 * (a redirect), so a link or an image in a text never expires. `size`: the
 * picture made by Storage's image transformation instead of the file.
 */
export function attachmentPath(id: string): string {
  return `/attachments/${id}`;
}

/** Picture sizes (Storage transformations): thumbnails in the list, pictures inside a text. */
export const ATTACHMENT_IMAGE_SIZES = {
  thumb: { width: 96, height: 96, resize: "cover" },
  inline: { width: 800, height: 600, resize: "contain" },
} as const;
export type AttachmentImageSize = keyof typeof ATTACHMENT_IMAGE_SIZES;

export function attachmentImageSrc(id: string, size: AttachmentImageSize): string {
  return `${attachmentPath(id)}?size=${size}`;
}

/** The Markdown that shows an attached picture in a text. */
export function attachmentMarkdown(id: string, fileName: string): string {
  const alt = fileName.replace(/[[\]\\]/g, "").slice(0, 100) || "image";
  return `![${alt}](${attachmentPath(id)})`;
}
