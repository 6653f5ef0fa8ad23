/**
 * The answer to a request (PostgREST's Response): status, headers and body
 * from the plan and what its statement answered — Content-Range and the
 * 200/206 of a page, 201/200/204 of a write, Location, Preference-Applied,
 * Content-Profile — and the JSON body of an error. Nothing here touches the
 * database or throws.
 */
import type { ApiRequest } from "./api-request.ts";
import type { RestError } from "./errors.ts";
import type { ResultSet } from "./main-tx.ts";
import type { ActionPlan } from "./plan-types.ts";
import type { Prefs } from "./prefer.ts";

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const JSON_CT = "application/json; charset=utf-8";

export function errorReply(e: RestError): Reply {
  return {
    status: e.status,
    headers: { "Content-Type": JSON_CT, ...e.headers },
    body: JSON.stringify(e.body()),
  };
}

export function actionResponse(req: ApiRequest, plan: ActionPlan, result: ResultSet): Reply {
  const headers = (h: Record<string, string> = {}) =>
    req.negotiatedByProfile ? { ...h, "Content-Profile": req.schema } : h;
  if (result.kind === "plan") {
    return { status: 200, headers: headers({ "Content-Type": req.media.contentType }), body: result.body };
  }
  if (result.kind === "void") {
    const pa = preferenceApplied(req.prefs, ["count", "tx", "handling", "timezone", "maxAffected"]);
    return { status: 204, headers: headers(pa ? { "Preference-Applied": pa } : {}), body: null };
  }
  if (plan.kind === "mutate") return mutateResponse(req, plan, result, headers);
  const { status, range } = readStatus(plan.offset, result.pageTotal, result.total);
  const pa = preferenceApplied(
    req.prefs,
    plan.kind === "read"
      ? ["count", "tx", "handling", "timezone"]
      : ["count", "tx", "handling", "timezone", "maxAffected"],
  );
  return {
    status,
    headers: headers({
      "Content-Type": req.media.contentType,
      "Content-Range": range,
      ...(pa ? { "Preference-Applied": pa } : {}),
    }),
    body: result.body,
  };
}

function mutateResponse(
  req: ApiRequest,
  plan: Extract<ActionPlan, { kind: "mutate" }>,
  result: Extract<ResultSet, { kind: "rows" }>,
  withProfile: (h: Record<string, string>) => Record<string, string>,
): Reply {
  const { prefs } = req;
  const { kind, table } = plan.mutate;
  const representation = prefs.return === "representation";
  const headers: Record<string, string> = {};
  let status: number;
  if (kind === "insert" || kind === "upsert-put") {
    headers["Content-Range"] = contentRange(1, 0, result.total);
    if (prefs.return === "headers-only" && result.body && table.pk.length) {
      const first = JSON.parse(result.body) as Record<string, unknown>;
      const qs = table.pk.map((c) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(String(first[c]))}`).join("&");
      headers["Location"] = `/${table.name}?${qs}`;
    }
    // PostgREST: an upsert that inserted nothing answers 200; PUT answers 201 when it inserted
    if (kind === "upsert-put") status = representation ? (result.inserted ? 201 : 200) : 204;
    else status = result.inserted === 0 && prefs.resolution === "merge-duplicates" ? 200 : 201;
    const resolutionApplied = table.pk.length > 0 || req.query.onConflict !== null;
    const pa = preferenceApplied(
      resolutionApplied ? prefs : { ...prefs, resolution: undefined },
      PREFERENCES.filter((k) => k !== "maxAffected"),
    );
    if (pa) headers["Preference-Applied"] = pa;
  } else {
    headers["Content-Range"] =
      kind === "update" ? contentRange(0, result.pageTotal - 1, result.total) : contentRange(1, 0, result.total);
    status = representation ? 200 : 204;
    const pa = preferenceApplied(prefs, ["return", "count", "tx", "handling", "timezone", "maxAffected"]);
    if (pa) headers["Preference-Applied"] = pa;
  }
  if (!representation) return { status, headers: withProfile(headers), body: null };
  headers["Content-Type"] = req.media.contentType;
  return { status, headers: withProfile(headers), body: result.body };
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

/** The preferences Preference-Applied may name, in PostgREST's order. */
const PREFERENCES: (keyof Prefs)[] = [
  "resolution",
  "missing",
  "return",
  "count",
  "tx",
  "handling",
  "timezone",
  "maxAffected",
];

export function preferenceApplied(p: Prefs, which: (keyof Prefs)[]): string | null {
  const out: string[] = [];
  for (const k of PREFERENCES) {
    if (!which.includes(k) || p[k] === undefined) continue;
    if (k === "maxAffected") {
      if (p.handling === "strict") out.push(`max-affected=${p.maxAffected}`);
    } else out.push(`${k}=${p[k]}`);
  }
  return out.length ? out.join(", ") : null;
}
