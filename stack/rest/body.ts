/**
 * A write's or a POST call's body: read up to the size limit (413), then
 * parsed by its Content-Type as PostgREST does: JSON (within the limits of
 * stack/http/limits.ts), a form (its fields as one JSON object), or an
 * unsupported media type (415). `bodyText` is the JSON the SQL binds.
 */
import {
  BodyTooLargeError,
  checkFormField,
  parseJsonWithLimits,
  readBodyLimited,
  type InputLimits,
} from "../http/limits.ts";
import { errors, limitError } from "./errors.ts";

export async function readBody(
  request: Request,
  kind: "table" | "rpc",
  maxBytes: number,
  limits: InputLimits,
): Promise<{ body: unknown; bodyText: string | null }> {
  let buf: Uint8Array;
  try {
    buf = await readBodyLimited(request, maxBytes);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw errors.payloadTooLarge(maxBytes);
    throw e;
  }
  let bodyText: string | null = new TextDecoder().decode(buf);
  let body: unknown = undefined;
  const ct = (request.headers.get("content-type") ?? "application/json").toLowerCase();
  if (bodyText.trim() === "") {
    // an empty body calls a function without arguments
    body = kind === "rpc" ? {} : undefined;
    bodyText = kind === "rpc" ? "{}" : null;
  } else if (ct.includes("json") || ct.startsWith("*/*")) {
    const result = parseJsonWithLimits(bodyText, limits);
    if (result.ok) body = result.value;
    else if ("violation" in result) throw limitError("PGRST102", result.violation);
    else throw errors.invalidBody("Empty or invalid json");
  } else if (ct.startsWith("application/x-www-form-urlencoded")) {
    const form = Object.fromEntries(new URLSearchParams(bodyText));
    for (const [k, v] of Object.entries(form)) {
      const bad = checkFormField(k, v, limits);
      if (bad) throw limitError("PGRST102", bad);
    }
    body = form;
    bodyText = JSON.stringify(form);
  } else {
    throw errors.mediaType([ct]);
  }
  if (kind === "table" && body === undefined) throw errors.invalidBody("Empty or invalid json");
  return { body, bodyText };
}
