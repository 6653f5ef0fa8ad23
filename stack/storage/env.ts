import type { ServiceContext } from "../context.ts";
import type { JwtClaims, Queryable } from "../db/types.ts";
import { BodyTooLargeError, readBodyLimited } from "../http/limits.ts";
import { fromPgError, storageErrors } from "./errors.ts";
import type { FileStore } from "./files.ts";
import type { ObjectRow } from "./serve-file.ts";

/** What the Storage API's handlers share. */
export interface StorageEnv {
  ctx: ServiceContext;
  store: FileStore;
}

/** The caller, from its JWT (or the apikey header), as the REST service resolves it. */
export interface Caller {
  role: string;
  claims: JwtClaims;
  request: Request;
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
  const url = new URL(caller.request.url);
  try {
    return await env.ctx.db.asRequest(
      {
        claims: caller.claims,
        role: caller.role,
        method: caller.request.method,
        path: url.pathname.replace(/^.*\/storage\/v1/, "") || "/",
        headers: {},
      },
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

export const OBJECT_COLUMNS =
  "id, bucket_id, name, version, metadata, user_metadata, owner_id, created_at, updated_at, last_accessed_at";

export async function findObject(tx: Queryable, bucket: string, name: string): Promise<ObjectRow> {
  const { rows } = await tx.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, name],
  );
  if (!rows[0]) throw storageErrors.noSuchKey();
  return rows[0];
}

/** Fastify's default body limit, which hosted Storage keeps for its JSON endpoints */
const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Reads a JSON body, no further than 1 MiB (413 past it, as hosted); a broken one is Storage's 400. */
export async function jsonBody<T>(request: Request): Promise<T> {
  let text: string;
  try {
    text = new TextDecoder().decode(await readBodyLimited(request, MAX_JSON_BODY_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw storageErrors.bodyTooLarge();
    throw error;
  }
  try {
    const value = JSON.parse(text || "{}") as unknown;
    if (value && typeof value === "object") return value as T;
  } catch {
    /* fall through */
  }
  throw storageErrors.invalidRequest("Body is not valid JSON");
}
