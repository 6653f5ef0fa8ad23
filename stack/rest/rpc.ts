/**
 * An RPC call (POST or GET /rpc/<name>): which function the arguments name
 * (PostgREST's findProc, with its PGRST202/PGRST203 errors) and the SQL that
 * calls it: a composite result is read like a table (filters, embeds,
 * pagination through sql.ts), a scalar one as a single column, a void one
 * just runs. handler.ts runs the statement and shapes the reply.
 */
import { errors } from "./errors.ts";
import { closest } from "./hints.ts";
import { bodyExpr } from "./response.ts";
import { type Routine, type Table, key, quoteIdent as q } from "./schema.ts";
import { Params, type Source } from "./sql-source.ts";
import { buildPageRead, pageStatement } from "./sql.ts";
import type { WriteRequest } from "./write.ts";

/** What of a request a call's SQL depends on: what a write's does, and the function's schema and name. */
export interface CallRequest extends WriteRequest {
  schema: string;
  name: string;
}

/** The function a request calls, and the SQL of its arguments. */
export interface ResolvedCall {
  routine: Routine;
  params: Params;
  /** `schema.fn(args)` */
  call: string;
  /** the FROM item that turns the JSON arguments into columns, when there are named ones */
  argsFrom: string;
}

/**
 * The statement of a call. `rows` counts as a read (`total`, `page_total`,
 * `body`), with `countSql` for a planned count; `void` returns nothing.
 */
export type CallStatement =
  { returns: "rows"; sql: string; countSql: string; params: Params } | { returns: "void"; sql: string; params: Params };

/** Chooses the function and binds its arguments, from the body (POST) or the query string (GET). */
export function resolveCall(rq: CallRequest): ResolvedCall {
  const isPost = rq.method === "POST";
  let args: Record<string, unknown>;
  if (isPost) {
    if (rq.body === null || typeof rq.body !== "object" || Array.isArray(rq.body)) {
      if (rq.prefs.params !== "single-object") throw errors.invalidBody("Empty or invalid json");
    }
    args = (rq.body ?? {}) as Record<string, unknown>;
  } else {
    args = {};
    for (const [k, v] of rq.parsed.rpcParams) {
      // repeated keys make an array argument (PostgREST: ?v=1&v=2)
      if (k in args) args[k] = Array.isArray(args[k]) ? [...(args[k] as unknown[]), v] : [args[k], v];
      else args[k] = v;
    }
  }
  const argNames = isPost && Array.isArray(rq.body) ? [] : Object.keys(args);
  const { routine, singleJson } = chooseRoutine(rq, argNames, isPost);
  const params = new Params();
  const fnSql = `${q(routine.schema)}.${q(routine.name)}`;
  let callArgs: string;
  let argsFrom = "";
  if (singleJson) {
    const p0 = routine.params[0];
    const cast = ["json", "jsonb", "text", "xml", "bytea"].includes(p0.type) ? p0.type : "json";
    callArgs = params.add(isPost ? (rq.bodyText ?? "{}") : JSON.stringify(args), cast);
  } else {
    const used = routine.params.filter((p) => argNames.includes(p.name));
    if (used.length) {
      const argJson = isPost ? rq.bodyText : JSON.stringify(args);
      argsFrom = `json_to_record(${params.add(argJson, "json")}) AS pgrst_args(${used.map((p) => `${q(p.name)} ${p.typeSql}`).join(", ")})`;
      // GET arrays come as repeated params: pass them as a JSON array
      callArgs = used.map((p) => `${p.variadic ? "VARIADIC " : ""}${q(p.name)} := pgrst_args.${q(p.name)}`).join(", ");
    } else callArgs = "";
  }
  return { routine, params, call: `${fnSql}(${callArgs})`, argsFrom };
}

/** The SQL of a resolved call, for the page `range` of its result. */
export function buildCall(
  rq: CallRequest,
  { routine, params, call, argsFrom }: ResolvedCall,
  range: { offset: number; limit: number | null },
): CallStatement {
  const media = rq.media;
  if (routine.returnKind === "composite") {
    const table: Table = routine.returnTable ?? {
      schema: routine.schema,
      name: routine.name,
      kind: "table",
      isView: false,
      columns: routine.outColumns,
      pk: [],
      uniques: [],
      insertable: false,
      updatable: false,
      deletable: false,
    };
    const alias = routine.name;
    const fromSql = `${argsFrom ? `${argsFrom} CROSS JOIN LATERAL ` : ""}${call} AS ${q(alias)}`;
    const src: Source = { table, columns: routine.outColumns, fromSql, alias, name: routine.name };
    const wantExact = rq.prefs.count === "exact" || rq.prefs.count === "estimated";
    const kind = routine.returnsSet ? "rows" : "single-composite";
    const page = buildPageRead(
      { cache: rq.cache, params, parsed: rq.parsed, topRange: range, source: src },
      bodyExpr(media, kind),
      wantExact,
    );
    return { returns: "rows", ...page, params };
  }

  if (routine.returnKind === "void") {
    const sql = `SELECT 1 FROM ${argsFrom ? `${argsFrom} CROSS JOIN LATERAL ` : ""}${call} AS pgrst_call`;
    return { returns: "void", sql, params };
  }

  // scalar or setof scalar
  const from = `${argsFrom ? `${argsFrom} CROSS JOIN LATERAL ` : ""}${call} AS pgrst_call(pgrst_scalar)`;
  const tail = routine.returnsSet
    ? `${range.limit !== null ? ` LIMIT ${Number(range.limit)}` : ""}${range.offset ? ` OFFSET ${Number(range.offset)}` : ""}`
    : "";
  const inner = `SELECT pgrst_call.pgrst_scalar FROM ${from}${tail}`;
  const wantExact = routine.returnsSet && (rq.prefs.count === "exact" || rq.prefs.count === "estimated");
  const bodyKind = routine.returnsSet ? "setof-scalar" : "scalar";
  const body =
    media.media === "csv"
      ? `coalesce(string_agg(_postgrest_t.pgrst_scalar::text, chr(10)), '')`
      : bodyExpr(media, bodyKind);
  const sql = pageStatement(inner, body, wantExact ? from : null);
  return { returns: "rows", sql, countSql: `SELECT 1 FROM ${from}`, params };
}

/**
 * PostgREST's findProc: a function matches when the argument names cover its
 * required parameters and stay within its parameters; one with a single
 * unnamed json/jsonb parameter is the fallback for a JSON body. More than one
 * match is PGRST203 (candidates in the schema cache's order), none PGRST202.
 */
function chooseRoutine(
  rq: CallRequest,
  argNames: string[],
  isPost: boolean,
): { routine: Routine; singleJson: boolean } {
  const candidates = rq.cache.routines.get(key(rq.schema, rq.name)) ?? [];
  const singleObject = rq.prefs.params === "single-object";
  const isJsonType = (t: string) => t === "json" || t === "jsonb";
  const keys = new Set(argNames);
  const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
  const matchesParams = (r: Routine) => {
    if (r.params.length === 0) return keys.size === 0;
    const req = new Set(r.params.filter((p) => !p.hasDefault).map((p) => p.name));
    const opt = new Set(r.params.filter((p) => p.hasDefault).map((p) => p.name));
    if (opt.size === 0) return sameSet(keys, req);
    if (req.size === 0) return [...keys].every((k) => opt.has(k));
    return sameSet(new Set([...keys].filter((k) => !opt.has(k))), req);
  };
  const singleUnnamed = (r: Routine) =>
    isPost && r.params.length === 1 && r.params[0].name === "" && isJsonType(r.params[0].type);
  /** a single unnamed parameter takes the whole body (PostgREST's positional call) */
  const positional = (r: Routine) => r.params.length === 1 && r.params[0].name === "";
  const matched: Routine[] = [];
  const fallback: Routine[] = [];
  for (const r of candidates) {
    if (singleObject) {
      if (isPost && r.params.length === 1 && isJsonType(r.params[0].type)) matched.push(r);
      continue;
    }
    if (matchesParams(r)) matched.push(r);
    else if (singleUnnamed(r)) fallback.push(r);
  }
  const pick = (r: Routine) => ({ routine: r, singleJson: singleObject || positional(r) });
  const chosen = matched.length ? matched : fallback;
  if (chosen.length === 1) return pick(chosen[0]);
  if (chosen.length > 1) {
    throw errors.ambiguousFunction(
      chosen.map((r) => `${r.schema}.${r.name}(${r.params.map((p) => `${p.name} => ${p.type}`).join(", ")})`),
    );
  }
  // not found: suggest other parameters of the same function, or a function of a similar name
  const paramList = (names: string[]) => `(${[...names].sort().join(", ")})`;
  const suggestion = candidates.length
    ? closest(
        paramList(argNames),
        candidates.map((r) => paramList(r.params.map((p) => p.name))),
        0.33,
      )
    : closest(
        rq.name,
        [...rq.cache.routines.values()]
          .flat()
          .filter((r) => r.schema === rq.schema)
          .map((r) => r.name),
      );
  throw errors.noFunction(rq.schema, rq.name, argNames, isPost, suggestion);
}
