/**
 * The request headers that shape a read or a write beyond content
 * negotiation (response.ts): Prefer (PostgREST's Preferences) and Range.
 */

/** Range header: "0-9" / "5-" (items). Returns null when absent or not of that form. */
export function parseRangeHeader(header: string | undefined): { from: number; to: number | null } | null {
  if (!header) return null;
  const m = /^(?:items=)?([0-9]+)-([0-9]*)$/.exec(header.trim());
  if (!m) return null;
  return { from: Number(m[1]), to: m[2] === "" ? null : Number(m[2]) };
}

/** The Prefer header as typed values (PostgREST's Preferences): the first valid value of each wins. */
export interface Prefs {
  return?: "minimal" | "representation" | "headers-only";
  count?: "exact" | "planned" | "estimated";
  resolution?: "merge-duplicates" | "ignore-duplicates";
  missing?: "default" | "null";
  tx?: "commit" | "rollback";
  handling?: "strict" | "lenient";
  maxAffected?: number;
  params?: "single-object";
  timezone?: string;
}

const PREFER_VALUES: Record<string, RegExp> = {
  return: /^(minimal|representation|headers-only)$/,
  count: /^(exact|planned|estimated)$/,
  resolution: /^(merge-duplicates|ignore-duplicates)$/,
  missing: /^(default|null)$/,
  tx: /^(commit|rollback)$/,
  handling: /^(strict|lenient)$/,
  "max-affected": /^\d+$/,
  params: /^single-object$/,
  timezone: /^.+$/,
};

/** Parses Prefer into typed preferences, collecting the ones it does not know (for handling=strict). */
export function parsePrefer(header: string | undefined): { prefs: Prefs; invalid: string[] } {
  const raw = new Map<string, string>();
  const invalid: string[] = [];
  for (const part of (header ?? "").split(",")) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf("=");
    const k = (eq < 0 ? item : item.slice(0, eq)).trim().toLowerCase();
    const v = eq < 0 ? "" : item.slice(eq + 1).trim();
    if (PREFER_VALUES[k]?.test(v)) {
      if (!raw.has(k)) raw.set(k, v);
    } else invalid.push(item);
  }
  const prefs: Prefs = {};
  if (raw.has("return")) prefs.return = raw.get("return") as Prefs["return"];
  if (raw.has("count")) prefs.count = raw.get("count") as Prefs["count"];
  if (raw.has("resolution")) prefs.resolution = raw.get("resolution") as Prefs["resolution"];
  if (raw.has("missing")) prefs.missing = raw.get("missing") as Prefs["missing"];
  if (raw.has("tx")) prefs.tx = raw.get("tx") as Prefs["tx"];
  if (raw.has("handling")) prefs.handling = raw.get("handling") as Prefs["handling"];
  if (raw.has("max-affected")) prefs.maxAffected = Number(raw.get("max-affected"));
  if (raw.has("params")) prefs.params = "single-object";
  if (raw.has("timezone")) prefs.timezone = raw.get("timezone");
  return { prefs, invalid };
}
