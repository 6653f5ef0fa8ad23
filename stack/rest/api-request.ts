/**
 * The request, parsed once (PostgREST's ApiRequest): what the caller wants
 * done to which table or function, in which schema, with which query
 * string, preferences, media type and body. Nothing here knows the schema
 * cache's tables; plan.ts decides what the request means. Input over the
 * stack's limits (stack/http/limits.ts) and anything that does not parse is
 * refused here, before a plan is made.
 */
import { checkQueryParam } from "../http/limits.ts";
import type { StackConfig } from "../config.ts";
import { readBody } from "./body.ts";
import { errors, limitError } from "./errors.ts";
import { negotiate, type MediaCapabilities, type Negotiated } from "./media.ts";
import { embedDepth } from "./parse-select.ts";
import { parseQuery, type ParsedQuery } from "./parser.ts";
import { parsePrefer, parseRangeHeader, type Prefs } from "./prefer.ts";

/** What the request does: read a relation, change it, or call a function. */
export type Action =
  | { kind: "read" }
  | { kind: "mutate"; mutation: "create" | "upsert" | "update" | "delete" }
  | { kind: "call"; invoke: "read" | "post" };

export interface ApiRequest {
  /** upper-case HTTP method */
  method: string;
  action: Action;
  /** the table's or the function's name */
  target: string;
  schema: string;
  /** the schema came from Accept-Profile / Content-Profile (answered with Content-Profile) */
  negotiatedByProfile: boolean;
  query: ParsedQuery;
  /** the Range header of a read */
  rangeHeader: { from: number; to: number | null } | null;
  prefs: Prefs;
  media: Negotiated;
  /** the body of a POST, PATCH or PUT (undefined otherwise), and the JSON text the SQL binds */
  body: unknown;
  bodyText: string | null;
  /** the path after /rest/v1 and the headers (credentials left out), for request.path and request.headers */
  path: string;
  headers: Record<string, string>;
}

const MUTATIONS: Record<string, "create" | "upsert" | "update" | "delete"> = {
  POST: "create",
  PUT: "upsert",
  PATCH: "update",
  DELETE: "delete",
};

/** The action of `method` on a table or a function (405 for a method neither takes). */
export function requestAction(resource: "table" | "rpc", method: string): Action {
  const read = method === "GET" || method === "HEAD";
  if (resource === "rpc") {
    if (!read && method !== "POST") throw errors.rpcMethod(method);
    return { kind: "call", invoke: read ? "read" : "post" };
  }
  if (read) return { kind: "read" };
  const mutation = MUTATIONS[method];
  if (!mutation) throw errors.unsupportedMethod(method);
  return { kind: "mutate", mutation };
}

/** Parses the rest of the request for `action` on `target`. */
export async function parseApiRequest(
  request: Request,
  action: Action,
  target: string,
  config: StackConfig,
  caps: MediaCapabilities,
): Promise<ApiRequest> {
  const method = request.method.toUpperCase();
  const read = method === "GET" || method === "HEAD";
  const { schema, negotiatedByProfile } = requestSchema(request.headers, read, config);
  const url = new URL(request.url);
  const query = parseQueryString([...url.searchParams.entries()], action, config);
  const media = negotiate(request.headers.get("accept") ?? undefined, caps);
  const { prefs, invalid } = parsePrefer(request.headers.get("prefer") ?? undefined);
  if (prefs.handling === "strict" && invalid.length) throw errors.invalidPreferences(invalid);
  const { body, bodyText } =
    method === "POST" || method === "PATCH" || method === "PUT"
      ? await readBody(request, action.kind === "call" ? "rpc" : "table", config.maxBodyBytes, config.limits)
      : { body: undefined, bodyText: null };
  return {
    method,
    action,
    target,
    schema,
    negotiatedByProfile,
    query,
    rangeHeader: read ? parseRangeHeader(request.headers.get("range") ?? undefined) : null,
    prefs,
    media,
    body,
    bodyText,
    path: url.pathname.replace(/^.*\/rest\/v1/, "") || "/",
    headers: Object.fromEntries(
      [...request.headers.entries()].filter(([k]) => k !== "authorization" && k !== "apikey"),
    ),
  };
}

/** The schema: Accept-Profile (reads) or Content-Profile (writes), else the first exposed one. */
function requestSchema(
  headers: Headers,
  read: boolean,
  config: StackConfig,
): { schema: string; negotiatedByProfile: boolean } {
  const exposed = config.rest.schemas.length ? config.rest.schemas : ["public"];
  const profile = headers.get(read ? "accept-profile" : "content-profile") ?? undefined;
  const schema = profile ?? exposed[0];
  if (!exposed.includes(schema)) throw errors.unacceptableSchema(schema, exposed);
  return { schema, negotiatedByProfile: profile !== undefined };
}

/** The query string, within the stack's limits on parameter size and embedding depth. */
function parseQueryString(params: [string, string][], action: Action, config: StackConfig): ParsedQuery {
  const { limits } = config;
  for (const [k, v] of params) {
    const bad = checkQueryParam(k, v, limits);
    if (bad) throw limitError("PGRST100", bad);
  }
  const query = parseQuery(params, { isRpcRead: action.kind === "call" && action.invoke === "read" });
  const depth = embedDepth(query.select);
  if (depth > limits.embedDepth) {
    throw limitError("PGRST100", {
      message: "The select parameter embeds resources too deeply",
      details: `Resources may be embedded at most ${limits.embedDepth} levels deep; this select embeds ${depth}`,
    });
  }
  return query;
}
