/**
 * Names and conditions of one level, resolved against what the level reads
 * from: a column or a computed field (a function of the row, PostgREST's
 * `tbl.fn`) under a JSON path, and each filter operator of PostgREST's
 * grammar turned into the test the printer writes. An unknown column is
 * Postgres' 42703, named by the level's alias as Postgres would name it.
 */
import { ParseError, errors } from "./errors.ts";
import type { Field } from "./parse-cursor.ts";
import type { Filter, LogicTree } from "./parse-filters.ts";
import type { Condition, FieldRef, RowValue, Test } from "./plan-types.ts";
import type { Column, Table } from "./schema.ts";

/** What a level's names resolve against. */
export interface Scope {
  /** the table (or return type) whose computed fields and row type apply */
  table: Table;
  /** the columns visible at this level */
  columns: Map<string, Column>;
  /** the relation's alias in the statement */
  alias: string;
  /** the level's name in error messages */
  name: string;
}

/** The scope of a table or view read under its own name. */
export function tableScope(table: Table): Scope {
  return { table, columns: table.columns, alias: table.name, name: table.name };
}

/** The scope's current row as a value of its table's type. */
export function rowValue(scope: Scope): RowValue {
  const cols = [...scope.table.columns.values()].sort((a, b) => a.position - b.position);
  return {
    alias: scope.alias,
    columns: cols.map((c) => c.name),
    type: { schema: scope.table.schema, name: scope.table.name },
  };
}

/** A column of the scope, or a computed field of its table. */
export function resolveField(scope: Scope, f: Field, forFilter = false): FieldRef {
  const col = scope.columns.get(f.name);
  const toJsonb = (c: Column) => forFilter && f.json.length > 0 && c.typname === "json";
  if (col)
    return {
      column: col,
      base: { kind: "column", alias: scope.alias, name: f.name },
      json: f.json,
      toJsonb: toJsonb(col),
    };
  const computed = scope.table.computed?.get(f.name);
  if (computed) {
    return {
      column: computed.column,
      base: { kind: "computed", fn: { schema: computed.schema, name: computed.name }, row: rowValue(scope) },
      json: f.json,
      toJsonb: toJsonb(computed.column),
    };
  }
  throw errors.undefinedColumn(scope.alias, f.name);
}

const IS = { null: "NULL", not_null: "NOT NULL", true: "TRUE", false: "FALSE", unknown: "UNKNOWN" } as const;
const FTS = { fts: "to_tsquery", plfts: "plainto_tsquery", phfts: "phraseto_tsquery", wfts: "websearch_to_tsquery" };
const SYM = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  like: "LIKE",
  ilike: "ILIKE",
  match: "~",
  imatch: "~*",
  cs: "@>",
  cd: "<@",
  ov: "&&",
  sl: "<<",
  sr: ">>",
  nxr: "&<",
  nxl: "&>",
  adj: "-|-",
};

/** One filter of the query string as a condition on the scope. */
export function planFilter(scope: Scope, f: Filter): Condition {
  const field = resolveField(scope, f.field, true);
  return { kind: "filter", field, negate: f.negate, test: testOf(field.column, f) };
}

function testOf(col: Column, f: Filter): Test {
  const op = f.operation;
  switch (op.kind) {
    case "is":
      return { kind: "is", value: IS[op.value] };
    case "isdistinct":
      return { kind: "distinct", value: op.value };
    case "in":
      // in.() arrives as one empty element: it matches nothing
      return { kind: "in", literal: op.values.length === 1 && op.values[0] === "" ? "{}" : arrayLiteral(op.values) };
    case "fts":
      return {
        kind: "fts",
        fn: FTS[op.op],
        config: op.config,
        toTsvector: !(col.typname === "tsvector" && f.field.json.length === 0),
        value: op.value,
      };
    case "op": {
      const value = op.op === "like" || op.op === "ilike" ? op.value.replace(/\*/g, "%") : op.value;
      // Postgres arrays have at most 6 dimensions: a deeper literal fails with
      // 54000, a 500; it is the client's input, so it is a 400 here.
      if ((col.category === "A" || op.quant) && braceDepth(value) > 6) {
        throw new ParseError(
          `"failed to parse filter (${op.op}.${value.slice(0, 40)}…)"`,
          "an array value may have at most 6 dimensions",
        );
      }
      const quant = op.quant === "any" ? "ANY" : op.quant === "all" ? "ALL" : undefined;
      return { kind: "op", sym: SYM[op.op], quant, value };
    }
  }
}

/** An `and=(…)` / `or=(…)` tree as a condition on the scope. */
export function planLogic(scope: Scope, t: LogicTree): Condition {
  if (t.type === "filter") return planFilter(scope, t.filter);
  return { kind: "logic", op: t.op, negate: t.negate, children: t.children.map((c) => planLogic(scope, c)) };
}

/** A Postgres array literal for `= ANY($n)`, each element quoted. */
export function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}

function braceDepth(s: string): number {
  let depth = 0;
  let max = 0;
  for (const ch of s) {
    if (ch === "{") max = Math.max(max, ++depth);
    else if (ch === "}" && depth > 0) depth--;
  }
  return max;
}
