import * as jose from "jose";
import { isApiRole, type JwtClaims } from "../db/types.ts";
import type { Keys } from "../keys.ts";

/** A verified channel token: its claims, role and expiry (seconds since the epoch). */
export interface ChannelAuth {
  token: string;
  claims: JwtClaims;
  role: string;
  exp: number;
}

/** Why a token was refused, worded as Realtime words it (code, message). */
export interface AuthFailure {
  code: "InvalidJWTToken" | "MalformedJWT" | "JwtSignatureError";
  message: string;
}

export async function verifyChannelToken(keys: Keys, token: unknown): Promise<ChannelAuth | AuthFailure> {
  if (typeof token !== "string" || token === "") {
    return { code: "MalformedJWT", message: "The token provided is not a valid JWT" };
  }
  let unverified: jose.JWTPayload;
  try {
    unverified = jose.decodeJwt(token);
  } catch {
    return { code: "MalformedJWT", message: "The token provided is not a valid JWT" };
  }
  if (typeof unverified.role !== "string" || typeof unverified.exp !== "number") {
    return { code: "InvalidJWTToken", message: "Fields `role` and `exp` are required in JWT" };
  }
  try {
    const claims = (await keys.verify(token)) as JwtClaims;
    const role = String(claims.role);
    if (!isApiRole(role)) return { code: "InvalidJWTToken", message: `role "${role}" does not exist` };
    return { token, claims, role, exp: Number(claims.exp) };
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_JWT_EXPIRED") {
      return { code: "InvalidJWTToken", message: expiredMessage(unverified.exp) };
    }
    return { code: "JwtSignatureError", message: "Failed to validate JWT signature" };
  }
}

export function expiredMessage(exp: number): string {
  return `Token has expired ${Math.max(0, Math.floor(Date.now() / 1000) - exp)} seconds ago`;
}

export function isAuthFailure(x: ChannelAuth | AuthFailure): x is AuthFailure {
  return "code" in x;
}
