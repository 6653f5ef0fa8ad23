import type { Context } from "hono";
import { isApiRole, type JwtClaims } from "../db/types.ts";
import type { Keys } from "../keys.ts";

export type Identity = { claims: JwtClaims; role: string; token: string | null };
export type IdentityError = { reason: "expired" | "invalid" | "role"; message: string };

export function bearerToken(c: Context): string | null {
  const header = c.req.header("authorization");
  if (header) {
    const match = /^bearer\s+(.+)$/i.exec(header.trim());
    if (match) return match[1].trim();
  }
  return null;
}

/**
 * Who is calling: the JWT in `Authorization: Bearer`, else the `apikey`
 * header (as Supabase's gateway passes it on), else anon. The token is
 * verified against the stack's key; its `role` must be an API role.
 */
export async function resolveIdentity(c: Context, keys: Keys): Promise<Identity | IdentityError> {
  const token = bearerToken(c) ?? c.req.header("apikey") ?? null;
  if (!token) return { claims: { role: "anon" }, role: "anon", token: null };
  let claims: JwtClaims;
  try {
    claims = (await keys.verify(token)) as JwtClaims;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_JWT_EXPIRED") return { reason: "expired", message: "JWT expired" };
    return { reason: "invalid", message: describeJwtError(error) };
  }
  const role = typeof claims.role === "string" && claims.role ? claims.role : "anon";
  if (!isApiRole(role)) return { reason: "role", message: `role "${role}" does not exist` };
  return { claims, role, token };
}

export function isIdentityError(x: Identity | IdentityError): x is IdentityError {
  return "reason" in x;
}

function describeJwtError(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "JWSError JWSInvalidSignature";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      return "JWT claim validation failed";
    case "ERR_JOSE_ALG_NOT_ALLOWED":
    case "ERR_JOSE_NOT_SUPPORTED":
      return "JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)";
    default:
      return "JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)";
  }
}
