export const DEFAULT_REDIRECT = "/teams";

/**
 * A redirect target that came from the person (`?next=`, a form field) is
 * only followed when it is a path on this site. Anything that a browser could
 * read as another origin — `//evil`, `/\evil`, `https://…`, `javascript:`,
 * or the same tricks percent-encoded or hidden behind control characters —
 * falls back to the default.
 */
export function safeRedirect(
  to: FormDataEntryValue | string | null | undefined,
  fallback: string = DEFAULT_REDIRECT,
): string {
  if (typeof to !== "string") return fallback;
  const first = normalizedPath(to);
  if (first === null) return fallback;
  // The URL parser rewrites what it is given (`/.//evil` collapses to
  // `//evil`), so what it returns is checked again: only a path that comes
  // back unchanged is one every reader will take for ours.
  return normalizedPath(first) === first ? first : fallback;
}

/** `to` as the URL parser resolves it on our origin, or null when any reading of it could leave the site. */
function normalizedPath(to: string): string | null {
  if (to.length === 0 || to.length > 2048) return null;
  if (!to.startsWith("/")) return null;
  if (to.startsWith("//") || to.includes("\\")) return null;
  // Control characters and whitespace are stripped or mangled by browsers in surprising ways.
  if (hasControlOrSpace(to)) return null;

  let decoded = to;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) break;
    decoded = next;
  }
  if (decoded.startsWith("//") || decoded.includes("\\") || hasControl(decoded)) return null;
  if (!decoded.startsWith("/")) return null;

  // The last word: the URL parser must agree that it stays on our origin.
  const base = "http://teamboard.invalid";
  let url: URL;
  try {
    url = new URL(to, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  const result = url.pathname + url.search + url.hash;
  if (!result.startsWith("/") || result.startsWith("//") || result.includes("\\")) return null;
  return result;
}

function hasControl(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function hasControlOrSpace(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code <= 0x20 || code === 0x7f || /\s/.test(char)) return true;
  }
  return false;
}

/** `path + search` of a request, as used in `/login?next=`. */
export function pathWithSearch(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}
