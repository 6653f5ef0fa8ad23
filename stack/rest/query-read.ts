/**
 * Prints one planned read level (plan-types.ts) as SQL, with its embedded
 * levels as lateral joins whose rows are aggregated to JSON inside Postgres,
 * so values keep Postgres' JSON representation. Identifiers come from the
 * plan (names the schema cache knew), always quoted; values are bound
 * parameters. Nothing is decided here.
 */
import type { Condition, Equality, FieldRef, From, Join, OrderTerm, Output, ReadNode, Test } from "./plan-types.ts";
import { quoteIdent as q } from "./schema.ts";

/** The values of a statement, bound as $1, $2, … in the order they are printed. */
export class Params {
  values: unknown[] = [];
  add(v: unknown, cast?: string): string {
    this.values.push(v);
    return `$${this.values.length}${cast ? `::${cast}` : ""}`;
  }
}

/** A printed level: the whole SELECT, the same rows unpaged for counting, and the parts a parent embeds. */
export interface LevelSql {
  sql: string;
  countSql: string;
  selectList: string;
  fromSql: string;
  whereSql: string;
  groupSql: string;
  tailSql: string;
}

const column = ([alias, name]: [string, string]) => `${q(alias)}.${q(name)}`;
const equalities = (eqs: Equality[]) => eqs.map(([l, r]) => `${column(l)} = ${column(r)}`);

export function printLevel(node: ReadNode, params: Params): LevelSql {
  const selectList = node.select.map((o) => `${output(o, params)} AS ${q(o.name)}`).join(", ");
  const joins = node.joins.map((j) => join(j, params));
  const fromSql = `${from(node, params)}${joins.length ? " " + joins.join(" ") : ""}`;
  const whereSql = node.where.map((c) => condition(c, params)).join(" AND ");
  const groupSql = node.groupBy.length ? ` GROUP BY ${node.groupBy.join(", ")}` : "";
  const order = node.order.map((t) => orderTerm(t, params));
  let tailSql = order.length ? ` ORDER BY ${order.join(", ")}` : "";
  if (node.range && node.range.limit !== null) tailSql += ` LIMIT ${Number(node.range.limit)}`;
  if (node.range && node.range.offset) tailSql += ` OFFSET ${Number(node.range.offset)}`;
  const where = whereSql ? ` WHERE ${whereSql}` : "";
  return {
    sql: `SELECT ${selectList} FROM ${fromSql}${where}${groupSql}${tailSql}`,
    countSql: `SELECT 1 FROM ${fromSql}${where}`,
    selectList,
    fromSql,
    whereSql,
    groupSql,
    tailSql,
  };
}

/** A function call with its arguments: `schema.fn(args)`, and the FROM item that reads named arguments. */
function callSql(from: Extract<From, { kind: "call" }>, params: Params): { call: string; argsFrom: string } {
  const { routine, args } = from.call;
  const fn = `${q(routine.schema)}.${q(routine.name)}`;
  if (args.kind === "none") return { call: `${fn}()`, argsFrom: "" };
  if (args.kind === "single") return { call: `${fn}(${params.add(args.value, args.cast)})`, argsFrom: "" };
  const columns = args.params.map((p) => `${q(p.name)} ${p.typeSql}`).join(", ");
  const argsFrom = `json_to_record(${params.add(args.json, "json")}) AS pgrst_args(${columns})`;
  const named = args.params.map((p) => `${p.variadic ? "VARIADIC " : ""}${q(p.name)} := pgrst_args.${q(p.name)}`);
  return { call: `${fn}(${named.join(", ")})`, argsFrom };
}

/** `[args CROSS JOIN LATERAL] fn(…)`: a call in a FROM clause. */
export function callFrom(from: Extract<From, { kind: "call" }>, params: Params): string {
  const { call, argsFrom } = callSql(from, params);
  return `${argsFrom ? `${argsFrom} CROSS JOIN LATERAL ` : ""}${call}`;
}

function from(node: ReadNode, params: Params): string {
  const f = node.from;
  const as = ` AS ${q(node.alias)}`;
  let sql: string;
  if (f.kind === "relation") sql = `${q(f.relation.schema)}.${q(f.relation.name)}${as}`;
  else if (f.kind === "source") sql = `pgrst_source${as}`;
  else if (f.kind === "call") sql = `${callFrom(f, params)}${as}`;
  else sql = `${q(f.fn.schema)}.${q(f.fn.name)}(${row(f.row)})${as}`;
  const j = node.junction;
  if (j)
    sql += ` JOIN ${q(j.relation.schema)}.${q(j.relation.name)} AS ${q(j.alias)} ON ${equalities(j.on).join(" AND ")}`;
  return sql;
}

function row(r: { alias: string; columns: string[]; type: { schema: string; name: string } }): string {
  return `ROW(${r.columns.map((c) => column([r.alias, c])).join(", ")})::${q(r.type.schema)}.${q(r.type.name)}`;
}

export function field(f: FieldRef, params: Params): string {
  let expr =
    f.base.kind === "column"
      ? column([f.base.alias, f.base.name])
      : `${q(f.base.fn.schema)}.${q(f.base.fn.name)}(${row(f.base.row)})`;
  if (!f.json.length) return expr;
  if (f.toJsonb) expr = `to_jsonb(${expr})`;
  for (const op of f.json) expr = `${expr}${op.arrow}${params.add(op.key, op.index ? "int4" : "text")}`;
  return `(${expr})`;
}

function output(o: Output, params: Params): string {
  switch (o.kind) {
    case "count":
      return "pg_catalog.count(*)";
    case "embed":
      return o.as === "object" ? `row_to_json(${q(o.join)}.*)` : `COALESCE(${q(o.join)}.${q(o.aggregate)}, '[]')`;
    case "spread":
      return `${q(o.join)}.${q(o.name)}`;
    case "field": {
      let expr = o.field === "*" ? "*" : field(o.field, params);
      if (o.cast) expr = `CAST(${expr} AS ${o.cast})`;
      if (o.agg) expr = `${o.agg}(${expr})`;
      if (o.aggCast) expr = `CAST(${expr} AS ${o.aggCast})`;
      return expr;
    }
  }
}

/** An embedded level as a lateral join: a row (to-one), or its rows as a JSON array (to-many) or as arrays per column (a to-many spread). */
function join(j: Join, params: Params): string {
  const child = printLevel(j.node, params);
  const conds = [...equalities(j.on), ...(child.whereSql ? [child.whereSql] : [])];
  const rows = `SELECT ${child.selectList || "NULL"} FROM ${child.fromSql}${conds.length ? ` WHERE ${conds.join(" AND ")}` : ""}${child.groupSql}${child.tailSql}`;
  const kind = j.inner ? "INNER" : "LEFT";
  if (j.mode === "to-one") return `${kind} JOIN LATERAL (${rows}) AS ${q(j.alias)} ON TRUE`;
  const columns =
    j.mode === "spread-many"
      ? j.node.select.map((o) => `, COALESCE(json_agg(${q(j.rowsAlias)}.${q(o.name)}), '[]') AS ${q(o.name)}`).join("")
      : "";
  const on = j.inner ? `${q(j.alias)}.${q(j.aggregate)} IS NOT NULL` : "TRUE";
  return `${kind} JOIN LATERAL (SELECT json_agg(${q(j.rowsAlias)}) AS ${q(j.aggregate)}${columns} FROM (${rows}) AS ${q(j.rowsAlias)}) AS ${q(j.alias)} ON ${on}`;
}

export function condition(c: Condition, params: Params): string {
  if (c.kind === "embed-null") {
    const target = c.toOne ? `row_to_json(${q(c.join)}.*)` : `${q(c.join)}.${q(c.aggregate)}`;
    return `${target} IS ${c.isNull ? "" : "NOT "}NULL`;
  }
  if (c.kind === "logic") {
    const joined = `(${c.children.map((x) => condition(x, params)).join(c.op === "and" ? " AND " : " OR ")})`;
    return c.negate ? `NOT ${joined}` : joined;
  }
  const sql = test(field(c.field, params), c.test, params);
  return c.negate ? `NOT (${sql})` : sql;
}

function test(lhs: string, t: Test, params: Params): string {
  switch (t.kind) {
    case "is":
      return `${lhs} IS ${t.value}`;
    case "distinct":
      return `${lhs} IS DISTINCT FROM ${params.add(t.value)}`;
    case "in":
      return `${lhs} = ANY(${params.add(t.literal)})`;
    case "fts": {
      const cfg = t.config !== undefined ? `${params.add(t.config, "regconfig")}, ` : "";
      const vec = t.toTsvector ? `to_tsvector(${cfg}${lhs})` : lhs;
      return `${vec} @@ ${t.fn}(${cfg}${params.add(t.value, "text")})`;
    }
    case "op":
      return t.quant ? `${lhs} ${t.sym} ${t.quant}(${params.add(t.value)})` : `${lhs} ${t.sym} ${params.add(t.value)}`;
  }
}

function orderTerm(t: OrderTerm, params: Params): string {
  const by = t.by;
  const expr =
    by.kind === "field"
      ? field(by.field, params)
      : `(SELECT ${field(by.field, params)} FROM ${q(by.relation.schema)}.${q(by.relation.name)} AS ${q(by.alias)} WHERE ${equalities(by.on).join(" AND ")} LIMIT 1)`;
  return `${expr}${t.dir ? ` ${t.dir}` : ""}${t.nulls ? ` NULLS ${t.nulls}` : ""}`;
}
