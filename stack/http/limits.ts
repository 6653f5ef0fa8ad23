/**
 * Limits at the stack's HTTP edge: how large and how deeply nested anything a
 * client sends may be before it reaches SQL.
 *
 * Why here and not in Postgres: native PostgreSQL refuses input that recurses
 * too deeply (54001, `max_stack_depth`), but PGlite runs Postgres as
 * WebAssembly on V8's own stack, where `check_stack_depth` never fires. A
 * regular expression or JSON value nested a few thousand levels deep exhausts
 * V8's stack inside the database, PGlite swallows the RangeError and returns
 * neither rows nor an error, and its next failing statement spins forever. So
 * every service checks its input here first, with the same limits on both
 * databases; `stack/db/pglite.ts` still recovers if something slips through.
 *
 * Every check is iterative (no recursion over client input), and bodies are
 * read as a stream that stops at the size limit, with or without
 * Content-Length.
 */

export interface InputLimits {
  /** deepest nesting of arrays/objects in a JSON body */
  jsonDepth: number;
  /** most elements in one JSON array */
  arrayLength: number;
  /** longest string value (UTF-16 units) in a JSON body */
  stringLength: number;
  /**
   * deepest nesting of ( [ { in one query parameter: the select, order and
   * logic-tree grammar, and filter operands that Postgres parses recursively
   * (regex, tsquery, array and json literals). Never counted in string values
   * of a body, which are text, not syntax.
   */
  bracketDepth: number;
  /** longest query-string value */
  queryValueLength: number;
  /** deepest resource embedding in a REST `select` */
  embedDepth: number;
}

export const DEFAULT_LIMITS: InputLimits = {
  jsonDepth: 64,
  arrayLength: 10_000,
  stringLength: 128 * 1024,
  bracketDepth: 128,
  queryValueLength: 16 * 1024,
  embedDepth: 4,
};

/** What was over a limit, in words for an error body. */
export interface LimitViolation {
  message: string;
  details: string;
}

/** Deepest nesting of ( [ { in `s`; closing brackets never take it below zero. */
export function bracketDepth(s: string, stopAt = Infinity): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 40 || ch === 91 || ch === 123) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > stopAt) return max;
      }
    } else if ((ch === 41 || ch === 93 || ch === 125) && depth > 0) depth--;
  }
  return max;
}

/** Deepest array/object nesting of a JSON text, counted without parsing it (brackets inside strings ignored). */
export function jsonTextDepth(text: string, stopAt = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
      continue;
    }
    if (ch === 34) inString = true;
    else if (ch === 91 || ch === 123) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > stopAt) return max;
      }
    } else if (ch === 93 || ch === 125) depth--;
  }
  return max;
}

function checkString(s: string, where: string, limits: InputLimits): LimitViolation | null {
  if (s.length > limits.stringLength) {
    return {
      message: "A string in the request body is too long",
      details: `${where} has ${s.length} characters; at most ${limits.stringLength} are accepted`,
    };
  }
  return null;
}

/**
 * Checks a parsed JSON value (iteratively): array lengths, key counts and
 * string lengths. Brackets inside strings are text (a description may hold
 * 200 unclosed `(`); their nesting is never counted.
 */
export function checkJsonValue(value: unknown, limits: InputLimits): LimitViolation | null {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      const bad = checkString(v, "a value", limits);
      if (bad) return bad;
    } else if (Array.isArray(v)) {
      if (v.length > limits.arrayLength) {
        return {
          message: "An array in the request body is too long",
          details: `an array has ${v.length} elements; at most ${limits.arrayLength} are accepted`,
        };
      }
      for (const x of v) stack.push(x);
    } else if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      if (keys.length > limits.arrayLength) {
        return {
          message: "An object in the request body has too many keys",
          details: `an object has ${keys.length} keys; at most ${limits.arrayLength} are accepted`,
        };
      }
      for (const k of keys) {
        // keys become column names in SQL text, where Postgres can't take a NUL
        if (k.includes("\u0000")) {
          return {
            message: "A key in the request body contains a NUL character",
            details: `the key ${JSON.stringify(k.slice(0, 40))} contains \\u0000`,
          };
        }
        const bad = checkString(k, "a key", limits);
        if (bad) return bad;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return null;
}

export type JsonParse =
  { ok: true; value: unknown } | { ok: false; violation: LimitViolation } | { ok: false; syntax: true };

/**
 * JSON.parse behind the limits: the nesting is counted on the text first (so
 * nothing deep is ever built, stringified or sent to SQL), then the parsed
 * value is checked for sizes.
 */
export function parseJsonWithLimits(text: string, limits: InputLimits): JsonParse {
  if (jsonTextDepth(text, limits.jsonDepth) > limits.jsonDepth) {
    return {
      ok: false,
      violation: {
        message: "The request body is nested too deeply",
        details: `JSON arrays and objects may nest at most ${limits.jsonDepth} levels`,
      },
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, syntax: true };
  }
  const violation = checkJsonValue(value, limits);
  return violation ? { ok: false, violation } : { ok: true, value };
}

/** Checks one query-string parameter (name and value): NUL, length and bracket nesting. */
export function checkQueryParam(key: string, value: string, limits: InputLimits): LimitViolation | null {
  return checkParam(key, value, limits, "query parameter", true);
}

/** Checks one field of a form body: NUL and length; its value is a string value, whose brackets are text. */
export function checkFormField(key: string, value: string, limits: InputLimits): LimitViolation | null {
  return checkParam(key, value, limits, "form field", false);
}

function checkParam(
  key: string,
  value: string,
  limits: InputLimits,
  kind: "query parameter" | "form field",
  nesting: boolean,
): LimitViolation | null {
  const noun = `A ${kind}`;
  const name = JSON.stringify(key.slice(0, 40));
  // a form field's value is a string value, as long as one in a JSON body may be
  const valueLength = kind === "form field" ? limits.stringLength : limits.queryValueLength;
  for (const [s, what, longest] of [
    [key, `the ${kind} name ${name}`, limits.queryValueLength],
    [value, `the value of ${name}`, valueLength],
  ] as const) {
    // a NUL can't be sent to Postgres in a parameter, nor inside the SQL text of a quoted identifier (an alias or a column)
    if (s.includes("\u0000"))
      return { message: `${noun} contains a NUL character`, details: `${what} contains \\u0000` };
    if (s.length > longest) {
      return {
        message: `${noun} is too long`,
        details: `${what} has ${s.length} characters; at most ${longest} are accepted`,
      };
    }
    if (nesting && bracketDepth(s, limits.bracketDepth) > limits.bracketDepth) {
      return {
        message: `${noun} is nested too deeply`,
        details: `${what} nests brackets more than ${limits.bracketDepth} levels deep`,
      };
    }
  }
  return null;
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * Reads a request body, stopping as soon as it passes `maxBytes`: a declared
 * Content-Length over the limit is refused before reading, and a chunked (or
 * lying) body is cut off at the limit instead of being buffered whole.
 */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(maxBytes);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The request with a body that no reader can take past `maxBytes` (as Go's
 * http.MaxBytesReader wraps every body in supabase/auth): a body whose
 * Content-Length is within the limit is left as it is (Node's parser never
 * delivers more than declared); any other body fails its reader with
 * BodyTooLargeError once it passes the limit. A declared length over the
 * limit is refused by readBodyLimited before a byte is read.
 */
export function boundBody(request: Request, maxBytes: number): Request {
  if (request.method === "GET" || request.method === "HEAD") return request;
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) <= maxBytes) return request;
  if (!request.body) return request;
  let seen = 0;
  const bounded = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new BodyTooLargeError(maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: bounded,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}
