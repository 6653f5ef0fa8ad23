/**
 * The grammars of a read's conditions: a filter (`col=op.value`, with
 * not., any/all quantifiers, in.(), is., full-text search), a logic tree
 * (`or=(…)`, `and=(…)`, nested and negated) and an order (`order=…`), each
 * with the embed path its key names.
 */
import { Cursor, castName, field, fieldName, jsonPath, quoted, tryParse, type Field } from "./parse-cursor.ts";

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

const QUANT_OPS = ["eq", "gte", "gt", "lte", "lt", "like", "ilike", "match", "imatch"] as const;
const SIMPLE_OPS = ["neq", "cs", "cd", "ov", "sl", "sr", "nxr", "nxl", "adj"] as const;

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
