/**
 * Supabase Storage's errors: a body {statusCode, code, error, message} where
 * statusCode is the "real" status as a string, while the HTTP status is 400 for
 * every client error (500 for server errors) — hosted Storage answers that way
 * and storage-js reads both (error.status = HTTP, error.statusCode = body).
 * A few answers carry their own HTTP status (403 for a wrong role, 416 range).
 */
export class StorageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly error: string = code,
    readonly httpStatus: number = statusCode >= 500 ? 500 : 400,
  ) {
    super(message);
    this.name = "StorageError";
  }

  body() {
    return { statusCode: String(this.statusCode), code: this.code, error: this.error, message: this.message };
  }
}

export const storageErrors = {
  noSuchBucket: () => new StorageError(404, "NoSuchBucket", "Bucket not found", "Bucket not found"),
  noSuchKey: () => new StorageError(404, "NoSuchKey", "Object not found", "not_found"),
  invalidKey: (key: string) => new StorageError(400, "InvalidKey", `Invalid key: ${key}`),
  invalidBucketName: () => new StorageError(400, "InvalidBucketName", "Bucket name invalid", "Invalid Input"),
  invalidRequest: (message: string) => new StorageError(400, "InvalidRequest", message),
  missingParameter: (name: string) => new StorageError(400, "MissingParameter", `Missing Required Parameter ${name}`),
  invalidJwt: (message: string) => new StorageError(400, "InvalidJWT", message),
  accessDenied: (message: string, httpStatus = 400) =>
    new StorageError(403, "AccessDenied", message, "Unauthorized", httpStatus),
  keyExists: () => new StorageError(409, "KeyAlreadyExists", "The resource already exists", "Duplicate"),
  bucketExists: () => new StorageError(409, "BucketAlreadyExists", "The resource already exists", "Duplicate"),
  bucketNotEmpty: () => new StorageError(409, "ResourceNotEmpty", "The bucket you tried to delete is not empty"),
  tooLarge: (limit = "the maximum allowed size") =>
    new StorageError(413, "EntityTooLarge", `The object exceeded ${limit}`, "Payload too large"),
  invalidMimeType: (type: string) =>
    new StorageError(415, "InvalidMimeType", `mime type ${type} is not supported`, "invalid_mime_type"),
  invalidSignature: (message = "Invalid signature") => new StorageError(400, "InvalidSignature", message),
  invalidRange: () => new StorageError(416, "InvalidRange", "invalid range provided", "invalid_range", 416),
  noContent: () => new StorageError(400, "InvalidRequest", "No content provided"),
  internal: () => new StorageError(500, "InternalError", "Internal server error"),
};

/** Postgres errors met while acting on objects, in Storage's words. */
export function fromPgError(error: unknown): StorageError | null {
  const e = error as { code?: string; message?: string };
  if (!e || typeof e.code !== "string") return null;
  if (e.code === "42501") return storageErrors.accessDenied(e.message ?? "new row violates row-level security policy");
  if (e.code === "23505") return storageErrors.keyExists();
  if (e.code === "23503") return storageErrors.noSuchBucket();
  if (e.code === "22P02" || e.code === "22021") return storageErrors.invalidRequest(e.message ?? "invalid input");
  return null;
}
