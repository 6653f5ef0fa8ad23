import { StorageError } from "./errors.ts";

/**
 * Image transformation options as hosted Storage takes them (its
 * `transformationOptionsSchema`): from a render URL's query string, from the
 * `transform` of a signed-URL request, and back out of a signed token's
 * `transformations` string. Hosted hands them to imgproxy as URL segments;
 * the same segments are its `X-Transformations` header, which storage-js's
 * tests read, so they are printed here exactly as hosted prints them.
 */
export type ResizeMode = "cover" | "contain" | "fill";
export type RequestedFormat = "origin" | "avif" | "webp";

export interface TransformOptions {
  width?: number;
  height?: number;
  resize?: ResizeMode;
  format?: RequestedFormat;
  quality?: number;
}

/** Hosted's documented bounds: 1–2500 px (larger values are clamped, as hosted clamps them). */
export const SIZE_LIMITS = { min: 1, max: 2500 };
/** imgproxy's default, as hosted documents it. */
export const DEFAULT_QUALITY = 80;

const RESIZE_MODES = ["cover", "contain", "fill"] as const;
const FORMATS = ["origin", "avif", "webp"] as const;

function schemaError(message: string): StorageError {
  return new StorageError(400, "InvalidRequest", message, "Bad Request");
}

/** Fastify's coercion (which hosted keeps): "200" is 200, "2.5" and "abc" are not integers. */
function integer(value: unknown, path: string, min: number, max?: number): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || !Number.isFinite(n))
    throw schemaError(`${path} must be integer`);
  if (n < min) throw schemaError(`${path} must be >= ${min}`);
  if (max !== undefined && n > max) throw schemaError(`${path} must be <= ${max}`);
  return n;
}

function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value))
    throw schemaError(`${path} must be equal to one of the allowed values`);
  return value as T;
}

/**
 * The options under `prefix` ("querystring" or "body/transform"), checked as
 * hosted's schema checks them; anything else in the object is ignored (Fastify
 * drops unknown properties).
 */
export function parseTransform(source: Record<string, unknown>, prefix: string): TransformOptions {
  const options: TransformOptions = {
    width: integer(source.width, `${prefix}/width`, 0),
    height: integer(source.height, `${prefix}/height`, 0),
    resize: oneOf(source.resize, `${prefix}/resize`, RESIZE_MODES),
    format: oneOf(source.format, `${prefix}/format`, FORMATS),
    quality: integer(source.quality, `${prefix}/quality`, 20, 100),
  };
  for (const key of Object.keys(options) as (keyof TransformOptions)[])
    if (options[key] === undefined) delete options[key];
  return options;
}

const clamp = (n: number) => Math.min(Math.max(n, SIZE_LIMITS.min), SIZE_LIMITS.max);

function imgproxyResize(resize: string | undefined): string {
  if (resize === "contain") return "fit";
  if (resize === "fill") return "force";
  return "fill"; // cover, the default (and whatever else a signed token holds)
}

/**
 * The segments hosted sends imgproxy (and answers as `X-Transformations`):
 * a zero or missing size is left out; sizes are clamped; the resize mode is
 * imgproxy's name for it. `signed` prints the form hosted keeps in a signed
 * token instead (`resize:<mode>`, even when no mode was given).
 */
export function transformSegments(options: TransformOptions, signed = false): string[] {
  const segments: string[] = [];
  if (options.height) segments.push(`height:${clamp(options.height)}`);
  if (options.width) segments.push(`width:${clamp(options.width)}`);
  if (options.width || options.height)
    segments.push(signed ? `resize:${options.resize}` : `resizing_type:${imgproxyResize(options.resize)}`);
  if (options.quality) segments.push(`quality:${options.quality}`);
  if (options.format && options.format !== "origin") segments.push(`format:${options.format}`);
  return segments;
}

/** A signed token's `transformations` string back into options (hosted's `setTransformationsFromString`). */
export function transformFromSigned(transformations: string): TransformOptions {
  const options: TransformOptions = {};
  for (const part of transformations.split(",")) {
    const [name, value] = part.split(":");
    if (value === undefined || value === "") continue;
    if (name === "height" || name === "width" || name === "quality") {
      const n = parseInt(value, 10);
      if (Number.isFinite(n)) options[name] = n;
    } else if (name === "resize") {
      options.resize = value as ResizeMode; // "undefined" from an unset mode reads as cover, as hosted
    } else if (name === "format") {
      options.format = value as RequestedFormat;
    }
  }
  return options;
}

/** What a transformation writes: the source's own format, or WebP / AVIF. */
export type OutputFormat = "jpeg" | "png" | "webp" | "avif" | "gif" | "tiff";

/**
 * The format to write. As hosted: `format=webp|avif` asks for one; no format
 * means WebP when the client accepts it (hosted's imgproxy runs with WebP
 * detection only); `origin` and everything else keep the source's format,
 * or PNG / JPEG (with / without alpha) when that format cannot be written.
 */
export function outputFormat(
  requested: RequestedFormat | undefined,
  accept: string | null,
  source: { format: string; hasAlpha: boolean },
): OutputFormat {
  if (requested === "webp" || requested === "avif") return requested;
  if (requested === undefined && accept && /(^|[\s,])image\/webp($|[\s,;])/i.test(accept)) return "webp";
  // libvips calls AVIF "heif" (sharp's build decodes AV1 only, so a "heif" here is an AVIF)
  const own = source.format === "heif" ? "avif" : source.format;
  if (own in CONTENT_TYPES) return own as OutputFormat;
  return source.hasAlpha ? "png" : "jpeg";
}

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  gif: "image/gif",
  tiff: "image/tiff",
};
