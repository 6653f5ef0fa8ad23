/**
 * The select parameter's grammar: columns (aliases, casts, JSON paths,
 * aggregates) and embedded resources (hints, !inner/!left, spreads), as a
 * tree; plan.ts resolves its embeds against the schema cache.
 */
import { Cursor, castName, field, fieldName, tryParse, type Field } from "./parse-cursor.ts";

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

/** How deeply a select embeds resources (iteratively: the grammar already bounds it, this reads the limit). */
export function embedDepth(items: SelectItem[]): number {
  let max = 0;
  const stack: [SelectItem[], number][] = [[items, 0]];
  while (stack.length) {
    const [list, depth] = stack.pop()!;
    for (const item of list) {
      if (item.type !== "embed") continue;
      max = Math.max(max, depth + 1);
      stack.push([item.children, depth + 1]);
    }
  }
  return max;
}
