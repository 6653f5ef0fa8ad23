/**
 * What every parameter of PostgREST's query-string grammar is read with: a
 * cursor over one parameter's text whose failures read like PostgREST's
 * (Parsec) messages, and the pieces the grammars share: identifiers, quoted
 * names, field names with their JSON paths, casts, and backtracking.
 */
import { ParseError } from "./errors.ts";

export type JsonOp = { arrow: "->" | "->>"; key: string; index: boolean };
export type Field = { name: string; json: JsonOp[] };

/** A tiny cursor with Parsec-like error messages. */
export class Cursor {
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

export function quoted(c: Cursor): string | null {
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

export function fieldName(c: Cursor): string {
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

export function jsonPath(c: Cursor): JsonOp[] {
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

export function field(c: Cursor): Field {
  c.ws();
  const name = fieldName(c);
  const json = jsonPath(c);
  c.ws();
  return { name, json };
}

export function castName(c: Cursor): string {
  const id = identifier(c);
  if (id === null) c.fail("letter or digit");
  return id;
}

export function tryParse<T>(c: Cursor, fn: () => T): T | undefined {
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
