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

/** The sizes avatars are made in by Storage's image transformation (docs/product.md §14). */
export const AVATAR_PIXELS = [32, 64, 128] as const;

/** The smallest made size that fills `px` CSS pixels at this density. */
export function avatarPixels(px: number, density = 1): number {
  return AVATAR_PIXELS.find((p) => p >= px * density) ?? AVATAR_PIXELS[AVATAR_PIXELS.length - 1];
}

/**
 * An avatar `px` pixels square through the bucket's public render URL (what
 * supabase-js's `getPublicUrl(path, { transform })` builds), never the
 * uploaded file itself.
 */
export function avatarUrl(supabaseUrl: string, path: string | null | undefined, px = 64): string | null {
  if (!path) return null;
  const key = path.split("/").map(encodeURIComponent).join("/");
  return `${supabaseUrl.replace(/\/$/, "")}/storage/v1/render/image/public/avatars/${key}?width=${px}&height=${px}&resize=cover`;
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
