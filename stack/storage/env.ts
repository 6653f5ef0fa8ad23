import type { ServiceContext } from "../context.ts";
import type { JwtClaims, Queryable } from "../db/types.ts";
import { fromPgError, storageErrors } from "./errors.ts";
import type { FileStore } from "./files.ts";
import type { ObjectRow } from "./serve-file.ts";

/** What the Storage API's handlers share. */
export interface StorageEnv {
  ctx: ServiceContext;
  store: FileStore;
}

/** The caller, from its JWT (or the apikey header), as the REST service resolves it, and its request line (for `request.method` / `request.path`). */
export interface Caller {
  role: string;
  claims: JwtClaims;
  method: string;
  path: string;
}

/** An object named by a path: its bucket and its key, decoded and checked at the edge. */
export interface ObjectTarget {
  bucket: string;
  name: string;
}

export interface Bucket {
  id: string;
  name: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The object's owner: the caller's user id when it has one. */
export function ownerOf(claims: JwtClaims): string | null {
  return typeof claims.sub === "string" && UUID.test(claims.sub) ? claims.sub : null;
}

/**
 * Runs `fn` in one transaction as the caller's role with its claims, exactly
 * as REST requests run, so the policies on storage.objects decide. Postgres
 * errors come back in Storage's words.
 */
export async function asCaller<T>(env: StorageEnv, caller: Caller, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await env.ctx.db.asRequest(
      { claims: caller.claims, role: caller.role, method: caller.method, path: caller.path, headers: {} },
      fn,
    );
  } catch (error) {
    throw fromPgError(error) ?? error;
  }
}

/** Lets this transaction delete rows of storage tables (plain DELETEs are refused, as hosted). */
export async function allowDeletes(tx: Queryable): Promise<void> {
  await tx.query("select set_config('storage.allow_delete_query', 'true', true)");
}

/** Buckets are read with the stack's own rights (as hosted Storage reads them as superuser). */
export async function findBucket(env: StorageEnv, id: string): Promise<Bucket> {
  const { rows } = await env.ctx.db.query<Bucket>(
    "select id, name, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1",
    [id],
  );
  if (!rows[0]) throw storageErrors.noSuchBucket();
  return rows[0];
}

/** A timestamp column as hosted's JSON prints it (JavaScript's toISOString: UTC, milliseconds, Z). */
export function iso(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

export const OBJECT_COLUMNS = `id, bucket_id, name, version, metadata, user_metadata, owner_id,
  ${iso("created_at")} as created_at, ${iso("updated_at")} as updated_at, ${iso("last_accessed_at")} as last_accessed_at`;

export async function findObject(tx: Queryable, bucket: string, name: string): Promise<ObjectRow> {
  const { rows } = await tx.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, name],
  );
  if (!rows[0]) throw storageErrors.noSuchKey();
  return rows[0];
}
