/**
 * The query-string grammar of PostgREST (select, filters, logic trees, order,
 * limit/offset, columns, on_conflict), parsed into plain data. Nothing here
 * knows the schema; names are checked against the schema cache later.
 * Any input that does not match the grammar is a ParseError (400 PGRST100).
 */
import { ParseError, errors } from "./errors.ts";

export type JsonOp = { arrow: "->" | "->>"; key: string; index: boolean };
export type Field = { name: string; json: JsonOp[] };
export type AggFn = "count" | "sum" | "avg" | "max" | "min";

export type SelectField = {
  type: "field";
  field: Field;
  alias?: string;
  cast?: string;
  agg?: AggFn;
  aggCast?: string;
};
export type SelectEmbed = {
  type: "embed";
  name: string;
  alias?: string;
  hint?: string;
  join?: "inner" | "left";
  spread: boolean;
  children: SelectItem[];
};
export type SelectItem = SelectField | SelectEmbed;

export type SimpleOp =
  | "eq"
  | "neq"
  | "gt"
  | "gte"
  | "lt"
  | "lte"
  | "like"
  | "ilike"
  | "match"
  | "imatch"
  | "cs"
  | "cd"
  | "ov"
  | "sl"
  | "sr"
  | "nxr"
  | "nxl"
  | "adj";
export type IsValue = "null" | "not_null" | "true" | "false" | "unknown";
export type FtsOp = "fts" | "plfts" | "phfts" | "wfts";

export type Operation =
  | { kind: "op"; op: SimpleOp; quant?: "any" | "all"; value: string }
  | { kind: "in"; values: string[] }
  | { kind: "is"; value: IsValue }
  | { kind: "isdistinct"; value: string }
  | { kind: "fts"; op: FtsOp; config?: string; value: string };

export type Filter = { field: Field; negate: boolean; operation: Operation };
export type LogicTree =
  { type: "expr"; negate: boolean; op: "and" | "or"; children: LogicTree[] } | { type: "filter"; filter: Filter };
export type OrderTerm = { field: Field; relation?: string; dir?: "asc" | "desc"; nulls?: "first" | "last" };
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

const QUANT_OPS = ["eq", "gte", "gt", "lte", "lt", "like", "ilike", "match", "imatch"] as const;
const SIMPLE_OPS = ["neq", "cs", "cd", "ov", "sl", "sr", "nxr", "nxl", "adj"] as const;

/** A tiny cursor with Parsec-like error messages. */
class Cursor {
  pos = 0;
  constructor(
    readonly src: string,
    readonly what: string,
  ) {}
  get eof() {
    return this.pos >= this.src.length;
  }
  peek(n = 0) {
    return this.src[this.pos + n];
  }
  startsWith(s: string) {
    return this.src.startsWith(s, this.pos);
  }
  eat(s: string): boolean {
    if (this.src.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }
  expect(s: string, expecting = `"${s}"`) {
    if (!this.eat(s)) this.fail(expecting);
  }
  ws() {
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
  }
  fail(expecting: string): never {
    const unexpected = this.eof ? "end of input" : JSON.stringify(this.peek());
    throw new ParseError(
      `"failed to parse ${this.what} (${this.src})" (line 1, column ${this.pos + 1})`,
      `unexpected ${unexpected} expecting ${expecting}`,
    );
  }
}

const IDENT_CHAR = /[\p{L}\p{N}_ $]/u;

function identifier(c: Cursor): string | null {
  const start = c.pos;
  while (!c.eof && IDENT_CHAR.test(c.peek()!)) c.pos++;
  if (c.pos === start) return null;
  return c.src.slice(start, c.pos).trim();
}

function quoted(c: Cursor): string | null {
  if (c.peek() !== '"') return null;
  c.pos++;
  let out = "";
  for (;;) {
    if (c.eof) c.fail('"\\"" (closing quote)');
    const ch = c.peek()!;
    if (ch === '"') {
      c.pos++;
      return out;
    }
    if (ch === "\\") {
      c.pos++;
      if (c.eof) c.fail("any character");
      out += c.peek();
      c.pos++;
      continue;
    }
    out += ch;
    c.pos++;
  }
}

/** identifier segments joined by single dashes that are not arrows */
function sepByDash(c: Cursor, part: (c: Cursor) => string | null): string | null {
  const first = part(c);
  if (first === null) return null;
  const parts = [first];
  while (c.peek() === "-" && c.peek(1) !== ">") {
    const save = c.pos;
    c.pos++;
    const next = part(c);
    if (next === null) {
      c.pos = save;
      break;
    }
    parts.push(next);
  }
  return parts.join("-");
}

function fieldName(c: Cursor): string {
  const q = quoted(c);
  if (q !== null) return q;
  const name = sepByDash(c, identifier);
  if (name === null) c.fail("field name (* or [a..z0..9_$])");
  return name;
}

function jsonKeyPart(c: Cursor): string | null {
  const start = c.pos;
  while (!c.eof && !"(-:.,>)".includes(c.peek()!)) c.pos++;
  if (c.pos === start) return null;
  return c.src.slice(start, c.pos).trim();
}

function jsonPath(c: Cursor): JsonOp[] {
  const ops: JsonOp[] = [];
  for (;;) {
    let arrow: "->" | "->>";
    if (c.startsWith("->>")) arrow = "->>";
    else if (c.startsWith("->")) arrow = "->";
    else return ops;
    c.pos += arrow.length;
    // array index: -?digits followed by an end
    const m = /^-?\d+/.exec(c.src.slice(c.pos));
    if (m) {
      const after = c.src.slice(c.pos + m[0].length);
      if (after === "" || /^(->|::|\.|,)/.test(after)) {
        ops.push({ arrow, key: m[0], index: true });
        c.pos += m[0].length;
        continue;
      }
    }
    const q = quoted(c);
    if (q !== null) {
      ops.push({ arrow, key: q, index: false });
      continue;
    }
    const key = sepByDash(c, jsonKeyPart);
    if (key === null || key === "") c.fail("any non reserved character different from: .,>()");
    ops.push({ arrow, key, index: false });
  }
}

function field(c: Cursor): Field {
  c.ws();
  const name = fieldName(c);
  const json = jsonPath(c);
  c.ws();
  return { name, json };
}

function castName(c: Cursor): string {
  const id = identifier(c);
  if (id === null) c.fail("letter or digit");
  return id;
}

// ---------------------------------------------------------------- select

function atItemEnd(c: Cursor) {
  return c.eof || c.peek() === "," || c.peek() === ")";
}

function embedParams(c: Cursor): { hint?: string; join?: "inner" | "left" } {
  const out: { hint?: string; join?: "inner" | "left" } = {};
  for (let i = 0; i < 2 && c.peek() === "!"; i++) {
    c.pos++;
    const rest = c.src.slice(c.pos);
    if (/^left(?=[!(])/.test(rest) && !out.join) {
      c.pos += 4;
      out.join = "left";
    } else if (/^inner(?=[!(])/.test(rest) && !out.join) {
      c.pos += 5;
      out.join = "inner";
    } else {
      const h = fieldName(c);
      if (out.hint === undefined) out.hint = h;
    }
  }
  return out;
}

function selectItem(c: Cursor, depth: number): SelectItem {
  c.ws();
  if (depth > 32) c.fail("less nesting");
  // spread relation
  if (c.startsWith("...")) {
    c.pos += 3;
    const name = fieldName(c);
    const params = embedParams(c);
    c.expect("(");
    const children = selectForest(c, depth + 1);
    c.expect(")", '")" or ","');
    c.ws();
    return { type: "embed", name, spread: true, children, ...params };
  }
  if (c.peek() === "*") {
    c.pos++;
    c.ws();
    if (!atItemEnd(c)) c.fail('")", "," or end of input');
    return { type: "field", field: { name: "*", json: [] } };
  }
  // alias?
  let alias: string | undefined;
  const save = c.pos;
  {
    const a = tryParse(c, () => fieldName(c));
    if (a !== undefined && c.peek() === ":" && c.peek(1) !== ":") {
      c.pos++;
      alias = a;
    } else c.pos = save;
  }
  c.ws();
  if (c.startsWith("count()")) {
    c.pos += 7;
    let aggCast: string | undefined;
    if (c.eat("::")) aggCast = castName(c);
    c.ws();
    if (!atItemEnd(c)) c.fail('")", "," or end of input');
    return { type: "field", field: { name: "*", json: [] }, agg: "count", aggCast, alias };
  }
  const afterAlias = c.pos;
  const name = fieldName(c);
  // relation?
  if (name !== "count" || c.peek() === "!") {
    const p0 = c.pos;
    const params = embedParams(c);
    if (c.peek() === "(") {
      c.pos++;
      const children = selectForest(c, depth + 1);
      c.expect(")", '")" or ","');
      c.ws();
      return { type: "embed", name, alias, spread: false, children, ...params };
    }
    if (c.pos !== p0) c.fail('"("');
  }
  c.pos = afterAlias;
  const f = field(c);
  let cast: string | undefined;
  if (c.eat("::")) cast = castName(c);
  let agg: AggFn | undefined;
  if (c.peek() === ".") {
    const m = /^\.(sum|avg|count|max|min)\(\)/.exec(c.src.slice(c.pos));
    if (!m) {
      c.pos++;
      c.fail("aggregate function (sum(), avg(), count(), max(), min())");
    }
    agg = m[1] as AggFn;
    c.pos += m[0].length;
  }
  let aggCast: string | undefined;
  if (agg && c.eat("::")) aggCast = castName(c);
  c.ws();
  if (!atItemEnd(c)) c.fail('"->", "::", ".", ")", "," or end of input');
  return { type: "field", field: f, alias, cast, agg, aggCast };
}

function tryParse<T>(c: Cursor, fn: () => T): T | undefined {
  const save = c.pos;
  try {
    return fn();
  } catch (e) {
    if (e instanceof ParseError) {
      c.pos = save;
      return undefined;
    }
    throw e;
  }
}

function selectForest(c: Cursor, depth: number): SelectItem[] {
  const items: SelectItem[] = [];
  c.ws();
  if (c.eof || c.peek() === ")") return items;
  for (;;) {
    items.push(selectItem(c, depth));
    c.ws();
    if (c.peek() === ",") {
      c.pos++;
      continue;
    }
    return items;
  }
}

export function parseSelect(src: string): SelectItem[] {
  const c = new Cursor(src, "select parameter");
  const items = selectForest(c, 0);
  if (!c.eof) c.fail('"," or end of input');
  return items;
}

// ---------------------------------------------------------------- filters

function listValue(c: Cursor): string[] {
  c.ws();
  c.expect("(");
  c.ws();
  const values: string[] = [];
  for (;;) {
    let v: string | undefined;
    if (c.peek() === '"') {
      const save = c.pos;
      const q = quoted(c);
      if (c.eof || c.peek() === "," || c.peek() === ")") v = q!;
      else c.pos = save;
    }
    if (v === undefined) {
      const start = c.pos;
      while (!c.eof && c.peek() !== "," && c.peek() !== ")") c.pos++;
      v = c.src.slice(start, c.pos);
    }
    values.push(v);
    if (c.eat(",")) continue;
    break;
  }
  c.ws();
  c.expect(")", '")"');
  c.ws();
  return values;
}

/** op expression: [not.]op[(quant|config)].value */
function opExpr(c: Cursor, singleVal: (c: Cursor) => string): { negate: boolean; operation: Operation } {
  let negate = false;
  if (c.startsWith("not.")) {
    negate = true;
    c.pos += 4;
  }
  const rest = c.src.slice(c.pos);
  if (rest.startsWith("in.")) {
    c.pos += 3;
    return { negate, operation: { kind: "in", values: listValue(c) } };
  }
  if (rest.startsWith("isdistinct.")) {
    c.pos += 11;
    return { negate, operation: { kind: "isdistinct", value: singleVal(c) } };
  }
  if (rest.startsWith("is.")) {
    c.pos += 3;
    const m = /^(null|not_null|true|false|unknown)/i.exec(c.src.slice(c.pos));
    if (!m) c.fail("isVal: (null, not_null, true, false, unknown)");
    c.pos += m[0].length;
    return { negate, operation: { kind: "is", value: m[1].toLowerCase() as IsValue } };
  }
  const fts = /^(fts|plfts|phfts|wfts)/.exec(rest);
  if (fts) {
    c.pos += fts[0].length;
    let config: string | undefined;
    if (c.peek() === "(") {
      c.pos++;
      config = castName(c);
      c.expect(")");
    }
    c.expect(".", "delimiter (.)");
    return { negate, operation: { kind: "fts", op: fts[1] as FtsOp, config, value: singleVal(c) } };
  }
  for (const op of SIMPLE_OPS) {
    if (rest.startsWith(op + ".")) {
      c.pos += op.length + 1;
      return { negate, operation: { kind: "op", op, value: singleVal(c) } };
    }
  }
  for (const op of QUANT_OPS) {
    if (rest.startsWith(op)) {
      const after = rest.slice(op.length);
      let quant: "any" | "all" | undefined;
      let len = op.length;
      if (after.startsWith("(any).")) {
        quant = "any";
        len += 5;
      } else if (after.startsWith("(all).")) {
        quant = "all";
        len += 5;
      } else if (!after.startsWith(".")) continue;
      c.pos += len + 1;
      return { negate, operation: { kind: "op", op, quant, value: singleVal(c) } };
    }
  }
  c.fail('"not" or operator (eq, gt, ...)');
}

const restOfInput = (c: Cursor) => {
  const v = c.src.slice(c.pos);
  c.pos = c.src.length;
  return v;
};

function treePath(src: string): { path: string[]; field: Field } {
  const c = new Cursor(src, "tree path");
  const names = [fieldName(c)];
  while (c.peek() === ".") {
    c.pos++;
    names.push(fieldName(c));
  }
  const json = jsonPath(c);
  if (!c.eof) c.fail('"->", "." or end of input');
  return { path: names.slice(0, -1), field: { name: names[names.length - 1], json } };
}

export function parseFilter(key: string, value: string): { path: string[]; filter: Filter } {
  const { path, field: f } = treePath(key);
  const c = new Cursor(value, "filter");
  const { negate, operation } = opExpr(c, restOfInput);
  if (!c.eof) c.fail("end of input");
  return { path, filter: { field: f, negate, operation } };
}

/** Does the value start like an operator expression (for GET rpc arguments)? */
export function hasOperator(value: string): boolean {
  try {
    const c = new Cursor(value, "filter");
    opExpr(c, restOfInput);
    return c.eof;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- logic trees

function logicSingleVal(c: Cursor): string {
  if (c.peek() === '"') {
    const save = c.pos;
    const q = quoted(c);
    if (c.eof || c.peek() === "," || c.peek() === ")") return q!;
    c.pos = save;
  }
  if (c.peek() === "{") {
    const m = /^\{[^{}]*\}/.exec(c.src.slice(c.pos));
    if (m) {
      c.pos += m[0].length;
      return m[0];
    }
  }
  const start = c.pos;
  while (!c.eof && c.peek() !== "," && c.peek() !== ")") c.pos++;
  return c.src.slice(start, c.pos);
}

function logicTree(c: Cursor, depth: number): LogicTree {
  if (depth > 32) c.fail("less nesting");
  // an expression: [not.](and|or)(...)
  const m = /^(not\.)?(and|or)\(/.exec(c.src.slice(c.pos));
  if (m) {
    // could also be a field named "and"/"or" followed by "(": PostgREST tries the filter first
    const save = c.pos;
    const asFilter = tryParse(c, () => logicFilter(c));
    if (asFilter) return { type: "filter", filter: asFilter };
    c.pos = save + m[0].length;
    c.ws();
    const children = [logicTree(c, depth + 1)];
    c.ws();
    while (c.eat(",")) {
      c.ws();
      children.push(logicTree(c, depth + 1));
      c.ws();
    }
    c.expect(")", '")" or ","');
    c.ws();
    return { type: "expr", negate: !!m[1], op: m[2] as "and" | "or", children };
  }
  return { type: "filter", filter: logicFilter(c) };
}

function logicFilter(c: Cursor): Filter {
  const f = field(c);
  c.expect(".", "delimiter (.)");
  const { negate, operation } = opExpr(c, logicSingleVal);
  return { field: f, negate, operation };
}

export function parseLogic(key: string, value: string): { path: string[]; tree: LogicTree } {
  const kc = new Cursor(key, "logic path");
  const names = [fieldName(kc)];
  while (kc.peek() === ".") {
    kc.pos++;
    names.push(fieldName(kc));
  }
  if (!kc.eof) kc.fail('"." or end of input');
  const op = names[names.length - 1];
  const negated = names.includes("not");
  const path = names.slice(0, -1).filter((n) => n !== "not");
  const c = new Cursor((negated ? "not." : "") + op + value, "logic tree");
  const tree = logicTree(c, 0);
  if (!c.eof || tree.type !== "expr") c.fail("end of input");
  return { path, tree };
}

// ---------------------------------------------------------------- order

export function parseOrder(key: string, value: string): { path: string[]; terms: OrderTerm[] } {
  const kc = new Cursor(key, "tree path");
  const names = [fieldName(kc)];
  while (kc.peek() === ".") {
    kc.pos++;
    names.push(fieldName(kc));
  }
  if (!kc.eof) kc.fail('"." or end of input');
  const c = new Cursor(value, "order");
  const terms: OrderTerm[] = [];
  for (;;) {
    c.ws();
    let term: OrderTerm;
    const save = c.pos;
    const rel = tryParse(c, () => {
      const r = fieldName(c);
      if (c.peek() !== "(") c.fail('"("');
      c.pos++;
      const f = field(c);
      c.expect(")");
      return { r, f };
    });
    if (rel) term = { field: rel.f, relation: rel.r };
    else {
      c.pos = save;
      term = { field: field(c) };
    }
    if (c.startsWith(".asc") && !/^\.asc[^.,]/.test(c.src.slice(c.pos))) {
      c.pos += 4;
      term.dir = "asc";
    } else if (c.startsWith(".desc") && !/^\.desc[^.,]/.test(c.src.slice(c.pos))) {
      c.pos += 5;
      term.dir = "desc";
    }
    if (c.startsWith(".nullsfirst")) {
      c.pos += 11;
      term.nulls = "first";
    } else if (c.startsWith(".nullslast")) {
      c.pos += 10;
      term.nulls = "last";
    }
    c.ws();
    terms.push(term);
    if (c.eat(",")) continue;
    if (!c.eof) c.fail(term.dir || term.nulls ? '"," or end of input' : '"asc", "desc", "nullsfirst" or "nullslast"');
    break;
  }
  return { path: names.slice(0, -1), terms };
}

// ---------------------------------------------------------------- columns

export function parseColumns(src: string, what = "columns parameter"): string[] {
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

/** Range header: "0-9" / "5-" (items). Returns null when absent or not of that form. */
export function parseRangeHeader(header: string | undefined): { from: number; to: number | null } | null {
  if (!header) return null;
  const m = /^(?:items=)?([0-9]+)-([0-9]*)$/.exec(header.trim());
  if (!m) return null;
  return { from: Number(m[1]), to: m[2] === "" ? null : Number(m[2]) };
}

/** The Prefer header as typed values (PostgREST's Preferences): the first valid value of each wins. */
export interface Prefs {
  return?: "minimal" | "representation" | "headers-only";
  count?: "exact" | "planned" | "estimated";
  resolution?: "merge-duplicates" | "ignore-duplicates";
  missing?: "default" | "null";
  tx?: "commit" | "rollback";
  handling?: "strict" | "lenient";
  maxAffected?: number;
  params?: "single-object";
  timezone?: string;
}

const PREFER_VALUES: Record<string, RegExp> = {
  return: /^(minimal|representation|headers-only)$/,
  count: /^(exact|planned|estimated)$/,
  resolution: /^(merge-duplicates|ignore-duplicates)$/,
  missing: /^(default|null)$/,
  tx: /^(commit|rollback)$/,
  handling: /^(strict|lenient)$/,
  "max-affected": /^\d+$/,
  params: /^single-object$/,
  timezone: /^.+$/,
};

/** Parses Prefer into typed preferences, collecting the ones it does not know (for handling=strict). */
export function parsePrefer(header: string | undefined): { prefs: Prefs; invalid: string[] } {
  const raw = new Map<string, string>();
  const invalid: string[] = [];
  for (const part of (header ?? "").split(",")) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf("=");
    const k = (eq < 0 ? item : item.slice(0, eq)).trim().toLowerCase();
    const v = eq < 0 ? "" : item.slice(eq + 1).trim();
    if (PREFER_VALUES[k]?.test(v)) {
      if (!raw.has(k)) raw.set(k, v);
    } else invalid.push(item);
  }
  const prefs: Prefs = {};
  if (raw.has("return")) prefs.return = raw.get("return") as Prefs["return"];
  if (raw.has("count")) prefs.count = raw.get("count") as Prefs["count"];
  if (raw.has("resolution")) prefs.resolution = raw.get("resolution") as Prefs["resolution"];
  if (raw.has("missing")) prefs.missing = raw.get("missing") as Prefs["missing"];
  if (raw.has("tx")) prefs.tx = raw.get("tx") as Prefs["tx"];
  if (raw.has("handling")) prefs.handling = raw.get("handling") as Prefs["handling"];
  if (raw.has("max-affected")) prefs.maxAffected = Number(raw.get("max-affected"));
  if (raw.has("params")) prefs.params = "single-object";
  if (raw.has("timezone")) prefs.timezone = raw.get("timezone");
  return { prefs, invalid };
}
