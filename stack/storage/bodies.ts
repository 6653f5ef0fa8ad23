import type { BucketListQuery, BucketRules, NewBucket } from "./buckets.ts";
import type { ObjectTarget } from "./env.ts";
import type { ListQuery, ListV2Query } from "./list.ts";
import { StorageError, storageErrors } from "./errors.ts";
import { mustBeValidBucketName, mustBeValidKey } from "./names.ts";
import { parseTransform, type TransformOptions } from "./transform.ts";

/**
 * Request bodies and query strings as hosted Storage's route schemas accept
 * them, turned into the typed values the domain functions take. Every
 * refusal of client input is raised here.
 */
type Body = Record<string, unknown>;

function schemaError(message: string): StorageError {
  return new StorageError(400, "InvalidRequest", message, "Bad Request");
}

/**
 * `file_size_limit` given as a string, as hosted parses it: a decimal number
 * with a unit of B, KB, MB or GB (any case, no space), decimal units
 * (1 KB = 1,000 B), the number rounded to three significant digits first.
 */
export function parseFileSize(value: string): number {
  const m = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value);
  if (!m) throw storageErrors.invalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B");
  const number = +parseFloat(m[1]).toPrecision(3);
  const unit = { GB: 1e9, MB: 1e6, KB: 1e3, B: 1 }[m[2].toUpperCase() as "GB" | "MB" | "KB" | "B"];
  return Math.round(number * unit);
}

/** `file_size_limit`: a whole number of bytes or a size string; null clears it, absent leaves it. */
function sizeLimit(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string") return parseFileSize(value);
  throw schemaError("body/file_size_limit must be integer or string");
}

/** `allowed_mime_types`: hosted's pattern (type/subtype, an optional charset, or `*`), empty entries dropped. */
function mimeTypes(value: unknown): string[] | null | undefined {
  if (value === undefined || value === null) return value;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    throw schemaError("body/allowed_mime_types must be array of strings");
  const types = (value as string[]).filter((v) => v);
  for (const type of types) {
    if (type.length > 1000 || !/^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/.test(type))
      throw storageErrors.invalidMimeType(type);
  }
  return types;
}

// Fastify's validator (which hosted keeps) coerces scalars: "60" is 60, "true" is true.
function optionalBool(body: Body, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (value === true || value === "true" || value === 1) return true;
  if (value === false || value === "false" || value === 0) return false;
  throw schemaError(`body/${key} must be boolean`);
}

function optionalInteger(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n)) throw schemaError(`${path} must be integer`);
  return n;
}

export function newBucket(body: Body): NewBucket {
  if (typeof body.name !== "string") throw schemaError("body must have required property 'name'");
  // hosted refuses names with leading or trailing whitespace
  if (body.name.trim() !== body.name) throw storageErrors.invalidBucketName();
  const name = mustBeValidBucketName(body.name);
  const id = body.id === undefined || body.id === "" ? name : mustBeValidBucketName(body.id);
  return { id, name, ...bucketRules(body) };
}

export function bucketRules(body: Body): BucketRules {
  return {
    public: optionalBool(body, "public"),
    fileSizeLimit: sizeLimit(body.file_size_limit),
    allowedMimeTypes: mimeTypes(body.allowed_mime_types),
  };
}

export function bucketListQuery(query: Record<string, string>): BucketListQuery {
  const int = (key: string) => {
    if (query[key] === undefined) return null;
    const n = Number(query[key]);
    if (!Number.isSafeInteger(n) || n < 0) throw schemaError(`querystring/${key} must be integer`);
    return n;
  };
  const column = query.sortColumn ?? "name";
  if (!["id", "name", "created_at", "updated_at"].includes(column))
    throw schemaError("querystring/sortColumn must be equal to one of the allowed values");
  const order = query.sortOrder ?? "asc";
  if (order !== "asc" && order !== "desc")
    throw schemaError("querystring/sortOrder must be equal to one of the allowed values");
  return {
    limit: int("limit"),
    offset: int("offset") ?? 0,
    sortColumn: column as BucketListQuery["sortColumn"],
    sortOrder: order,
    search: query.search ?? "",
  };
}

/** Seconds a signed URL lives: a whole number from 1 up to what a JWT's `exp` can hold (hosted's bound). */
export function expiresIn(raw: unknown, nowMs = Date.now()): number {
  const value = optionalInteger(raw, "body/expiresIn");
  if (value === undefined) throw schemaError("body must have required property 'expiresIn'");
  if (value < 1) throw schemaError("body/expiresIn must be >= 1");
  const max = Math.floor(Number.MAX_SAFE_INTEGER / 1000) - Math.floor(nowMs / 1000);
  if (value > max) throw new StorageError(400, "InvalidParameter", "Invalid Parameter expiresIn");
  return value;
}

/** A signed URL's optional `transform` (hosted's transformation schema, under body/transform). */
export function signTransform(body: Body): TransformOptions | undefined {
  const value = body.transform;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw schemaError("body/transform must be object");
  return parseTransform(value as Body, "body/transform");
}

export function signPaths(body: Body): string[] {
  const paths = body.paths;
  if (!Array.isArray(paths) || paths.some((p) => typeof p !== "string"))
    throw schemaError("body must have required property 'paths'");
  if (paths.length === 0 || paths.length > 1000)
    throw storageErrors.invalidRequest("body/paths must hold 1 to 1000 names");
  return paths as string[];
}

/** The source and destination of a move or a copy (the destination bucket defaults to the source's). */
export function moveArgs(body: Body): { from: ObjectTarget; to: ObjectTarget } {
  for (const key of ["bucketId", "sourceKey", "destinationKey"]) {
    if (typeof body[key] !== "string" || !body[key]) throw storageErrors.missingParameter(key);
  }
  const bucket = mustBeValidBucketName(body.bucketId);
  const destinationBucket = typeof body.destinationBucket === "string" && body.destinationBucket;
  return {
    from: { bucket, name: mustBeValidKey(body.sourceKey as string) },
    to: {
      bucket: destinationBucket ? mustBeValidBucketName(destinationBucket) : bucket,
      name: mustBeValidKey(body.destinationKey as string),
    },
  };
}

export function prefixes(body: Body): string[] {
  const list = body.prefixes;
  if (!Array.isArray(list) || list.some((p) => typeof p !== "string")) throw storageErrors.missingParameter("prefixes");
  if (list.length === 0 || list.length > 1000) throw storageErrors.invalidRequest("prefixes must hold 1 to 1000 names");
  return list as string[];
}

const LIST_COLUMNS = new Set(["name", "created_at", "updated_at", "last_accessed_at"]);

/** `list`'s body (hosted's `storage.search`): one folder level under `prefix`. */
export function listQuery(body: Body): ListQuery {
  let prefix = typeof body.prefix === "string" ? body.prefix : "";
  if (prefix && !prefix.endsWith("/")) prefix += "/";
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  return {
    prefix,
    limit: Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), 1000),
    offset: Math.max(Number(body.offset ?? 0) || 0, 0),
    search: typeof body.search === "string" ? body.search : "",
    column:
      typeof sortBy.column === "string" && LIST_COLUMNS.has(sortBy.column)
        ? (sortBy.column as ListQuery["column"])
        : "name",
    order: sortBy.order === "desc" ? "desc" : "asc",
  };
}

/** `list-v2`'s body, as hosted's schema takes it. */
export function listV2Query(body: Body): ListV2Query {
  if (body.prefix !== undefined && typeof body.prefix !== "string") throw schemaError("body/prefix must be string");
  if (body.cursor !== undefined && typeof body.cursor !== "string") throw schemaError("body/cursor must be string");
  const limit = optionalInteger(body.limit, "body/limit") ?? 1000;
  if (limit < 1) throw schemaError("body/limit must be >= 1");
  let sortColumn: ListV2Query["sortColumn"] = "name";
  let sortOrder: ListV2Query["sortOrder"] = "asc";
  if (body.sortBy !== undefined) {
    const sortBy = body.sortBy as { column?: unknown; order?: unknown } | null;
    if (!sortBy || typeof sortBy !== "object") throw schemaError("body/sortBy must be object");
    if (!["name", "updated_at", "created_at"].includes(sortBy.column as string))
      throw schemaError("body/sortBy/column must be equal to one of the allowed values");
    if (sortBy.order !== undefined && sortBy.order !== "asc" && sortBy.order !== "desc")
      throw schemaError("body/sortBy/order must be equal to one of the allowed values");
    sortColumn = sortBy.column as ListV2Query["sortColumn"];
    sortOrder = (sortBy.order as ListV2Query["sortOrder"] | undefined) ?? "asc";
  }
  return {
    prefix: (body.prefix as string | undefined) ?? "",
    limit: Math.min(limit, 1000),
    cursor: (body.cursor as string | undefined) || null,
    withDelimiter: optionalBool(body, "with_delimiter") ?? false,
    sortColumn,
    sortOrder,
  };
}
