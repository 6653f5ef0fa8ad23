import crypto from "node:crypto";
import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { badRequest, OAuthStyleError } from "./errors.ts";
import { epochMs, findUserById, isBanned, userJson, type UserRow } from "./users.ts";

/**
 * Sessions and tokens: a session is a row of auth.sessions; each refresh
 * token is a row of auth.refresh_tokens chained to its parent; the access
 * token is an ES256 JWT with GoTrue's claims.
 */
export interface SessionResponse {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
  weak_password?: unknown;
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** 12 lowercase base32 characters, like GoTrue's SecureAlphanumeric(12). */
export function newRefreshToken(): string {
  const bytes = crypto.randomBytes(12);
  let out = "";
  for (let i = 0; i < 12; i++) out += ALPHABET[bytes[i] & 31];
  return out;
}

/** A new active refresh token for the session, chained to `parent` (the token it replaces); returns it. */
async function insertRefreshToken(q: Queryable, userId: string, sessionId: string, parent: string | null) {
  const token = newRefreshToken();
  await q.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token, userId, parent, sessionId],
  );
  return token;
}

export async function accessTokenFor(
  ctx: ServiceContext,
  q: Queryable,
  user: UserRow,
  sessionId: string,
): Promise<{ token: string; expiresAt: number }> {
  const { rows } = await q.query<{ method: string; at: number; aal: string | null }>(
    `select c.authentication_method as method, extract(epoch from c.updated_at)::bigint as at, s.aal
     from auth.sessions s left join auth.mfa_amr_claims c on c.session_id = s.id
     where s.id = $1 order by c.updated_at desc`,
    [sessionId],
  );
  const amr = rows.filter((r) => r.method).map((r) => ({ method: r.method, timestamp: Number(r.at) }));
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + ctx.config.auth.jwtExpiry;
  const claims = {
    iss: `${ctx.apiUrl}/auth/v1`,
    sub: user.id,
    aud: user.aud || "authenticated",
    exp: expiresAt,
    iat: now,
    email: user.email ?? "",
    phone: user.phone ?? "",
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || "authenticated",
    aal: rows[0]?.aal ?? "aal1",
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  const token = await ctx.keys.sign(claims);
  return { token, expiresAt };
}

async function respond(
  ctx: ServiceContext,
  q: Queryable,
  userId: string,
  sessionId: string,
  refreshToken: string,
): Promise<SessionResponse> {
  const user = (await findUserById(q, userId)) as UserRow;
  const { token, expiresAt } = await accessTokenFor(ctx, q, user, sessionId);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: ctx.config.auth.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/** Who asked for a session: kept on it (auth.sessions' user_agent and ip). */
export interface RequestMeta {
  userAgent?: string | null;
  ip?: string | null;
}

/** Starts a session for `user` (method: password, otp, oauth, email/signup, magiclink, recovery …). */
export async function issueSession(
  ctx: ServiceContext,
  q: Queryable,
  user: UserRow,
  method: string,
  meta: RequestMeta = {},
): Promise<SessionResponse> {
  const sessionId = crypto.randomUUID();
  await q.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', $3, $4::inet)`,
    [sessionId, user.id, meta.userAgent ?? null, validIp(meta.ip)],
  );
  await q.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, now(), now(), $2)`,
    [sessionId, method],
  );
  const refreshToken = await insertRefreshToken(q, user.id, sessionId, null);
  await q.query("update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1", [user.id]);
  await q.query("update auth.identities set last_sign_in_at = now() where user_id = $1", [user.id]);
  return respond(ctx, q, user.id, sessionId, refreshToken);
}

function validIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const bare = ip.replace(/^::ffff:/, "");
  return /^[0-9.]+$/.test(bare) || /^[0-9a-f:]+$/i.test(bare) ? bare : null;
}

interface TokenRow {
  id: number;
  token: string;
  user_id: string;
  revoked: boolean;
  parent: string | null;
  session_id: string | null;
  updated_at: string;
}

/**
 * grant_type=refresh_token, with GoTrue's reuse rules: a revoked token whose
 * child is the session's active token gets that active token back (a client
 * that lost the response); another revoked token is swapped again within
 * the reuse interval, and after it the whole session's tokens are revoked
 * and refresh_token_already_used is returned — then and for every token of
 * that session afterwards (a session with no active token is dead).
 */
export async function refreshGrant(ctx: ServiceContext, refreshToken: string): Promise<SessionResponse> {
  if (!refreshToken) throw new OAuthStyleError("invalid_request", "refresh_token required");
  const cfg = ctx.config.auth;
  let failure: Error | null = null;
  const result = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<TokenRow>(
      `select id, token, user_id, revoked, parent, session_id::text as session_id, to_json(updated_at)#>>'{}' as updated_at
       from auth.refresh_tokens where token = $1 for update`,
      [refreshToken],
    );
    const token = rows[0];
    if (!token) throw badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    const user = await findUserById(tx, token.user_id);
    if (!user) throw badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    if (isBanned(user)) throw badRequest("user_banned", "Invalid Refresh Token: User Banned");
    const session = token.session_id
      ? (
          await tx.query<{ id: string; not_after: string | null }>(
            "select id, to_json(not_after)#>>'{}' as not_after from auth.sessions where id = $1 for update",
            [token.session_id],
          )
        ).rows[0]
      : undefined;
    if (!session) {
      await tx.query("delete from auth.refresh_tokens where id = $1", [token.id]);
      failure = badRequest("session_not_found", "Invalid Refresh Token: No Valid Session Found");
      return null;
    }
    const notAfter = epochMs(session.not_after);
    if (notAfter !== null && notAfter < Date.now())
      throw badRequest("session_expired", "Invalid Refresh Token: Session Expired");

    let issued: string | null = null;
    if (token.revoked) {
      const active = (
        await tx.query<{ token: string; parent: string | null }>(
          "select token, parent from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1",
          [session.id],
        )
      ).rows[0];
      if (!active) {
        // every token of the session was revoked when a reuse was detected: the session is dead
        failure = badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used");
        return null;
      }
      if (active.parent === token.token) {
        issued = active.token;
      } else {
        const reuseUntil = (epochMs(token.updated_at) ?? 0) + cfg.refreshTokenReuseInterval * 1000;
        if (Date.now() > reuseUntil) {
          if (cfg.refreshTokenRotation) {
            // updated_at stays as it was: bumping it would reopen the reuse window for the whole family
            await tx.query("update auth.refresh_tokens set revoked = true where session_id = $1 and revoked = false", [
              session.id,
            ]);
          }
          // committed with the revocation, then reported
          failure = badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used");
          return null;
        }
      }
    }
    if (!issued) {
      await tx.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1", [token.id]);
      issued = await insertRefreshToken(tx, user.id, session.id, token.token);
    }
    await tx.query(
      "update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1",
      [session.id],
    );
    return respond(ctx, tx, user.id, session.id, issued);
  });
  if (failure) throw failure;
  return result as SessionResponse;
}

export type LogoutScope = "global" | "local" | "others";

export async function logout(q: Queryable, userId: string, sessionId: string | null, scope: LogoutScope) {
  if (sessionId && scope === "local") {
    await q.query("delete from auth.sessions where id = $1", [sessionId]);
  } else if (sessionId && scope === "others") {
    await q.query("delete from auth.sessions where user_id = $1 and id <> $2", [userId, sessionId]);
  } else {
    await q.query("delete from auth.sessions where user_id = $1", [userId]);
  }
  // tokens without a session (none are made here) go with the user's sessions
  await q.query("delete from auth.refresh_tokens where user_id = $1 and session_id is null", [userId]);
}

/**
 * A new refresh token and access token for an existing session, after its
 * assurance level changed (MFA verify): the session's active refresh token
 * is swapped, so the aal1 one cannot be used to continue at aal2.
 */
export async function reissueSession(
  ctx: ServiceContext,
  q: Queryable,
  userId: string,
  sessionId: string,
): Promise<SessionResponse> {
  const { rows } = await q.query<{ token: string }>(
    "select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1",
    [sessionId],
  );
  await q.query(
    "update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false",
    [sessionId],
  );
  const issued = await insertRefreshToken(q, userId, sessionId, rows[0]?.token ?? null);
  return respond(ctx, q, userId, sessionId, issued);
}
