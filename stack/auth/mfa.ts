import crypto from "node:crypto";
import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { forbidden, notFound, unprocessable } from "./errors.ts";
import type { Caller } from "./guards.ts";
import { reissueSession, type SessionResponse } from "./sessions.ts";
import { isUuid, type FactorRow, type UserRow } from "./users.ts";

/**
 * MFA factors and challenges as GoTrue keeps them (auth.mfa_factors,
 * auth.mfa_challenges): finding a user's factor, the checks before a new
 * enrolment, a challenge's life, stepping a session up to aal2 and taking it
 * back down when its factor goes. The endpoints are endpoints/factors.ts and
 * endpoints/admin-factors.ts.
 */
const FACTOR_COLUMNS = `id, user_id, friendly_name, factor_type, status, created_at, updated_at, last_challenged_at, phone`;
/** Unverified factors older than this are dropped on the next enrolment (GoTrue's factor_expiry_duration). */
const FACTOR_EXPIRY_SECONDS = 300;
const MAX_VERIFIED_FACTORS = 10;

export type FactorWithSecret = FactorRow & { secret: string | null };

export interface ChallengeRow {
  id: string;
  factor_id: string;
  created_at: string;
  verified_at: string | null;
  ip_address: string;
  age: number;
}

export function normalizeIp(ip: string): string {
  return ip.replace(/^::ffff:/, "");
}

/** `user`'s factor `id` (GoTrue's loadFactor: 404 for a malformed id or another user's factor). */
export async function findFactor(q: Queryable, user: UserRow, id: string): Promise<FactorWithSecret> {
  if (!isUuid(id)) throw notFound("validation_failed", "factor_id must be an UUID");
  const { rows } = await q.query<FactorWithSecret>(
    `select ${FACTOR_COLUMNS}, secret from auth.mfa_factors where id = $1 and user_id = $2`,
    [id, user.id],
  );
  if (!rows[0]) throw notFound("mfa_factor_not_found", "Factor not found");
  return rows[0];
}

/** GoTrue's checks before an enrolment: stale unverified factors go, names are unique, counts are capped, aal2 to add a second. */
export async function checkEnrolment(ctx: ServiceContext, q: Queryable, caller: Caller, friendlyName: string) {
  await q.query(
    `delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and created_at < now() - make_interval(secs => $2)`,
    [caller.user.id, FACTOR_EXPIRY_SECONDS],
  );
  const { rows } = await q.query<{ friendly_name: string | null; status: string }>(
    "select friendly_name, status from auth.mfa_factors where user_id = $1",
    [caller.user.id],
  );
  if (rows.some((f) => f.friendly_name === friendlyName)) {
    throw unprocessable(
      "mfa_factor_name_conflict",
      `A factor with the friendly name "${friendlyName}" for this user already exists`,
    );
  }
  const verified = rows.filter((f) => f.status === "verified").length;
  if (rows.length >= ctx.config.auth.mfa.maxEnrolledFactors || verified >= MAX_VERIFIED_FACTORS) {
    throw unprocessable(
      "too_many_enrolled_mfa_factors",
      "Maximum number of verified factors reached, unenroll to continue",
    );
  }
  if (verified > 0 && (await sessionAal(q, caller.sessionId)) !== "aal2") {
    throw forbidden("insufficient_aal", "AAL2 required to enroll a new factor");
  }
}

/** Stores a new, unverified factor (the TOTP secret with it). */
export async function insertFactor(
  q: Queryable,
  userId: string,
  factor: { type: "totp" | "webauthn"; friendlyName: string; secret?: string },
): Promise<string> {
  const id = crypto.randomUUID();
  await q.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values ($1, $2, $3, $4, 'unverified', now(), now(), $5)`,
    [id, userId, factor.friendlyName, factor.type, factor.secret ?? null],
  );
  return id;
}

export async function sessionAal(q: Queryable, sessionId: string | null): Promise<string> {
  if (!sessionId) return "aal1";
  const { rows } = await q.query<{ aal: string | null }>("select aal from auth.sessions where id = $1", [sessionId]);
  return rows[0]?.aal ?? "aal1";
}

/** A new challenge for `factorId` from `ip`; returns its id and when it was made (epoch seconds). */
export async function createChallenge(ctx: ServiceContext, factorId: string, ip: string) {
  const id = crypto.randomUUID();
  const createdAt = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ at: number }>(
      `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3::inet)
       returning extract(epoch from created_at)::float8 as at`,
      [id, factorId, normalizeIp(ip)],
    );
    await tx.query("update auth.mfa_factors set last_challenged_at = now(), updated_at = now() where id = $1", [
      factorId,
    ]);
    return Number(rows[0].at);
  });
  return { id, createdAt };
}

/** The factor's challenge `id`, with its age in seconds; undefined when there is none. */
export async function findChallenge(q: Queryable, factorId: string, id: string): Promise<ChallengeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await q.query<ChallengeRow>(
    `select id, factor_id, created_at, verified_at, host(ip_address) as ip_address,
            extract(epoch from now() - created_at)::float8 as age
     from auth.mfa_challenges where id = $1 and factor_id = $2`,
    [id, factorId],
  );
  return rows[0];
}

export function challengeExpired(id: string) {
  return unprocessable(
    "mfa_challenge_expired",
    `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`,
  );
}

/**
 * A verified challenge steps the session up, as GoTrue's verifyTOTPFactor:
 * the factor is verified, the session is at aal2 with `totp` in its amr and
 * new tokens, the user's other aal1 sessions end, and unverified TOTP
 * factors go.
 */
export async function stepUp(
  ctx: ServiceContext,
  q: Queryable,
  userId: string,
  sessionId: string,
  factor: FactorRow,
  challengeId: string,
): Promise<SessionResponse> {
  await q.query("update auth.mfa_challenges set verified_at = now() where id = $1", [challengeId]);
  if (factor.status !== "verified") {
    await q.query("update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1", [factor.id]);
  }
  await q.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values (gen_random_uuid(), $1, now(), now(), 'totp')
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [sessionId],
  );
  await q.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [
    sessionId,
    factor.id,
  ]);
  const response = await reissueSession(ctx, q, userId, sessionId);
  await q.query("delete from auth.sessions where user_id = $1 and aal < 'aal2'", [userId]);
  await q.query("delete from auth.mfa_factors where user_id = $1 and factor_type = 'totp' and status = 'unverified'", [
    userId,
  ]);
  return response;
}

/** Removes a factor and takes the sessions it stepped up back to aal1. */
export async function deleteFactor(q: Queryable, factor: FactorRow) {
  await q.query("delete from auth.mfa_factors where id = $1", [factor.id]);
  await q.query(
    `delete from auth.mfa_amr_claims where authentication_method = $2
       and session_id in (select id from auth.sessions where user_id = $1 and factor_id = $3)`,
    [
      factor.user_id,
      factor.factor_type === "totp" ? "totp" : factor.factor_type === "phone" ? "mfa/phone" : "mfa/webauthn",
      factor.id,
    ],
  );
  await q.query(
    "update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where user_id = $1 and factor_id = $2",
    [factor.user_id, factor.id],
  );
}

/** GoTrue's answer for a factor type whose verification is off (phone, WebAuthn here). */
export function verificationDisabled(factorType: FactorRow["factor_type"]) {
  const kind = factorType === "phone" ? "Phone" : factorType === "webauthn" ? "WebAuthn" : "TOTP";
  return unprocessable(`mfa_${factorType}_verify_not_enabled`, `MFA verification is disabled for ${kind}`);
}
