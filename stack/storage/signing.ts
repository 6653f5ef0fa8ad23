import { isApiRole, type JwtClaims } from "../db/types.ts";
import { asCaller, findBucket, findObject, ownerOf, type Caller, type ObjectTarget, type StorageEnv } from "./env.ts";
import { storageErrors } from "./errors.ts";
import { canUpload } from "./objects-write.ts";
import { transformSegments, type TransformOptions } from "./transform.ts";

/**
 * Signed URLs: JWTs signed with the stack's key, scoped as hosted scopes
 * them (`scope: "download"` with `{url}`, `scope: "upload"` with
 * `{url, owner, upsert}`; like hosted, a download token from before scopes,
 * without `upsert`, still downloads), so a token for one action, one object
 * or an access token is refused for anything else. A download token is checked
 * when it is made (the caller must see the object) and then served with the
 * stack's rights, as hosted does.
 *
 * Upload tokens differ from hosted's in one way: hosted writes with its own
 * rights at use, so an upsert URL kept its power for its whole life even if
 * its maker lost theirs. Here the token also carries its maker's role and
 * claims (under `maker`, never as top-level claims, so the token is no access
 * token), and the upload runs as the maker at use: the policies decide again.
 */
const UPLOAD_URL_SECONDS = 7200;
const DOWNLOAD = "download";
const UPLOAD = "upload";

export type Maker = Pick<Caller, "role" | "claims">;

function signedPath(target: ObjectTarget): string {
  return `${target.bucket}/${target.name}`;
}

/**
 * A download URL for one object. With a `transform`, hosted keeps the
 * options in the token (`transformations`, in the form it signs them) and
 * points the URL at `/render/image/sign/`, so they cannot be changed.
 */
export async function signUrl(
  env: StorageEnv,
  caller: Caller,
  target: ObjectTarget,
  expiresIn: number,
  transform?: TransformOptions,
) {
  await asCaller(env, caller, (tx) => findObject(tx, target.bucket, target.name));
  const transformations = transform ? transformSegments(transform, true).join(",") : "";
  const extra: Record<string, string> = {};
  if (transformations) extra.transformations = transformations;
  if (transform?.format) extra.format = transform.format;
  const token = await env.ctx.keys.sign({ ...extra, url: signedPath(target), scope: DOWNLOAD }, { expiresIn });
  const route = transformations ? "render/image" : "object";
  return { signedURL: `/${route}/sign/${signedPath(target)}?token=${token}` };
}

export async function signUrls(env: StorageEnv, caller: Caller, bucket: string, paths: string[], expiresIn: number) {
  const found = await asCaller(env, caller, async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      "select name from storage.objects where bucket_id = $1 and name = any($2::text[])",
      [bucket, paths],
    );
    return new Set(rows.map((r) => r.name));
  });
  return Promise.all(
    paths.map(async (path) => {
      if (!found.has(path))
        return { error: "Either the object does not exist or you do not have access to it", path, signedURL: null };
      const url = signedPath({ bucket, name: path });
      const token = await env.ctx.keys.sign({ url, scope: DOWNLOAD }, { expiresIn });
      return { error: null, path, signedURL: `/object/sign/${url}?token=${token}` };
    }),
  );
}

/** The maker's claims as they will be replayed at use (without the access token's own lifetime). */
function makerOf(caller: Caller): Maker {
  const claims: JwtClaims = { ...caller.claims };
  for (const key of ["exp", "iat", "nbf", "jti"]) delete claims[key];
  return { role: caller.role, claims };
}

export async function signUploadUrl(env: StorageEnv, caller: Caller, target: ObjectTarget, upsert: boolean) {
  await findBucket(env, target.bucket);
  const owner = ownerOf(caller.claims);
  await canUpload(env, caller, { bucket: target.bucket, name: target.name, owner, upsert });
  const url = signedPath(target);
  const token = await env.ctx.keys.sign(
    { url, owner, upsert, scope: UPLOAD, maker: makerOf(caller) },
    { expiresIn: UPLOAD_URL_SECONDS },
  );
  return { url: `/object/upload/sign/${url}?token=${token}`, token };
}

async function verify(env: StorageEnv, token: string): Promise<Record<string, unknown>> {
  try {
    return await env.ctx.keys.verify(token);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw storageErrors.invalidJwt(code === "ERR_JWT_EXPIRED" ? "jwt expired" : "invalid signature");
  }
}

/** A download token for this object: its expiry as an HTTP date (sent as `Expires`) and the transformations it holds. */
export async function verifyDownloadToken(
  env: StorageEnv,
  token: string,
  target: ObjectTarget,
): Promise<{ expires: string; transformations: string }> {
  const payload = await verify(env, token);
  // an access token (it has a role) is no signed URL, whatever else it holds
  const scoped = payload.scope === DOWNLOAD || (payload.scope === undefined && !("upsert" in payload));
  if (typeof payload.url !== "string" || !scoped || "role" in payload)
    throw storageErrors.invalidSignature("Token is not scoped for download");
  if (payload.url !== signedPath(target)) throw storageErrors.invalidSignature();
  return {
    expires: new Date((payload.exp as number) * 1000).toUTCString(),
    transformations: typeof payload.transformations === "string" ? payload.transformations : "",
  };
}

/** An upload token for this object: its owner, whether it may replace, and who made it. */
export async function verifyUploadToken(env: StorageEnv, token: string, target: ObjectTarget) {
  const payload = await verify(env, token);
  const maker = payload.maker as Partial<Maker> | undefined;
  if (
    typeof payload.url !== "string" ||
    payload.scope !== UPLOAD ||
    typeof payload.upsert !== "boolean" ||
    "role" in payload ||
    !maker ||
    typeof maker.role !== "string" ||
    !isApiRole(maker.role) ||
    !maker.claims ||
    typeof maker.claims !== "object"
  )
    throw storageErrors.invalidSignature("Token is not scoped for upload");
  if (payload.url !== signedPath(target)) throw storageErrors.invalidSignature();
  return {
    owner: typeof payload.owner === "string" ? payload.owner : null,
    upsert: payload.upsert,
    maker: { role: maker.role, claims: maker.claims } as Maker,
  };
}
