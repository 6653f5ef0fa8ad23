import { allowDeletes, asCaller, iso, ownerOf, type Caller, type StorageEnv } from "./env.ts";
import { storageErrors } from "./errors.ts";
import type { ObjectRow } from "./serve-file.ts";

/**
 * Bucket endpoints. They run as the caller too: storage.buckets has RLS and
 * no policies (as on a hosted project), so in practice only the service role
 * lists, creates, changes and deletes buckets; apps make theirs in migrations.
 * A bucket reads as hosted's JSON: its columns (no `owner_id`), timestamps in
 * ISO form; the list adds `type`, as hosted does for current clients.
 */

/** What a create or an update sets (absent: left as it is; null: cleared). */
export interface BucketRules {
  public?: boolean;
  fileSizeLimit?: number | null;
  allowedMimeTypes?: string[] | null;
}

/** A new bucket, checked at the edge (bodies.ts). */
export interface NewBucket extends BucketRules {
  id: string;
  name: string;
}

export interface BucketListQuery {
  limit: number | null;
  offset: number;
  sortColumn: "id" | "name" | "created_at" | "updated_at";
  sortOrder: "asc" | "desc";
  search: string;
}

const BUCKET_COLUMNS = `id, name, owner, public, ${iso("created_at")} as created_at, ${iso("updated_at")} as updated_at,
  file_size_limit, allowed_mime_types`;

export async function listBuckets(env: StorageEnv, caller: Caller, q: BucketListQuery) {
  return asCaller(env, caller, async (tx) => {
    const { rows } = await tx.query(
      `select ${BUCKET_COLUMNS}, type from storage.buckets where name ilike '%' || $1 || '%'
        order by ${q.sortColumn} ${q.sortOrder} limit $2 offset $3`,
      [q.search, q.limit, q.offset],
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

/** A bucket's own limit may not pass the stack's global one (hosted answers 413). */
function checkSizeLimit(env: StorageEnv, limit: number | null | undefined): void {
  if (limit && limit > env.ctx.config.storage.fileSizeLimit) throw storageErrors.tooLarge();
}

export async function createBucket(env: StorageEnv, caller: Caller, bucket: NewBucket) {
  checkSizeLimit(env, bucket.fileSizeLimit);
  const owner = ownerOf(caller.claims);
  await asCaller(env, caller, (tx) =>
    tx.query(
      `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
       values ($1, $2, $3::uuid, $3, $4, $5, $6::text[])`,
      [
        bucket.id,
        bucket.name,
        owner,
        bucket.public ?? false,
        bucket.fileSizeLimit ?? null,
        bucket.allowedMimeTypes ?? null,
      ],
    ),
  ).catch((error: unknown) => {
    if ((error as { code?: string }).code === "KeyAlreadyExists") throw storageErrors.bucketExists();
    throw error;
  });
  return { name: bucket.name };
}

export async function updateBucket(env: StorageEnv, caller: Caller, id: string, changes: BucketRules) {
  if (Object.values(changes).every((v) => v === undefined)) throw storageErrors.noContent();
  checkSizeLimit(env, changes.fileSizeLimit);
  const sets: string[] = [];
  const values: unknown[] = [id];
  const set = (column: string, value: unknown, cast = "") => {
    values.push(value);
    sets.push(`${column} = $${values.length}${cast}`);
  };
  if (changes.public !== undefined) set("public", changes.public);
  if (changes.fileSizeLimit !== undefined) set("file_size_limit", changes.fileSizeLimit);
  if (changes.allowedMimeTypes !== undefined) set("allowed_mime_types", changes.allowedMimeTypes, "::text[]");
  sets.push("updated_at = now()");
  await asCaller(env, caller, async (tx) => {
    const res = await tx.query(`update storage.buckets set ${sets.join(", ")} where id = $1`, values);
    if (res.rowCount === 0) throw storageErrors.noSuchBucket();
  });
  return { message: "Successfully updated" };
}

/** Hosted queues the removal and answers at once; here it is done before the answer, in the same words. */
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
  return { message: "Empty bucket has been queued. Completion may take up to an hour." };
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
