/**
 * What every printed statement is made of: values bound as parameters (never
 * printed into the SQL), and the relation a level reads from, whose columns
 * and computed fields are printed by name from the schema cache.
 */
import { errors, type RestError } from "./errors.ts";
import type { Field } from "./parse-cursor.ts";
import { type Column, type Table, quoteIdent as q } from "./schema.ts";

export class Params {
  values: unknown[] = [];
  add(v: unknown, cast?: string): string {
    this.values.push(v);
    return `$${this.values.length}${cast ? `::${cast}` : ""}`;
  }
}

/** A relation the read query selects from: a table/view, a CTE or a function call. */
export interface Source {
  /** the table (or return type) whose columns are visible */
  table: Table;
  /** columns visible at this level */
  columns: Map<string, Column>;
  /** SQL after FROM, already aliased as `alias` */
  fromSql: string;
  alias: string;
  /** name used in error messages */
  name: string;
}

/** A table or view read under its own name. */
export function tableSource(table: Table): Source {
  return {
    table,
    columns: table.columns,
    fromSql: `${q(table.schema)}.${q(table.name)} AS ${q(table.name)}`,
    alias: table.name,
    name: table.name,
  };
}

/**
 * A column of the source, or a computed field of its table (a function of the
 * row, PostgREST's `tbl.fn` notation), with the SQL that reads it.
 */
export function resolveColumn(src: Source, name: string): { col: Column; expr: string } {
  const col = src.columns.get(name);
  if (col) return { col, expr: `${q(src.alias)}.${q(name)}` };
  const computed = src.table.computed?.get(name);
  if (computed) return { col: computed.column, expr: `${q(computed.schema)}.${q(computed.name)}(${rowOf(src)})` };
  throw columnMissing(src, name);
}

/** The source's current row as a value of its table's type (for functions taking a row). */
export function rowOf(src: Source): string {
  const cols = [...src.table.columns.values()].sort((a, b) => a.position - b.position);
  return `ROW(${cols.map((c) => `${q(src.alias)}.${q(c.name)}`).join(", ")})::${q(src.table.schema)}.${q(src.table.name)}`;
}

export function colExpr(src: Source, f: Field, params: Params, forFilter = false): string {
  const resolved = resolveColumn(src, f.name);
  const col = resolved.col;
  let expr = resolved.expr;
  if (f.json.length) {
    if (col.typname === "json" && forFilter) expr = `to_jsonb(${expr})`;
    for (const op of f.json) {
      const k = op.index ? params.add(op.key, "int4") : params.add(op.key, "text");
      expr = `${expr}${op.arrow}${k}`;
    }
    expr = `(${expr})`;
  }
  return expr;
}

/** As Postgres words it, naming the relation by its alias in the query (PostgREST's `<table>_<depth>` for embeds). */
function columnMissing(src: Source, name: string): RestError {
  return errors.undefinedColumn(src.alias, name);
}
