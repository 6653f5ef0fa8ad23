/**
 * The query string of PostgREST (select, filters, logic trees, order,
 * limit/offset, columns, on_conflict), parsed into plain data: this module
 * sorts the parameters and reads limit/offset and column lists; the select
 * grammar is in parse-select.ts, filters', logic trees' and order's in
 * parse-filters.ts. Nothing here knows the schema; names are checked against
 * the schema cache later. Any input that does not match the grammar is a
 * ParseError (400 PGRST100).
 */
import { ParseError, errors } from "./errors.ts";
import { Cursor, fieldName } from "./parse-cursor.ts";
import {
  hasOperator,
  parseFilter,
  parseLogic,
  parseOrder,
  type Filter,
  type LogicTree,
  type OrderTerm,
} from "./parse-filters.ts";
import { parseSelect, type SelectItem } from "./parse-select.ts";

export type Range = { offset: number; limit: number | null };

export interface ParsedQuery {
  select: SelectItem[];
  filters: { path: string[]; filter: Filter }[];
  logic: { path: string[]; tree: LogicTree }[];
  order: { path: string[]; terms: OrderTerm[] }[];
  /** keyed by embed path joined with "." ("" for the top level) */
  ranges: Map<string, Range>;
  columns: string[] | null;
  onConflict: string[] | null;
  /** GET/HEAD rpc: parameters without an operator are function arguments */
  rpcParams: [string, string][];
}

// ---------------------------------------------------------------- columns

function parseColumns(src: string, what = "columns parameter"): string[] {
  const c = new Cursor(src, what);
  const out: string[] = [];
  for (;;) {
    c.ws();
    out.push(fieldName(c));
    c.ws();
    if (c.eat(",")) continue;
    if (!c.eof) c.fail('"," or end of input');
    return out;
  }
}

// ---------------------------------------------------------------- the whole query string

const RESERVED_EMBEDDABLE = new Set(["order", "limit", "offset", "and", "or"]);

function lastWord(key: string) {
  const i = key.lastIndexOf(".");
  return i < 0 ? key : key.slice(i + 1);
}

function intParam(value: string): number | null {
  return /^\d+$/.test(value) && value.length < 16 ? Number(value) : /^-\d+$/.test(value) ? Number(value) : null;
}

export function parseQuery(params: [string, string][], options: { isRpcRead?: boolean } = {}): ParsedQuery {
  const out: ParsedQuery = {
    select: [{ type: "field", field: { name: "*", json: [] } }],
    filters: [],
    logic: [],
    order: [],
    ranges: new Map(),
    columns: null,
    onConflict: null,
    rpcParams: [],
  };
  const limits = new Map<string, number>();
  const offsets = new Map<string, number>();
  for (const [key, value] of params) {
    if (key === "select") {
      out.select = parseSelect(value);
      continue;
    }
    if (key === "columns") {
      out.columns = parseColumns(value);
      continue;
    }
    if (key === "on_conflict") {
      out.onConflict = parseColumns(value, "on_conflict parameter");
      continue;
    }
    const word = lastWord(key);
    if (RESERVED_EMBEDDABLE.has(word)) {
      const prefix = key.length > word.length ? key.slice(0, key.length - word.length - 1) : "";
      if (word === "order") out.order.push(parseOrder(key, value));
      else if (word === "and" || word === "or") out.logic.push(parseLogic(key, value));
      else {
        const n = intParam(value);
        if (n === null) continue; // PostgREST ignores unreadable limit/offset
        const pathKey = prefix ? parseColumnsPath(key, prefix) : "";
        if (word === "limit") limits.set(pathKey, n);
        else offsets.set(pathKey, n);
      }
      continue;
    }
    if (options.isRpcRead && !hasOperator(value)) {
      out.rpcParams.push([key, value]);
      continue;
    }
    out.filters.push(parseFilter(key, value));
  }
  for (const k of new Set([...limits.keys(), ...offsets.keys()])) {
    const limit = limits.get(k);
    const offset = offsets.get(k) ?? 0;
    if (limit !== undefined && limit < 0) throw errors.invalidRange("Limit should be greater than or equal to zero.");
    if (offset < 0) throw errors.invalidRange("Limit should be greater than or equal to zero.");
    out.ranges.set(k, { offset, limit: limit ?? null });
  }
  return out;
}

/** validates an embed path prefix like "a.b" and normalises it */
function parseColumnsPath(key: string, prefix: string): string {
  const c = new Cursor(prefix, `tree path`);
  const names = [fieldName(c)];
  while (c.peek() === ".") {
    c.pos++;
    names.push(fieldName(c));
  }
  if (!c.eof) {
    throw new ParseError(`"failed to parse tree path (${key})" (line 1, column ${c.pos + 1})`, "unexpected input");
  }
  return names.join(".");
}
