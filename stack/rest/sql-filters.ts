/**
 * A filter or a logic tree of filters as a SQL condition on a source: each
 * operator of PostgREST's grammar with its value bound as a parameter.
 */
import { ParseError } from "./errors.ts";
import type { Filter, LogicTree } from "./parse-filters.ts";
import { colExpr, resolveColumn, type Params, type Source } from "./sql-source.ts";

export function filterSql(src: Source, f: Filter, params: Params): string {
  const { col } = resolveColumn(src, f.field.name);
  const lhs = colExpr(src, f.field, params, true);
  const op = f.operation;
  let sql: string;
  switch (op.kind) {
    case "is": {
      const v = { null: "NULL", not_null: "NOT NULL", true: "TRUE", false: "FALSE", unknown: "UNKNOWN" }[op.value];
      sql = `${lhs} IS ${v}`;
      break;
    }
    case "isdistinct":
      sql = `${lhs} IS DISTINCT FROM ${params.add(op.value)}`;
      break;
    case "in":
      // in.() arrives as one empty element: it matches nothing
      sql = `${lhs} = ANY(${params.add(op.values.length === 1 && op.values[0] === "" ? "{}" : arrayLiteral(op.values))})`;
      break;
    case "fts": {
      const fn = {
        fts: "to_tsquery",
        plfts: "plainto_tsquery",
        phfts: "phraseto_tsquery",
        wfts: "websearch_to_tsquery",
      }[op.op];
      const cfg = op.config !== undefined ? `${params.add(op.config, "regconfig")}, ` : "";
      const vec = col.typname === "tsvector" && f.field.json.length === 0 ? lhs : `to_tsvector(${cfg}${lhs})`;
      sql = `${vec} @@ ${fn}(${cfg}${params.add(op.value, "text")})`;
      break;
    }
    case "op": {
      const sym = {
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
      }[op.op];
      let value = op.value;
      if (op.op === "like" || op.op === "ilike") value = value.replace(/\*/g, "%");
      // Postgres arrays have at most 6 dimensions: a deeper literal fails with
      // 54000, a 500; it is the client's input, so it is a 400 here.
      if ((col.category === "A" || op.quant) && braceDepth(value) > 6) {
        throw new ParseError(
          `"failed to parse filter (${op.op}.${value.slice(0, 40)}…)"`,
          "an array value may have at most 6 dimensions",
        );
      }
      if (op.quant) {
        sql = `${lhs} ${sym} ${op.quant.toUpperCase()}(${params.add(value)})`;
      } else if (op.op === "ov" && col.category !== "A" && col.category !== "R" && /^\(.*\)$/s.test(value)) {
        // ov.(a,b) on arrays in PostgREST's list form
        sql = `${lhs} && ${params.add(value)}`;
      } else {
        sql = `${lhs} ${sym} ${params.add(value)}`;
      }
      break;
    }
  }
  return f.negate ? `NOT (${sql})` : sql;
}

export function logicSql(src: Source, t: LogicTree, params: Params): string {
  if (t.type === "filter") return filterSql(src, t.filter, params);
  const parts = t.children.map((c) => logicSql(src, c, params));
  const joined = `(${parts.join(t.op === "and" ? " AND " : " OR ")})`;
  return t.negate ? `NOT ${joined}` : joined;
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
