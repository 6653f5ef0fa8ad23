import crypto from "node:crypto";
import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { badRequest, notFound, unprocessable } from "./errors.ts";
import { issueSession, type SessionResponse } from "./sessions.ts";
import { epochMs, findUserById } from "./users.ts";

/**
 * PKCE flow state (auth.flow_state): made when a flow starts with a
 * code_challenge, holds the auth code handed out in the redirect, and is
 * consumed once by grant_type=pkce with the matching code_verifier. It
 * expires flowStateExpiry seconds after the code was issued.
 */
export const PKCE_PREFIX = "pkce_";

export function validatePkceParams(method: string, challenge: string) {
  if ((challenge === "") !== (method === "")) {
    throw badRequest("validation_failed", "PKCE flow requires code_challenge_method and code_challenge");
  }
  if (challenge === "") return;
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest("validation_failed", "code challenge has to be between 43 and 128 characters");
  }
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
    throw badRequest(
      "validation_failed",
      "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes",
    );
  }
  const m = method.toLowerCase();
  if (m !== "s256" && m !== "plain")
    throw badRequest("validation_failed", `unsupported code_challenge method "${method}"`);
}

export function s256(verifier: string): string {
  return crypto.createHash("sha256").update(verifier).digest("base64url");
}

/** null when the verifier matches, else GoTrue's message. */
export function verifierMismatch(challenge: string, method: string, verifier: string): string | null {
  const m = method.toLowerCase();
  const expected = m === "s256" ? s256(verifier) : m === "plain" ? verifier : null;
  if (expected === null) return "code challenge method not supported";
  const a = Buffer.from(challenge);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b)
    ? null
    : "code challenge does not match previously saved code verifier";
}

export async function createFlowState(
  q: Queryable,
  input: {
    providerType: string;
    authenticationMethod: string;
    codeChallenge: string;
    codeChallengeMethod: string;
    userId: string | null;
    referrer?: string | null;
  },
): Promise<{ id: string; authCode: string }> {
  const id = crypto.randomUUID();
  const authCode = crypto.randomUUID();
  await q.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       created_at, updated_at, authentication_method, referrer)
     values ($1, $2, $3, $4, $5, $6, now(), now(), $7, $8)`,
    [
      id,
      input.userId,
      authCode,
      input.codeChallengeMethod.toLowerCase(),
      input.codeChallenge,
      input.providerType,
      input.authenticationMethod,
      input.referrer ?? null,
    ],
  );
  return { id, authCode };
}

/** The auth code of the user's latest flow for `method`, stamped as issued now. */
export async function issueAuthCode(q: Queryable, userId: string, method: string): Promise<string> {
  const { rows } = await q.query<{ id: string; auth_code: string }>(
    `select id, auth_code from auth.flow_state where user_id = $1 and authentication_method = $2
     order by created_at desc limit 1`,
    [userId, method],
  );
  if (!rows[0]) throw unprocessable("flow_state_not_found", "No valid flow state found for user.");
  await q.query("update auth.flow_state set auth_code_issued_at = now(), updated_at = now() where id = $1", [
    rows[0].id,
  ]);
  return rows[0].auth_code;
}

/** grant_type=pkce */
export async function pkceGrant(
  ctx: ServiceContext,
  authCode: string,
  codeVerifier: string,
  meta: { userAgent?: string | null; ip?: string | null },
): Promise<SessionResponse> {
  if (!authCode || !codeVerifier) {
    throw badRequest("validation_failed", "invalid request: both auth code and code verifier should be non-empty");
  }
  return ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      id: string;
      user_id: string | null;
      code_challenge: string;
      code_challenge_method: string;
      authentication_method: string;
      created_at: string;
      auth_code_issued_at: string | null;
    }>(
      `select id, user_id::text as user_id, code_challenge, code_challenge_method, authentication_method,
         to_json(created_at)#>>'{}' as created_at, to_json(auth_code_issued_at)#>>'{}' as auth_code_issued_at
       from auth.flow_state where auth_code = $1 for update`,
      [authCode],
    );
    const flow = rows[0];
    if (!flow || !flow.user_id) throw notFound("flow_state_not_found", "invalid flow state, no valid flow state found");
    const issuedAt = epochMs(flow.auth_code_issued_at) ?? epochMs(flow.created_at) ?? 0;
    if (Date.now() > issuedAt + ctx.config.auth.flowStateExpiry * 1000) {
      throw unprocessable("flow_state_expired", "invalid flow state, flow state has expired");
    }
    const user = await findUserById(tx, flow.user_id);
    if (!user) throw notFound("user_not_found", "User not found");
    const mismatch = verifierMismatch(flow.code_challenge, flow.code_challenge_method, codeVerifier);
    if (mismatch) throw badRequest("bad_code_verifier", mismatch);
    const session = await issueSession(ctx, tx, user, flow.authentication_method, meta);
    await tx.query("delete from auth.flow_state where id = $1", [flow.id]);
    return session;
  });
}
