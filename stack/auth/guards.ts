import type { Context } from "hono";
import type { ServiceContext } from "../context.ts";
import { clientIp } from "../http/client-ip.ts";
import { AuthError, forbidden } from "./errors.ts";
import { findUserById, isBanned, isUuid, type UserRow } from "./users.ts";

/**
 * Who is calling an auth endpoint, checked as GoTrue checks it: a Bearer
 * token is required, it must verify against the stack's key, and for user
 * endpoints its `sub` must be an existing user and its `session_id` a live
 * session.
 */
export interface Caller {
  claims: Record<string, unknown>;
  user: UserRow;
  sessionId: string | null;
}

export function bearer(c: Context): string {
  const m = /^bearer (\S+)$/i.exec((c.req.header("authorization") ?? "").trim());
  if (!m) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  return m[1];
}

function jwtReason(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return "token has invalid claims: token is expired";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      return "token has invalid claims: token is not valid yet";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "token signature is invalid: crypto/ecdsa: verification error";
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return "token is unverifiable: error while executing keyfunc: unrecognized JWT kid for algorithm";
    default:
      return "token is malformed: could not JSON decode header";
  }
}

export async function verifiedClaims(ctx: ServiceContext, token: string): Promise<Record<string, unknown>> {
  if (token.split(".").length !== 3) {
    throw forbidden(
      "bad_jwt",
      "invalid JWT: unable to parse or verify signature, token is malformed: token contains an invalid number of segments",
    );
  }
  try {
    return (await ctx.keys.verify(token)) as Record<string, unknown>;
  } catch (error) {
    throw forbidden("bad_jwt", `invalid JWT: unable to parse or verify signature, ${jwtReason(error)}`);
  }
}

export async function requireUser(ctx: ServiceContext, c: Context): Promise<Caller> {
  const claims = await verifiedClaims(ctx, bearer(c));
  const sub = claims.sub;
  if (typeof sub !== "string" || sub === "") throw forbidden("bad_jwt", "invalid claim: missing sub claim");
  if (!isUuid(sub)) throw new AuthError(400, "bad_jwt", "invalid claim: sub claim must be a UUID");
  const user = await findUserById(ctx.db, sub);
  if (!user) throw forbidden("user_not_found", "User from sub claim in JWT does not exist");
  let sessionId: string | null = null;
  const sid = claims.session_id;
  if (typeof sid === "string" && sid !== "" && sid !== "00000000-0000-0000-0000-000000000000") {
    if (!isUuid(sid)) throw forbidden("bad_jwt", "invalid claim: session_id claim must be a UUID");
    const { rows } = await ctx.db.query("select 1 from auth.sessions where id = $1", [sid]);
    if (rows.length === 0) throw forbidden("session_not_found", "Session from session_id claim in JWT does not exist");
    sessionId = sid;
  }
  if (isBanned(user)) throw forbidden("user_banned", "User is banned");
  return { claims, user, sessionId };
}

const ADMIN_ROLES = new Set(["service_role", "supabase_admin"]);

export async function requireAdmin(ctx: ServiceContext, c: Context): Promise<Record<string, unknown>> {
  const claims = await verifiedClaims(ctx, bearer(c));
  if (typeof claims.role !== "string" || !ADMIN_ROLES.has(claims.role))
    throw forbidden("not_admin", "User not allowed");
  return claims;
}

export function requestMeta(ctx: ServiceContext, c: Context) {
  return { userAgent: c.req.header("user-agent") ?? null, ip: clientIp(c, ctx.config.trustedProxies) };
}
