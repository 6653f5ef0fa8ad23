/**
 * Media types, Prefer handling and the response pieces PostgREST sends:
 * Content-Range, Preference-Applied, the JSON/CSV body expressions.
 */
import { errors } from "./errors.ts";
import type { Prefs } from "./prefer.ts";

export type { Prefs };

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

/** Picks the response media type from Accept (first acceptable wins). */
export function negotiate(
  accept: string | undefined,
  caps: MediaCapabilities = { plan: false, geoJsonFn: null },
): Negotiated {
  if (!accept || !accept.trim())
    return { media: "json", stripNulls: false, contentType: "application/json; charset=utf-8" };
  const wanted = accept
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const raw of wanted) {
    const [typeRaw, ...paramsRaw] = raw.split(";").map((s) => s.trim());
    const type = typeRaw.toLowerCase();
    const params = new Map(
      paramsRaw.map((p) => {
        const i = p.indexOf("=");
        return [
          p
            .slice(0, i < 0 ? p.length : i)
            .trim()
            .toLowerCase(),
          i < 0
            ? ""
            : p
                .slice(i + 1)
                .trim()
                .replace(/^"|"$/g, ""),
        ];
      }),
    );
    const q = params.get("q");
    if (q !== undefined && Number(q) === 0) continue;
    const strip = params.get("nulls") === "stripped";
    if (type === "application/json" || type === "*/*" || type === "application/*") {
      return { media: "json", stripNulls: false, contentType: "application/json; charset=utf-8" };
    }
    if (type === "application/vnd.pgrst.array+json") {
      return {
        media: "json",
        stripNulls: strip,
        contentType: `application/vnd.pgrst.array+json${strip ? ";nulls=stripped" : ""}; charset=utf-8`,
      };
    }
    if (type === "application/vnd.pgrst.object+json" || type === "application/vnd.pgrst.object") {
      return {
        media: "object",
        stripNulls: strip,
        contentType: `application/vnd.pgrst.object+json${strip ? ";nulls=stripped" : ""}; charset=utf-8`,
      };
    }
    if (type === "text/csv" || type === "text/*")
      return { media: "csv", stripNulls: false, contentType: "text/csv; charset=utf-8" };
    if (type === "application/geo+json" && caps.geoJsonFn) {
      return {
        media: "geojson",
        stripNulls: false,
        contentType: "application/geo+json; charset=utf-8",
        geoJsonFn: caps.geoJsonFn,
      };
    }
    // explain(): only when pgrst.db_plan_enabled is set (hosted projects keep it off)
    const plan = /^application\/vnd\.pgrst\.plan(?:\+(json|text))?$/.exec(type);
    if (plan && caps.plan) {
      const format = (plan[1] ?? "json") as "json" | "text";
      const forType = params.get("for") || "application/json";
      let inner: Negotiated;
      try {
        inner = negotiate(forType, { ...caps, plan: false });
      } catch {
        continue;
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
  }
  throw errors.mediaType(wanted);
}

/** The SQL expression producing the body text over rows `_postgrest_t` of `pgrst_source`. */
export function bodyExpr(
  n: Negotiated,
  kind: "rows" | "scalar" | "setof-scalar" | "single-composite" = "rows",
): string {
  const strip = (e: string) => (n.stripNulls ? `json_strip_nulls(${e})` : e);
  if (n.media === "geojson" && n.geoJsonFn) {
    return `json_build_object('type', 'FeatureCollection', 'features', coalesce(json_agg(${n.geoJsonFn}(_postgrest_t)::json), '[]'))::text`;
  }
  if (n.media === "csv") {
    return (
      `(SELECT coalesce(string_agg(a.k, ','), '') FROM (SELECT json_object_keys(r)::text AS k FROM (SELECT row_to_json(hh) AS r FROM pgrst_source AS hh LIMIT 1) s) a)` +
      ` || chr(10) || coalesce(string_agg(substring(_postgrest_t::text, 2, length(_postgrest_t::text) - 2), chr(10)), '')`
    );
  }
  if (kind === "scalar") return `coalesce((${strip("json_agg(_postgrest_t.pgrst_scalar)")}->0)::text, 'null')`;
  if (kind === "setof-scalar") {
    return n.media === "object"
      ? `coalesce((${strip("json_agg(_postgrest_t.pgrst_scalar)")}->0)::text, 'null')`
      : `coalesce(${strip("json_agg(_postgrest_t.pgrst_scalar)")}, '[]')::text`;
  }
  if (n.media === "object" || kind === "single-composite")
    return `coalesce((${strip("json_agg(_postgrest_t)")}->0)::text, 'null')`;
  return `coalesce(${strip("json_agg(_postgrest_t)")}, '[]')::text`;
}

export function contentRange(lower: number, upper: number, total: number | null): string {
  const totalStr = total === null ? "*" : String(total);
  const rangeStr = total !== 0 && lower <= upper ? `${lower}-${upper}` : "*";
  return `${rangeStr}/${totalStr}`;
}

/** Status and Content-Range of a read, as PostgREST derives them. */
export function readStatus(offset: number, pageTotal: number, total: number | null): { status: number; range: string } {
  const upper = offset + pageTotal - 1;
  const range = contentRange(offset, upper, total);
  if (total === null) return { status: 200, range };
  if (offset > total) return { status: 416, range };
  if (1 + upper - offset < total) return { status: 206, range };
  return { status: 200, range };
}

export function preferenceApplied(p: Prefs, which: (keyof Prefs)[]): string | null {
  const out: string[] = [];
  const order: (keyof Prefs)[] = [
    "resolution",
    "missing",
    "return",
    "count",
    "tx",
    "handling",
    "timezone",
    "maxAffected",
  ];
  for (const k of order) {
    if (!which.includes(k) || p[k] === undefined) continue;
    if (k === "maxAffected") {
      if (p.handling === "strict") out.push(`max-affected=${p.maxAffected}`);
    } else out.push(`${k}=${p[k]}`);
  }
  return out.length ? out.join(", ") : null;
}
