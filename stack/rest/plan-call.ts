/**
 * The plan of an RPC call (POST or GET /rpc/<name>, PostgREST's callReadPlan):
 * which function the arguments name (PostgREST's findProc, with its
 * PGRST202/PGRST203 errors), how its arguments are bound, and how its result
 * is read: a composite one like a table (filters, embeds, pagination through
 * plan-read.ts), a scalar one as a single column, a void one not at all.
 */
import type { ApiRequest } from "./api-request.ts";
import { errors } from "./errors.ts";
import { closest } from "./hints.ts";
import type { Range } from "./parser.ts";
import { planRead } from "./plan-read.ts";
import type { CallPlan, CallResult } from "./plan-types.ts";
import { type Routine, type SchemaCache, type Table, key } from "./schema.ts";

/** Chooses the function and binds its arguments, from the body (POST) or the query string (GET). */
export function planCall(cache: SchemaCache, req: ApiRequest): CallPlan {
  const isPost = req.method === "POST";
  let args: Record<string, unknown>;
  if (isPost) {
    if (req.body === null || typeof req.body !== "object" || Array.isArray(req.body)) {
      if (req.prefs.params !== "single-object") throw errors.invalidBody("Empty or invalid json");
    }
    args = (req.body ?? {}) as Record<string, unknown>;
  } else {
    args = {};
    for (const [k, v] of req.query.rpcParams) {
      // repeated keys make an array argument (PostgREST: ?v=1&v=2)
      if (k in args) args[k] = Array.isArray(args[k]) ? [...(args[k] as unknown[]), v] : [args[k], v];
      else args[k] = v;
    }
  }
  const argNames = isPost && Array.isArray(req.body) ? [] : Object.keys(args);
  const { routine, singleJson } = chooseRoutine(cache, req, argNames, isPost);
  if (singleJson) {
    const p0 = routine.params[0];
    const cast = ["json", "jsonb", "text", "xml", "bytea"].includes(p0.type) ? p0.type : "json";
    return { routine, args: { kind: "single", value: isPost ? (req.bodyText ?? "{}") : JSON.stringify(args), cast } };
  }
  const used = routine.params.filter((p) => argNames.includes(p.name));
  if (!used.length) return { routine, args: { kind: "none" } };
  // GET arrays come as repeated params: passed as a JSON array
  return { routine, args: { kind: "named", json: isPost ? req.bodyText : JSON.stringify(args), params: used } };
}

/** How the call's result is read, for the page `range`. */
export function planCallResult(cache: SchemaCache, req: ApiRequest, call: CallPlan, range: Range): CallResult {
  const { routine } = call;
  const exact = req.prefs.count === "exact" || req.prefs.count === "estimated";
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
    const scope = { table, columns: routine.outColumns, alias: routine.name, name: routine.name };
    const node = planRead(cache, { kind: "call", call }, scope, req.query, range);
    return {
      kind: "composite",
      page: { node, shape: routine.returnsSet ? "rows" : "single-composite", exactCount: exact },
    };
  }
  if (routine.returnKind === "void") return { kind: "void" };
  return {
    kind: "scalar",
    range: routine.returnsSet ? range : { offset: 0, limit: null },
    shape: routine.returnsSet ? "setof-scalar" : "scalar",
    exactCount: routine.returnsSet && exact,
  };
}

/**
 * PostgREST's findProc: a function matches when the argument names cover its
 * required parameters and stay within its parameters; one with a single
 * unnamed json/jsonb parameter is the fallback for a JSON body. More than one
 * match is PGRST203 (candidates in the schema cache's order), none PGRST202.
 */
function chooseRoutine(
  cache: SchemaCache,
  req: ApiRequest,
  argNames: string[],
  isPost: boolean,
): { routine: Routine; singleJson: boolean } {
  const candidates = cache.routines.get(key(req.schema, req.target)) ?? [];
  const singleObject = req.prefs.params === "single-object";
  const isJsonType = (t: string) => t === "json" || t === "jsonb";
  const keys = new Set(argNames);
  const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
  const matchesParams = (r: Routine) => {
    if (r.params.length === 0) return keys.size === 0;
    const required = new Set(r.params.filter((p) => !p.hasDefault).map((p) => p.name));
    const optional = new Set(r.params.filter((p) => p.hasDefault).map((p) => p.name));
    if (optional.size === 0) return sameSet(keys, required);
    if (required.size === 0) return [...keys].every((k) => optional.has(k));
    return sameSet(new Set([...keys].filter((k) => !optional.has(k))), required);
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
  const chosen = matched.length ? matched : fallback;
  if (chosen.length === 1) return { routine: chosen[0], singleJson: singleObject || positional(chosen[0]) };
  if (chosen.length > 1) {
    throw errors.ambiguousFunction(
      chosen.map((r) => `${r.schema}.${r.name}(${r.params.map((p) => `${p.name} => ${p.type}`).join(", ")})`),
    );
  }
  throw noFunction(cache, req, candidates, argNames, isPost);
}

/** PGRST202, suggesting other parameters of the same function, or a function of a similar name. */
function noFunction(cache: SchemaCache, req: ApiRequest, candidates: Routine[], argNames: string[], isPost: boolean) {
  const paramList = (names: string[]) => `(${[...names].sort().join(", ")})`;
  const suggestion = candidates.length
    ? closest(
        paramList(argNames),
        candidates.map((r) => paramList(r.params.map((p) => p.name))),
        0.33,
      )
    : closest(
        req.target,
        [...cache.routines.values()]
          .flat()
          .filter((r) => r.schema === req.schema)
          .map((r) => r.name),
      );
  return errors.noFunction(req.schema, req.target, argNames, isPost, suggestion);
}
