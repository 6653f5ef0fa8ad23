/**
 * PostgREST-style errors: every failure leaves the service as a JSON body
 * {code, details, hint, message} with PostgREST's HTTP status for it.
 */
import type { LimitViolation } from "../http/limits.ts";

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null | unknown = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "RestError";
  }

  body() {
    return { code: this.code, details: this.details ?? null, hint: this.hint ?? null, message: this.message };
  }
}

/** A query-string parse error (PGRST100, 400). */
export class ParseError extends RestError {
  constructor(message: string, details: string) {
    super(400, "PGRST100", message, details);
  }
}

/** One relationship as PGRST201's details list it. */
export interface RelationshipDetail {
  cardinality: string;
  embedding: string;
  relationship: string;
}

/**
 * The error catalogue: every error the service raises itself, with
 * PostgREST's status, code and wording (its Error.hs). Database errors go
 * through fromPgError below.
 */
export const errors = {
  unexpected: () => new RestError(500, "PGRSTX00", "An unexpected error occurred"),
  /** input over a limit of stack/http/limits.ts, with PostgREST's parse (PGRST100) or body (PGRST102) code */
  overLimit: (code: "PGRST100" | "PGRST102", message: string, details: string | null) =>
    new RestError(400, code, message, details),
  payloadTooLarge: (limit: number) =>
    new RestError(413, "PGRST413", "Payload Too Large", `The request body is larger than ${limit} bytes`),
  rpcMethod: (method: string) => new RestError(405, "PGRST101", `Cannot use the ${method} method on RPC`),
  unknownRole: (message: string) => new RestError(401, "22023", message, null, null, { "WWW-Authenticate": "Bearer" }),
  putFilters: () =>
    new RestError(405, "PGRST105", "Filters must include all and only primary key columns with 'eq' operators"),
  putRange: () => new RestError(400, "PGRST114", "limit/offset querystring parameters are not allowed for PUT"),
  putMismatch: () => new RestError(400, "PGRST115", "Payload values do not match URL in primary key column(s)"),
  noRelationship: (
    origin: string,
    target: string,
    hint: string | undefined,
    schema: string,
    suggestion: string | null,
  ) =>
    new RestError(
      400,
      "PGRST200",
      `Could not find a relationship between '${origin}' and '${target}' in the schema cache`,
      `Searched for a foreign key relationship between '${origin}' and '${target}'${hint !== undefined ? ` using the hint '${hint}'` : ""} in the schema '${schema}', but no matches were found.`,
      suggestion ? `Perhaps you meant '${suggestion}' instead of '${target}'.` : null,
    ),
  ambiguousRelationship: (origin: string, target: string, details: RelationshipDetail[], hints: string[]) =>
    new RestError(
      300,
      "PGRST201",
      `Could not embed because more than one relationship was found for '${origin}' and '${target}'`,
      details,
      `Try changing '${target}' to one of the following: ${hints.join(", ")}. Find the desired relationship in the 'details' key.`,
    ),
  /** PGRST202; `suggestion` is a function name, or "(params)" when the function exists with other parameters */
  noFunction: (schema: string, name: string, argNames: string[], isPost: boolean, suggestion: string | null) => {
    const fn = `${schema}.${name}`;
    const sorted = [...argNames].sort();
    const params =
      sorted.length === 0
        ? " without parameters"
        : ` with parameter${sorted.length > 1 ? "s" : ""} ${sorted.join(", ")}`;
    return new RestError(
      404,
      "PGRST202",
      `Could not find the function ${fn}${sorted.length === 0 ? " without parameters" : `(${sorted.join(", ")})`} in the schema cache`,
      `Searched for the function ${fn}${params}${isPost ? " or with a single unnamed json/jsonb parameter" : ""}, but no matches were found in the schema cache.`,
      suggestion === null
        ? null
        : `Perhaps you meant to call the function ${schema}.${suggestion.startsWith("(") ? name : ""}${suggestion}`,
    );
  },
  /** PGRST203; each candidate as `schema.name(param => type, …)`, in the schema cache's order */
  ambiguousFunction: (candidates: string[]) =>
    new RestError(
      300,
      "PGRST203",
      `Could not choose the best candidate function between: ${candidates.join(", ")}`,
      null,
      "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    ),
  /** as Postgres words it (PostgREST lets the database report unknown columns and types) */
  undefinedColumn: (relation: string, column: string) =>
    new RestError(400, "42703", `column ${relation}.${column} does not exist`),
  undefinedType: (name: string) => new RestError(400, "42704", `type "${name}" does not exist`),
  invalidBody: (message: string) => new RestError(400, "PGRST102", message),
  invalidRange: (details: string) => new RestError(416, "PGRST103", "Requested range not satisfiable", details),
  unacceptableSchema: (schema: string, exposed: string[]) =>
    new RestError(
      406,
      "PGRST106",
      `Invalid schema: ${schema}`,
      null,
      `Only the following schemas are exposed: ${exposed.join(", ")}`,
    ),
  mediaType: (types: string[]) =>
    new RestError(406, "PGRST107", `None of these media types are available: ${types.join(", ")}`),
  notEmbedded: (resource: string) =>
    new RestError(
      400,
      "PGRST108",
      `'${resource}' is not an embedded resource in this request`,
      null,
      `Verify that '${resource}' is included in the 'select' query parameter.`,
    ),
  singularity: (n: number) =>
    new RestError(406, "PGRST116", "Cannot coerce the result to a single JSON object", `The result contains ${n} rows`),
  unsupportedMethod: (method: string) => new RestError(405, "PGRST117", `Unsupported HTTP method: ${method}`),
  relatedOrderNotToOne: (origin: string, target: string) =>
    new RestError(
      400,
      "PGRST118",
      `A related order on '${target}' is not possible`,
      `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
    ),
  unacceptableFilter: (target: string) =>
    new RestError(
      400,
      "PGRST120",
      `Bad operator on the '${target}' embedded resource`,
      "Only is null or not is null filters are allowed on embedded resources",
    ),
  invalidPreferences: (prefs: string[]) =>
    new RestError(
      400,
      "PGRST122",
      "Invalid preferences given with handling=strict",
      `Invalid preferences: ${prefs.join(", ")}`,
    ),
  aggregatesNotAllowed: () => new RestError(400, "PGRST123", "Use of aggregate functions is not allowed"),
  maxAffected: (n: number) =>
    new RestError(
      400,
      "PGRST124",
      "Query result exceeds max-affected preference constraint",
      `The query affects ${n} rows`,
    ),
  invalidPath: () => new RestError(404, "PGRST125", "Invalid path specified in request URL"),
  maxAffectedRpc: () =>
    new RestError(
      400,
      "PGRST128",
      "Function must return SETOF or TABLE when max-affected preference is used with handling=strict",
    ),
  columnNotFound: (rel: string, col: string) =>
    new RestError(400, "PGRST204", `Could not find the '${col}' column of '${rel}' in the schema cache`),
  tableNotFound: (schema: string, name: string, suggestion: string | null) =>
    new RestError(
      404,
      "PGRST205",
      `Could not find the table '${schema}.${name}' in the schema cache`,
      null,
      suggestion ? `Perhaps you meant the table '${schema}.${suggestion}'` : null,
    ),
  jwt: (status: number, code: string, message: string) =>
    new RestError(status, code, message, null, null, {
      "WWW-Authenticate": `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
    }),
};

/** What a failed statement carries, on both database adapters. */
export interface PgErrorLike {
  code?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

/** Input over a limit of stack/http/limits.ts: 400 with PostgREST's parse-error (PGRST100) or body (PGRST102) code. */
export function limitError(code: "PGRST100" | "PGRST102", v: LimitViolation): RestError {
  return errors.overLimit(code, v.message, v.details ?? null);
}

export function isPgError(e: unknown): e is PgErrorLike & Error {
  return (
    typeof e === "object" &&
    e !== null &&
    typeof (e as PgErrorLike).code === "string" &&
    /^[0-9A-Z]{5}$/.test((e as PgErrorLike).code!)
  );
}

/** PostgREST's SQLSTATE → HTTP status mapping. */
export function statusForSqlState(code: string, message: string, authed: boolean): number {
  const p2 = code.slice(0, 2);
  if (p2 === "08") return 503;
  if (p2 === "09") return 500;
  if (p2 === "0L" || p2 === "0P") return 403;
  if (code === "23503" || code === "23505") return 409;
  if (code === "25006") return 405;
  if (code === "21000") return message.endsWith("requires a WHERE clause") ? 400 : 500;
  if (code === "22023") return message.startsWith("role") && message.endsWith("does not exist") ? 401 : 400;
  if (p2 === "25") return 500;
  if (p2 === "28") return 403;
  if (p2 === "2D" || p2 === "38" || p2 === "39" || p2 === "3B" || p2 === "40") return 500;
  if (code === "53400") return 500;
  if (p2 === "53") return 503;
  if (p2 === "54" || p2 === "55") return 500;
  if (code === "57P01") return 503;
  if (p2 === "57" || p2 === "58" || p2 === "F0" || p2 === "HV") return 500;
  if (code === "P0001") return 400;
  if (p2 === "P0" || p2 === "XX") return 500;
  if (code === "42883") return message.startsWith("function xmlagg(") ? 406 : 404;
  if (code === "42P01") return 404;
  if (code === "42P17") return 500;
  if (code === "42501") return authed ? 403 : 401;
  if (p2 === "PT") {
    const n = Number(code.slice(2));
    return Number.isInteger(n) && n >= 100 && n <= 599 ? n : 500;
  }
  return 400;
}

/** A database error as PostgREST reports it (including RAISE SQLSTATE 'PGRST'). */
export function fromPgError(e: PgErrorLike, authed: boolean): RestError {
  const code = e.code ?? "";
  const message = e.message ?? "";
  if (code === "PGRST") {
    // RAISE sqlstate 'PGRST' using message = '{"code":..,"message":..}', detail = '{"status":..,"headers":{..}}'
    let m: Record<string, unknown>;
    let d: Record<string, unknown>;
    try {
      m = JSON.parse(message);
      if (typeof m !== "object" || m === null || typeof m.code !== "string" || typeof m.message !== "string") throw 0;
    } catch {
      return new RestError(
        500,
        "PGRST121",
        `Could not parse JSON in the "RAISE SQLSTATE 'PGRST'" error`,
        `Invalid JSON value for MESSAGE: '${message}'`,
        "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
      );
    }
    try {
      if (!e.detail) throw 0;
      d = JSON.parse(e.detail);
      if (typeof d !== "object" || d === null || typeof d.status !== "number") throw 0;
    } catch {
      return new RestError(
        500,
        "PGRST121",
        `Could not parse JSON in the "RAISE SQLSTATE 'PGRST'" error`,
        e.detail ? `Invalid JSON value for DETAIL: '${e.detail}'` : "DETAIL is missing in the RAISE statement",
        "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.",
      );
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((d.headers as Record<string, unknown>) ?? {})) headers[k] = String(v);
    return new RestError(
      d.status as number,
      m.code as string,
      m.message as string,
      (m.details as string) ?? null,
      (m.hint as string) ?? null,
      headers,
    );
  }
  const status = statusForSqlState(code, message, authed);
  return new RestError(
    status,
    code,
    message,
    e.detail ?? null,
    e.hint ?? null,
    status === 401 ? { "WWW-Authenticate": "Bearer" } : {},
  );
}
