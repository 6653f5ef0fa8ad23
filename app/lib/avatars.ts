/**
 * Avatars (PRODUCT §3, §5): files in the public `avatars` bucket under the
 * person's own folder; shown through the bucket's public URL, or the
 * person's initials when there is none. Shared by the server and the browser.
 */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};
export const AVATAR_TYPE_MESSAGE = "Avatars must be PNG, JPEG, WebP or GIF.";
export const AVATAR_SIZE_MESSAGE = "The avatar is larger than 2 MB.";

export function avatarUrl(supabaseUrl: string, path: string | null | undefined): string | null {
  if (!path) return null;
  return `${supabaseUrl.replace(/\/$/, "")}/storage/v1/object/public/avatars/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** One or two letters of a name (or email) for the avatar's fallback. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? "")
    .replace(/@.*$/, "")
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters = words.length > 1 ? words[0][0] + words[words.length - 1][0] : (words[0] ?? "?").slice(0, 2);
  return letters.toUpperCase();
}

/** The message for a chosen avatar file, or null when it will do. */
export function avatarProblem(file: { size: number; type: string }): string | null {
  if (!AVATAR_TYPES[file.type]) return AVATAR_TYPE_MESSAGE;
  if (file.size > AVATAR_MAX_BYTES) return AVATAR_SIZE_MESSAGE;
  return null;
}
