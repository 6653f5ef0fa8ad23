/**
 * The media type of an answer, negotiated from Accept as PostgREST does
 * (its MediaType and Plan/Negotiate): JSON arrays, single objects, CSV,
 * GeoJSON where PostGIS is installed, and explain() plans where the
 * database allows them. The first acceptable type wins; none is PGRST107.
 */
import { errors } from "./errors.ts";

export type Media = "json" | "object" | "csv" | "geojson";

export interface Negotiated {
  media: Media;
  stripNulls: boolean;
  contentType: string;
  /** explain(): answer the query's plan instead of running it (media describes the planned query) */
  plan?: { format: "json" | "text"; options: string[] };
  /** GeoJSON: the schema-qualified ST_AsGeoJSON(record) of PostGIS */
  geoJsonFn?: string;
}

/** What the database offers beyond PostgREST's built-in media types. */
export interface MediaCapabilities {
  /** pgrst.db_plan_enabled on the authenticator role (off by default, as on hosted projects) */
  plan: boolean;
  /** PostGIS' ST_AsGeoJSON(record), when installed */
  geoJsonFn: string | null;
}

const PLAN_OPTIONS = new Set(["analyze", "verbose", "settings", "buffers", "wal"]);
const JSON_MEDIA: Negotiated = { media: "json", stripNulls: false, contentType: "application/json; charset=utf-8" };

/** One entry of Accept: its lower-cased type and its parameters. */
function mediaRange(raw: string): { type: string; params: Map<string, string> } {
  const [typeRaw, ...paramsRaw] = raw.split(";").map((s) => s.trim());
  const params = new Map(
    paramsRaw.map((p) => {
      const i = p.indexOf("=");
      const name = p
        .slice(0, i < 0 ? p.length : i)
        .trim()
        .toLowerCase();
      const value =
        i < 0
          ? ""
          : p
              .slice(i + 1)
              .trim()
              .replace(/^"|"$/g, "");
      return [name, value];
    }),
  );
  return { type: typeRaw.toLowerCase(), params };
}

/** The answer for one media type PostgREST always offers, or null. */
function builtIn(type: string, strip: boolean): Negotiated | null {
  if (type === "application/json" || type === "*/*" || type === "application/*") return JSON_MEDIA;
  const nulls = strip ? ";nulls=stripped" : "";
  if (type === "application/vnd.pgrst.array+json") {
    return { media: "json", stripNulls: strip, contentType: `application/vnd.pgrst.array+json${nulls}; charset=utf-8` };
  }
  if (type === "application/vnd.pgrst.object+json" || type === "application/vnd.pgrst.object") {
    return {
      media: "object",
      stripNulls: strip,
      contentType: `application/vnd.pgrst.object+json${nulls}; charset=utf-8`,
    };
  }
  if (type === "text/csv" || type === "text/*") {
    return { media: "csv", stripNulls: false, contentType: "text/csv; charset=utf-8" };
  }
  return null;
}

/** explain(): only when pgrst.db_plan_enabled is set (hosted projects keep it off). */
function planMedia(type: string, params: Map<string, string>, caps: MediaCapabilities): Negotiated | null {
  const plan = /^application\/vnd\.pgrst\.plan(?:\+(json|text))?$/.exec(type);
  if (!plan || !caps.plan) return null;
  const format = (plan[1] ?? "json") as "json" | "text";
  const forType = params.get("for") || "application/json";
  let inner: Negotiated;
  try {
    inner = negotiate(forType, { ...caps, plan: false });
  } catch {
    return null;
  }
  const options = (params.get("options") ?? "")
    .split("|")
    .map((o) => o.trim().toLowerCase())
    .filter((o) => PLAN_OPTIONS.has(o));
  return {
    ...inner,
    plan: { format, options },
    contentType: `application/vnd.pgrst.plan+${format}; for="${forType}"; charset=utf-8`,
  };
}

/** Picks the response media type from Accept (first acceptable wins). */
export function negotiate(
  accept: string | undefined,
  caps: MediaCapabilities = { plan: false, geoJsonFn: null },
): Negotiated {
  if (!accept || !accept.trim()) return JSON_MEDIA;
  const wanted = accept
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const raw of wanted) {
    const { type, params } = mediaRange(raw);
    const q = params.get("q");
    if (q !== undefined && Number(q) === 0) continue;
    const found = builtIn(type, params.get("nulls") === "stripped");
    if (found) return found;
    if (type === "application/geo+json" && caps.geoJsonFn) {
      return {
        media: "geojson",
        stripNulls: false,
        contentType: "application/geo+json; charset=utf-8",
        geoJsonFn: caps.geoJsonFn,
      };
    }
    const plan = planMedia(type, params, caps);
    if (plan) return plan;
  }
  throw errors.mediaType(wanted);
}
