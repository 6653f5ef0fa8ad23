import type { Context } from "hono";
import { BodyTooLargeError, DEFAULT_LIMITS, parseJsonWithLimits, readBodyLimited } from "../http/limits.ts";
import { AuthError, badRequest } from "./errors.ts";

/**
 * Request bodies, read the way GoTrue reads them: JSON into a typed struct.
 * A field of the wrong type, malformed JSON or a body that is not an object
 * fails with 400 bad_json and a message in the words of Go's decoder, so
 * clients see what they would see from the hosted service.
 */
export type FieldType = "string" | "bool" | "object" | "string?" | "any";
export type Spec = Record<string, FieldType>;

type Out<S extends Spec> = {
  [K in keyof S]: S[K] extends "string"
    ? string
    : S[K] extends "string?"
      ? string | null
      : S[K] extends "bool"
        ? boolean | undefined
        : S[K] extends "object"
          ? Record<string, unknown> | null
          : unknown;
};

function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "object") return "object";
  return typeof v === "boolean" ? "bool" : typeof v;
}

/** The body as text, read no further than `maxBytes` (stack/http/limits.ts). */
export async function readBody(c: Context, maxBytes: number): Promise<string> {
  try {
    return new TextDecoder().decode(await readBodyLimited(c.req.raw, maxBytes));
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge(maxBytes);
    throw error;
  }
}

function tooLarge(maxBytes: number) {
  return new AuthError(413, "request_entity_too_large", `Request body too large (max ${maxBytes} bytes)`);
}

/**
 * Strings as Go's decoder leaves them: an unpaired surrogate (`"\ud800"`)
 * becomes U+FFFD, as encoding/json replaces invalid UTF-16, so it never
 * reaches Postgres' jsonb (which refuses it). A NUL (`"\u0000"`) is refused
 * with a 400: Postgres can store it neither in text nor in jsonb, and no
 * field of an auth request can meaningfully hold one. Keys are treated like
 * values. The depth was bounded before parsing, so recursion is safe here.
 */
export function cleanStrings(value: unknown): unknown {
  if (typeof value === "string") return cleanString(value);
  if (Array.isArray(value)) return value.map(cleanStrings);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[cleanString(k)] = cleanStrings(v);
    return out;
  }
  return value;
}

function cleanString(s: string): string {
  if (s.includes("\u0000")) {
    throw badRequest("validation_failed", "The request body contains a NUL character (\\u0000), which is not accepted");
  }
  return s.replace(LONE_SURROGATE, "\uFFFD");
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Decodes `text` into the fields of `spec`; unknown fields are ignored, as in Go. */
export function decodeParams<S extends Spec>(text: string, typeName: string, spec: S): Out<S> {
  let raw: unknown;
  const parseFail = (detail: string) => badRequest("bad_json", `Could not parse request body as JSON: ${detail}`);
  if (text.trim() === "") throw parseFail("unexpected end of JSON input");
  // nesting and sizes are bounded before anything is parsed, stored or stringified again
  const parsed = parseJsonWithLimits(text, DEFAULT_LIMITS);
  if (parsed.ok) raw = parsed.value;
  else if ("violation" in parsed)
    throw parseFail(`${parsed.violation.message.toLowerCase()} (${parsed.violation.details})`);
  else throw parseFail("invalid character in JSON input");
  if (raw !== null && (typeof raw !== "object" || Array.isArray(raw))) {
    throw parseFail(`json: cannot unmarshal ${jsonKind(raw)} into Go value of type api.${typeName}`);
  }
  const obj = cleanStrings(raw ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(spec)) {
    const v = obj[key];
    const wrong = (goType: string) =>
      parseFail(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${typeName}.${key} of type ${goType}`);
    switch (type) {
      case "string":
        if (v === undefined || v === null) out[key] = "";
        else if (typeof v === "string") out[key] = v;
        else throw wrong("string");
        break;
      case "string?":
        if (v === undefined || v === null) out[key] = null;
        else if (typeof v === "string") out[key] = v;
        else throw wrong("string");
        break;
      case "bool":
        if (v === undefined || v === null) out[key] = undefined;
        else if (typeof v === "boolean") out[key] = v;
        else throw wrong("bool");
        break;
      case "object":
        if (v === undefined || v === null) out[key] = null;
        else if (typeof v === "object" && !Array.isArray(v)) out[key] = v;
        else throw wrong("map[string]interface {}");
        break;
      default:
        out[key] = v;
    }
  }
  return out as Out<S>;
}

export async function readParams<S extends Spec>(
  c: Context,
  maxBytes: number,
  typeName: string,
  spec: S,
): Promise<Out<S>> {
  return decodeParams(await readBody(c, maxBytes), typeName, spec);
}

/** An email address parameter, checked as GoTrue checks it, in lower case. */
export function validateEmail(email: string): string {
  if (email === "") throw badRequest("validation_failed", "An email address is required");
  if (email.length > 255) throw badRequest("validation_failed", "An email address is too long");
  if (
    !/^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(
      email,
    )
  ) {
    throw badRequest("validation_failed", "Unable to validate email address: invalid format");
  }
  return email.toLowerCase();
}
