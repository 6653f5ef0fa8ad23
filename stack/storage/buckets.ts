import { allowDeletes, asCaller, jsonBody, ownerOf, type Caller, type StorageEnv } from "./env.ts";
import { storageErrors } from "./errors.ts";
import { mustBeValidBucketName } from "./names.ts";
import type { ObjectRow } from "./serve-file.ts";

/**
 * Bucket endpoints. They run as the caller too: storage.buckets has RLS and
 * no policies (as on a hosted project), so in practice only the service role
 * lists, creates, changes and deletes buckets; apps make theirs in migrations.
 */
const BUCKET_COLUMNS =
  "id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type, created_at, updated_at";

const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

/** `file_size_limit` as a number of bytes or a string like "2MB" (as hosted accepts). */
export function parseSizeLimit(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value || null;
  if (typeof value === "string") {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)?\s*$/i.exec(value);
    if (m) return Math.round(Number(m[1]) * UNITS[(m[2] ?? "B").toUpperCase()]) || null;
  }
  throw storageErrors.invalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B");
}

function mimeList(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || !/^[\w.+-]+\/[\w.+*-]+$/.test(v))) {
    throw storageErrors.invalidRequest("Invalid allowed_mime_types");
  }
  return value as string[];
}

export async function listBuckets(env: StorageEnv, caller: Caller) {
  const q = new URL(caller.request.url).searchParams;
  const limit = Math.min(Number(q.get("limit") ?? 1000) || 1000, 1000);
  const offset = Math.max(Number(q.get("offset") ?? 0) || 0, 0);
  const column = ["id", "name", "created_at", "updated_at"].includes(q.get("sortColumn") ?? "")
    ? q.get("sortColumn")
    : "name";
  const order = q.get("sortOrder") === "desc" ? "desc" : "asc";
  const search = q.get("search") ?? "";
  return asCaller(env, caller, async (tx) => {
    const { rows } = await tx.query(
      `select ${BUCKET_COLUMNS} from storage.buckets where name ilike '%' || $1 || '%' order by ${column} ${order} limit $2 offset $3`,
      [search, limit, offset],
    );
    return rows;
  });
}

export async function getBucket(env: StorageEnv, caller: Caller, id: string) {
  return asCaller(env, caller, async (tx) => {
    const { rows } = await tx.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id]);
    if (!rows[0]) throw storageErrors.noSuchBucket();
    return rows[0];
  });
}

interface BucketBody {
  id?: unknown;
  name?: unknown;
  public?: unknown;
  file_size_limit?: unknown;
  allowed_mime_types?: unknown;
}

export async function createBucket(env: StorageEnv, caller: Caller) {
  const body = await jsonBody<BucketBody>(caller.request);
  const name = mustBeValidBucketName(body.name);
  const id = body.id === undefined ? name : mustBeValidBucketName(body.id);
  const owner = ownerOf(caller.claims);
  await asCaller(env, caller, (tx) =>
    tx.query(
      `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
       values ($1, $2, $3::uuid, $3, $4, $5, $6::text[])`,
      [id, name, owner, body.public === true, parseSizeLimit(body.file_size_limit), mimeList(body.allowed_mime_types)],
    ),
  ).catch((error: unknown) => {
    if ((error as { code?: string }).code === "KeyAlreadyExists") throw storageErrors.bucketExists();
    throw error;
  });
  return { name: id };
}

export async function updateBucket(env: StorageEnv, caller: Caller, id: string) {
  const body = await jsonBody<BucketBody>(caller.request);
  const sets: string[] = [];
  const values: unknown[] = [id];
  const set = (column: string, value: unknown, cast = "") => {
    values.push(value);
    sets.push(`${column} = $${values.length}${cast}`);
  };
  if (body.public !== undefined) set("public", body.public === true);
  if (body.file_size_limit !== undefined) set("file_size_limit", parseSizeLimit(body.file_size_limit));
  if (body.allowed_mime_types !== undefined) set("allowed_mime_types", mimeList(body.allowed_mime_types), "::text[]");
  sets.push("updated_at = now()");
  await asCaller(env, caller, async (tx) => {
    const res = await tx.query(`update storage.buckets set ${sets.join(", ")} where id = $1`, values);
    if (res.rowCount === 0) throw storageErrors.noSuchBucket();
  });
  return { message: "Successfully updated" };
}

export async function emptyBucket(env: StorageEnv, caller: Caller, id: string) {
  await getBucket(env, caller, id);
  const removed = await asCaller(env, caller, async (tx) => {
    await allowDeletes(tx);
    const { rows } = await tx.query<Pick<ObjectRow, "bucket_id" | "version">>(
      "delete from storage.objects where bucket_id = $1 returning bucket_id, version",
      [id],
    );
    return rows;
  });
  for (const row of removed) await env.store.remove(row.bucket_id, row.version);
  return { message: "Successfully emptied" };
}

export async function deleteBucket(env: StorageEnv, caller: Caller, id: string) {
  await asCaller(env, caller, async (tx) => {
    const found = await tx.query(`select 1 from storage.buckets where id = $1`, [id]);
    if (found.rows.length === 0) throw storageErrors.noSuchBucket();
    const used = await tx.query("select 1 from storage.objects where bucket_id = $1 limit 1", [id]);
    if (used.rows.length > 0) throw storageErrors.bucketNotEmpty();
    await allowDeletes(tx);
    await tx.query("delete from storage.buckets where id = $1", [id]);
  });
  return { message: "Successfully deleted" };
}
