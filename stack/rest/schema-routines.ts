/**
 * The functions PostgREST serves under /rpc: their parameters (which have
 * defaults, which is variadic), what they return (nothing, a scalar, or rows
 * of a table or of their OUT columns), keyed by name with overloads in
 * PostgREST's order.
 */
import type { Catalog } from "./schema-catalog.ts";
import { type Column, type Routine, type RoutineParam, type Table, key } from "./schema.ts";

export function buildRoutines(funcs: Catalog["funcs"], byOid: Map<number, Table>): Map<string, Routine[]> {
  const routines = new Map<string, Routine[]>();
  for (const f of funcs) {
    const inArgs = f.args.filter((a) => a.mode === "i" || a.mode === "b" || a.mode === "v");
    const outArgs = f.args.filter((a) => a.mode === "o" || a.mode === "b" || a.mode === "t");
    const params: RoutineParam[] = inArgs.map((a, i) => ({
      name: a.name ?? "",
      type: a.type,
      typeSql: a.type,
      hasDefault: i >= inArgs.length - f.nargdefaults,
      variadic: a.mode === "v",
    }));
    let returnKind: Routine["returnKind"] = "scalar";
    let returnTable: Table | null = null;
    const outColumns = new Map<string, Column>();
    if (f.rettype === "void") returnKind = "void";
    else if (f.rettyptype === "c" || (f.rettype === "record" && outArgs.length > 0)) {
      returnKind = "composite";
      if (f.rettyptype === "c") returnTable = byOid.get(Number(f.rettyprelid)) ?? null;
      if (returnTable) for (const [k2, v] of returnTable.columns) outColumns.set(k2, v);
      else
        outArgs.forEach((a, i) =>
          outColumns.set(a.name ?? `column${i + 1}`, {
            name: a.name ?? "",
            type: a.type,
            typeSql: a.typsql,
            typeOid: Number(a.typeoid),
            category: a.category,
            typname: a.typname,
            nullable: true,
            default: null,
            generated: false,
            position: i + 1,
          }),
        );
    } else if (outArgs.length === 1) {
      returnKind = "scalar";
    }
    // PostgREST serves a function when all its parameters are named, or when it takes a single
    // unnamed json, jsonb, text, xml or bytea parameter (the whole body); others are not in its cache
    const unnamed = params.filter((p) => p.name === "");
    if (unnamed.length > 1 || (unnamed.length === 1 && !SINGLE_UNNAMED_TYPES.has(inArgs[0]?.type ?? ""))) continue;
    if (unnamed.length === 1 && params.length > 1) continue;
    const r: Routine = {
      oid: Number(f.oid),
      schema: f.schema,
      name: f.name,
      params,
      returnsSet: f.retset,
      returnType: f.rettype,
      returnKind,
      returnTable,
      outColumns,
      volatility: f.volatility,
    };
    const k = key(f.schema, f.name);
    const list = routines.get(k) ?? [];
    list.push(r);
    routines.set(k, list);
  }

  for (const list of routines.values()) list.sort(compareOverloads);
  return routines;
}

const SINGLE_UNNAMED_TYPES = new Set(["json", "jsonb", "text", "xml", "bytea"]);

/**
 * PostgREST's order of overloads (in PGRST203 messages): fewer parameters
 * first, then by the parameters' names and types.
 */
function compareOverloads(a: Routine, b: Routine): number {
  if (a.params.length !== b.params.length) return a.params.length - b.params.length;
  for (let i = 0; i < a.params.length; i++) {
    const x = a.params[i];
    const y = b.params[i];
    for (const [u, v] of [
      [x.name, y.name],
      [x.type, y.type],
    ]) {
      if (u !== v) return u < v ? -1 : 1;
    }
    if (x.hasDefault !== y.hasDefault) return x.hasDefault ? -1 : 1;
  }
  return a.oid - b.oid;
}
