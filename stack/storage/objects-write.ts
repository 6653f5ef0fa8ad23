import crypto from "node:crypto";
import type { Queryable } from "../db/types.ts";
import {
  allowDeletes,
  asCaller,
  findBucket,
  findObject,
  OBJECT_COLUMNS,
  ownerOf,
  type Bucket,
  type Caller,
  type ObjectTarget,
  type StorageEnv,
} from "./env.ts";
import { storageErrors } from "./errors.ts";
import type { ObjectMetadata, ObjectRow } from "./serve-file.ts";
import { receiveUpload, type ReceivedUpload, type UploadBody } from "./upload-body.ts";

/**
 * Writing objects. An upload: the bucket's rules, then a trial of the row
 * write as the caller (rolled back) so a refused upload is refused before any
 * byte moves, then the bytes to a temporary file, renamed to a fresh version
 * id, then the row in one transaction as the caller. If that transaction
 * fails the new file is removed; once it commits, the replaced version's file
 * is. A crash between rename and commit leaves an unreferenced file, never a
 * row without its bytes. A copy or a move into another bucket must fit that
 * bucket's types and size, as an upload there must (hosted checks only the
 * policies on copy and move; the stack holds the bucket's rules too).
 */
class Rollback extends Error {}

export function mimeAllowed(bucket: Pick<Bucket, "allowed_mime_types">, contentType: string): boolean {
  const allowed = bucket.allowed_mime_types;
  if (!allowed || allowed.length === 0) return true;
  const type = contentType.split(";")[0].trim().toLowerCase();
  return allowed.some((pattern) => {
    const p = pattern.trim().toLowerCase();
    return p === type || p === "*/*" || (p.endsWith("/*") && type.startsWith(p.slice(0, -1)));
  });
}

interface WriteTarget {
  bucket: string;
  name: string;
  owner: string | null;
  upsert: boolean;
}

async function writeRow(
  tx: Queryable,
  role: string,
  t: WriteTarget,
  id: string,
  version: string,
  metadata: ObjectMetadata | null,
  userMetadata: unknown,
) {
  // the old version is read with the stack's rights (and locked), so its file can go once this commits
  await tx.query("set local role none");
  const old = await tx.query<{ id: string; version: string | null }>(
    "select id, version from storage.objects where bucket_id = $1 and name = $2 for update",
    [t.bucket, t.name],
  );
  await tx.query("select set_config('role', $1, true)", [role]);
  const conflict = t.upsert
    ? `on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id,
         version = excluded.version, metadata = excluded.metadata, user_metadata = excluded.user_metadata,
         last_accessed_at = now()`
    : "";
  await tx.query(
    `insert into storage.objects (id, bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3, $4::uuid, $5, $6, $7::jsonb, $8::jsonb) ${conflict}`,
    [
      id,
      t.bucket,
      t.name,
      t.owner,
      t.owner,
      version,
      metadata ? JSON.stringify(metadata) : null,
      JSON.stringify(userMetadata ?? {}),
    ],
  );
  return { id: old.rows[0]?.id ?? id, replaced: old.rows[0]?.version ?? null };
}

/** The largest object a bucket takes: its own limit, never above the stack's. */
function sizeLimitOf(env: StorageEnv, bucket: Bucket): number {
  const global = env.ctx.config.storage.fileSizeLimit;
  return bucket.file_size_limit ? Math.min(Number(bucket.file_size_limit), global) : global;
}

/** An existing object's bytes against a destination bucket's rules (copy, move). */
function mustFitBucket(env: StorageEnv, bucket: Bucket, source: ObjectRow): void {
  const type = source.metadata?.mimetype || "application/octet-stream";
  if (!mimeAllowed(bucket, type)) throw storageErrors.invalidMimeType(type);
  if (Number(source.metadata?.size ?? 0) > sizeLimitOf(env, bucket)) throw storageErrors.tooLarge();
}

/**
 * The shared upload path: direct, upsert and signed uploads. The row is
 * written as `runner` (the caller, or a signed URL's maker) with `owner`.
 */
export async function uploadObject(
  env: StorageEnv,
  runner: Caller,
  target: ObjectTarget,
  upload: UploadBody,
  opts: { upsert: boolean; owner: string | null },
) {
  const bucket = await findBucket(env, target.bucket);
  const write: WriteTarget = { bucket: bucket.id, name: target.name, owner: opts.owner, upsert: opts.upsert };
  await canUpload(env, runner, write);
  const received: ReceivedUpload = await receiveUpload(upload, env.store, {
    limit: sizeLimitOf(env, bucket),
    drainLimit: env.ctx.config.storage.fileSizeLimit + 1024 * 1024,
    checkType: (type) => {
      if (!mimeAllowed(bucket, type)) throw storageErrors.invalidMimeType(type);
    },
  });
  const version = crypto.randomUUID();
  const metadata: ObjectMetadata = {
    eTag: `"${received.md5}"`,
    size: received.size,
    mimetype: received.contentType,
    cacheControl: received.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: received.size,
    httpStatusCode: 200,
  };
  try {
    await env.store.commit(received.tmp, bucket.id, version);
  } catch (error) {
    await env.store.discard(received.tmp);
    throw error;
  }
  let written: { id: string; replaced: string | null };
  try {
    written = await asCaller(env, runner, (tx) =>
      writeRow(tx, runner.role, write, crypto.randomUUID(), version, metadata, received.userMetadata),
    );
  } catch (error) {
    await env.store.remove(bucket.id, version);
    throw error;
  }
  await env.store.remove(bucket.id, written.replaced);
  return { Id: written.id, Key: `${bucket.id}/${target.name}` };
}

/** Tries the row write as the caller and rolls it back: RLS refuses before the bytes are read. */
export async function canUpload(env: StorageEnv, caller: Caller, target: WriteTarget): Promise<void> {
  try {
    await asCaller(env, caller, async (tx) => {
      await writeRow(tx, caller.role, target, crypto.randomUUID(), crypto.randomUUID(), null, null);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
}

/** Renames an object (UPDATE as the caller); across buckets the bytes get a new version file first. */
export async function moveObject(env: StorageEnv, caller: Caller, from: ObjectTarget, to: ObjectTarget) {
  const destination = await findBucket(env, to.bucket);
  const source = await asCaller(env, caller, (tx) => findObject(tx, from.bucket, from.name));
  const sameBucket = from.bucket === to.bucket;
  if (!sameBucket) mustFitBucket(env, destination, source);
  const version = sameBucket ? source.version : crypto.randomUUID();
  if (!sameBucket && source.version && version) await env.store.copy(from.bucket, source.version, to.bucket, version);
  try {
    await asCaller(env, caller, async (tx) => {
      const res = await tx.query(
        `update storage.objects set bucket_id = $3, name = $4, version = $5, owner = coalesce($6::uuid, owner), owner_id = coalesce($6::text, owner_id)
         where bucket_id = $1 and name = $2`,
        [from.bucket, from.name, to.bucket, to.name, version, ownerOf(caller.claims)],
      );
      if (res.rowCount === 0) throw storageErrors.noSuchKey();
    });
  } catch (error) {
    if (!sameBucket && version) await env.store.remove(to.bucket, version);
    throw error;
  }
  if (!sameBucket) await env.store.remove(from.bucket, source.version);
  return { message: "Successfully moved" };
}

/** Copies an object: SELECT the source and INSERT the copy, both as the caller; the copy must fit its bucket. */
export async function copyObject(
  env: StorageEnv,
  caller: Caller,
  from: ObjectTarget,
  to: ObjectTarget,
  upsert: boolean,
) {
  const destination = await findBucket(env, to.bucket);
  const source = await asCaller(env, caller, (tx) => findObject(tx, from.bucket, from.name));
  if (!source.version) throw storageErrors.noSuchKey();
  mustFitBucket(env, destination, source);
  const version = crypto.randomUUID();
  await env.store.copy(from.bucket, source.version, to.bucket, version);
  const target: WriteTarget = { bucket: to.bucket, name: to.name, owner: ownerOf(caller.claims), upsert };
  let written: { id: string; replaced: string | null };
  try {
    const metadata = { ...source.metadata!, lastModified: new Date().toISOString() };
    written = await asCaller(env, caller, (tx) =>
      writeRow(tx, caller.role, target, crypto.randomUUID(), version, metadata, source.user_metadata),
    );
  } catch (error) {
    await env.store.remove(to.bucket, version);
    throw error;
  }
  await env.store.remove(to.bucket, written.replaced);
  return { Id: written.id, Key: `${to.bucket}/${to.name}`, name: to.name, bucket_id: to.bucket };
}

/** Removes many objects (DELETE … RETURNING as the caller, so delete and select policies apply), then their files. */
export async function removeObjects(env: StorageEnv, caller: Caller, bucket: string, names: string[]) {
  const removed = await asCaller(env, caller, async (tx) => {
    await allowDeletes(tx);
    const { rows } = await tx.query<ObjectRow & { owner: string | null }>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
      [bucket, names],
    );
    return rows;
  });
  for (const row of removed) await env.store.remove(row.bucket_id, row.version);
  return removed.map((r) => ({
    bucket_id: r.bucket_id,
    name: r.name,
    id: r.id,
    updated_at: r.updated_at,
    created_at: r.created_at,
    last_accessed_at: r.last_accessed_at,
    metadata: r.metadata,
  }));
}

/** Removes one object; none removed (missing, or the policies hide it) is hosted's 404. */
export async function removeObject(env: StorageEnv, caller: Caller, target: ObjectTarget) {
  const removed = await removeObjects(env, caller, target.bucket, [target.name]);
  if (removed.length === 0) throw storageErrors.noSuchKey();
  return { message: "Successfully deleted" };
}
