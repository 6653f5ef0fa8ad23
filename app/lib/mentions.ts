/**
 * @mentions in comments and descriptions (docs/product.md §10). The database
 * decides who was mentioned (public.mention_candidates and
 * mentioned_members, in migration 20261126000400) and notifies them;
 * mentionCandidates() reads text the same way (tests hold the two together):
 * an `@username` not inside code (``` fenced blocks, `inline` spans), not
 * part of a word or an address, among the first 50 different names of the
 * text. Pages show mentions as the person's name through the Markdown
 * renderer (markdown.server.ts), which also leaves link text alone.
 */
export const MENTIONS_PER_TEXT = 50;

export interface Mentionable {
  id: string;
  username: string;
  name: string;
}

const FENCED = /```[\s\S]*?(```|$)/g;
const INLINE = /`[^`]*`/g;
const MENTION = /(^|[^A-Za-z0-9_@.`])@([A-Za-z0-9_]{3,30})(?![A-Za-z0-9_])/g;

/** The text with its code (fenced blocks, then inline spans) blanked out, same length. */
function withoutCode(text: string): string {
  const blank = (code: string) => " ".repeat(code.length);
  return text.replace(FENCED, blank).replace(INLINE, blank);
}

/** The names a text mentions, lowercased, in order, at most 50 (what mention_candidates() gives). */
export function mentionCandidates(text: string): string[] {
  return mentionMatches(text).names;
}

function mentionMatches(text: string) {
  const names: string[] = [];
  const matches: Array<{ at: number; end: number; name: string }> = [];
  for (const m of withoutCode(text).matchAll(MENTION)) {
    const at = m.index + m[1].length;
    const name = m[2].toLowerCase();
    if (!names.includes(name)) {
      if (names.length >= MENTIONS_PER_TEXT) continue;
      names.push(name);
    }
    matches.push({ at, end: at + 1 + m[2].length, name });
  }
  return { names, matches };
}

/**
 * The mention being typed at `caret`: the `@` and the letters after it, when
 * the `@` starts a word (what the combobox completes). Null otherwise.
 */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|[^A-Za-z0-9_@.`])@([A-Za-z0-9_]{0,30})$/.exec(before);
  if (!m) return null;
  return { start: caret - m[2].length - 1, query: m[2].toLowerCase() };
}
