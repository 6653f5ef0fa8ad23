import crypto from "node:crypto";
import type { Queryable } from "../db/types.ts";
import {
  allowDeletes,
  asCaller,
  findBucket,
  jsonBody,
  OBJECT_COLUMNS,
  ownerOf,
  type Bucket,
  type Caller,
  type StorageEnv,
} from "./env.ts";
import { storageErrors } from "./errors.ts";
import { mustBeValidBucketName, mustBeValidKey } from "./names.ts";
import type { ObjectMetadata, ObjectRow } from "./serve-file.ts";
import { receiveUpload, type ReceivedUpload } from "./upload-body.ts";

/**
 * Writing objects. An upload: the bucket's rules, then a trial of the row
 * write as the caller (rolled back) so a refused upload is refused before any
 * byte moves, then the bytes to a temporary file, renamed to a fresh version
 * id, then the row in one transaction as the caller. If that transaction
 * fails the new file is removed; once it commits, the replaced version's file
 * is. A crash between rename and commit leaves an unreferenced file, never a
 * row without its bytes.
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
      userMetadata ? JSON.stringify(userMetadata) : null,
    ],
  );
  return { id: old.rows[0]?.id ?? id, replaced: old.rows[0]?.version ?? null };
}

/** The shared upload path: direct, upsert and signed uploads. `asStack` runs the row write with the stack's rights (signed uploads). */
export async function uploadObject(
  env: StorageEnv,
  caller: Caller,
  bucketId: string,
  key: string,
  opts: { upsert: boolean; owner?: string | null; asStack?: boolean },
) {
  mustBeValidBucketName(bucketId);
  const name = mustBeValidKey(key);
  const bucket = await findBucket(env, bucketId);
  const target: WriteTarget = {
    bucket: bucket.id,
    name,
    owner: opts.owner !== undefined ? opts.owner : ownerOf(caller.claims),
    upsert: opts.upsert,
  };
  const runner = opts.asStack ? stackCaller(caller) : caller;

  await canUpload(env, runner, target);
  const global = env.ctx.config.storage.fileSizeLimit;
  const limit = bucket.file_size_limit ? Math.min(Number(bucket.file_size_limit), global) : global;
  const received: ReceivedUpload = await receiveUpload(caller.request, env.store, {
    limit,
    drainLimit: global + 1024 * 1024,
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
      writeRow(tx, runner.role, target, crypto.randomUUID(), version, metadata, received.userMetadata),
    );
  } catch (error) {
    await env.store.remove(bucket.id, version);
    throw error;
  }
  await env.store.remove(bucket.id, written.replaced);
  return { Id: written.id, Key: `${bucket.id}/${name}` };
}

/** The caller's claims but the stack's rights (signed upload tokens were checked when they were made). */
function stackCaller(caller: Caller): Caller {
  return { ...caller, role: "service_role", claims: { ...caller.claims, role: "service_role" } };
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

interface MoveBody {
  bucketId?: string;
  sourceKey?: string;
  destinationKey?: string;
  destinationBucket?: string;
}

function moveArgs(body: MoveBody) {
  if (!body.bucketId) throw storageErrors.missingParameter("bucketId");
  if (!body.sourceKey) throw storageErrors.missingParameter("sourceKey");
  if (!body.destinationKey) throw storageErrors.missingParameter("destinationKey");
  const from = { bucket: mustBeValidBucketName(body.bucketId), name: mustBeValidKey(body.sourceKey) };
  const to = {
    bucket: mustBeValidBucketName(body.destinationBucket || body.bucketId),
    name: mustBeValidKey(body.destinationKey),
  };
  return { from, to };
}

/** Renames an object (UPDATE as the caller); across buckets the bytes get a new version file first. */
export async function moveObject(env: StorageEnv, caller: Caller) {
  const { from, to } = moveArgs(await jsonBody<MoveBody>(caller.request));
  await findBucket(env, to.bucket);
  const source = await asCaller(env, caller, (tx) => selectObject(tx, from.bucket, from.name));
  const sameBucket = from.bucket === to.bucket;
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

/** Copies an object: SELECT the source and INSERT the copy, both as the caller. */
export async function copyObject(env: StorageEnv, caller: Caller) {
  const { from, to } = moveArgs(await jsonBody<MoveBody>(caller.request));
  await findBucket(env, to.bucket);
  const upsert = caller.request.headers.get("x-upsert") === "true";
  const source = await asCaller(env, caller, (tx) => selectObject(tx, from.bucket, from.name));
  if (!source.version) throw storageErrors.noSuchKey();
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

async function selectObject(tx: Queryable, bucket: string, name: string): Promise<ObjectRow> {
  const { rows } = await tx.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, name],
  );
  if (!rows[0]) throw storageErrors.noSuchKey();
  return rows[0];
}

/** Removes many objects (DELETE … RETURNING as the caller, so delete and select policies apply), then their files. */
export async function removeObjects(env: StorageEnv, caller: Caller, bucketId: string) {
  mustBeValidBucketName(bucketId);
  const body = await jsonBody<{ prefixes?: unknown }>(caller.request);
  if (!Array.isArray(body.prefixes) || body.prefixes.some((p) => typeof p !== "string"))
    throw storageErrors.missingParameter("prefixes");
  if (body.prefixes.length === 0 || body.prefixes.length > 1000)
    throw storageErrors.invalidRequest("prefixes must hold 1 to 1000 names");
  const removed = await asCaller(env, caller, async (tx) => {
    await allowDeletes(tx);
    const { rows } = await tx.query<ObjectRow & { owner: string | null }>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
      [bucketId, body.prefixes],
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
