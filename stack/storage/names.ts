import { storageErrors } from "./errors.ts";

/**
 * Object keys and bucket names, checked as hosted Storage checks them (S3-safe
 * characters only), plus what a file store on disk must also refuse: `.` and
 * `..` segments, a leading `/`, empty segments. Names never become file paths
 * (files are named by version id), so this is about clear answers, not safety.
 */
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;
export const MAX_KEY_BYTES = 1024;

export function isValidKey(key: string): boolean {
  if (key.length === 0 || Buffer.byteLength(key) > MAX_KEY_BYTES || !VALID_OBJECT_KEY.test(key)) return false;
  if (key.startsWith("/")) return false;
  const parts = key.split("/");
  // a trailing slash names a folder, not an object
  if (parts.some((p) => p === "" || p === "." || p === "..")) return false;
  return true;
}

export function mustBeValidKey(key: string | null | undefined): string {
  if (typeof key !== "string" || !isValidKey(key)) throw storageErrors.invalidKey(typeof key === "string" ? key : "");
  return key;
}

export function isValidBucketName(name: string): boolean {
  return name.length > 0 && name.length < 101 && VALID_BUCKET_NAME.test(name) && name !== "." && name !== "..";
}

export function mustBeValidBucketName(name: unknown): string {
  if (typeof name !== "string" || !isValidBucketName(name)) throw storageErrors.invalidBucketName();
  return name;
}

/** Percent-decodes one URL path piece; bytes that are not UTF-8 are an invalid key. */
export function decodePathPart(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw storageErrors.invalidKey(raw);
  }
}
