import crypto from "node:crypto";
import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { badRequest, forbidden, notFound, unprocessable } from "./errors.ts";
import type { Caller } from "./guards.ts";
import { isUuid, ts } from "./users.ts";
import type { NewCredential, RelyingParty } from "./webauthn.ts";

/**
 * Passkeys as rows, as GoTrue keeps them: credentials in
 * auth.webauthn_credentials with their COSE public key, and the ceremonies'
 * challenges in auth.webauthn_challenges, each consumed once (webauthn.ts
 * checks the ceremonies themselves). The endpoints are endpoints/passkeys.ts
 * and endpoints/admin-passkeys.ts.
 */
export type ChallengeType = "registration" | "authentication";

export interface SessionData {
  challenge: string;
  user_id?: string;
  user_verification: "preferred";
}

export interface CredentialRow {
  id: string;
  user_id: string;
  credential_id: Buffer;
  public_key: Buffer;
  friendly_name: string;
  created_at: string;
  last_used_at: string | null;
}

const CREDENTIAL_COLUMNS = "id, user_id, credential_id, public_key, friendly_name, created_at, last_used_at";

export function relyingParty(ctx: ServiceContext): RelyingParty {
  return { id: ctx.config.auth.webauthn.rpId, origins: ctx.config.auth.webauthn.rpOrigins };
}

/** GoTrue's PasskeyListItem (friendly_name and last_used_at left out when empty). */
export function passkeyJson(row: CredentialRow): Record<string, unknown> {
  const body: Record<string, unknown> = { id: row.id };
  if (row.friendly_name) body.friendly_name = row.friendly_name;
  body.created_at = ts(row.created_at);
  if (row.last_used_at) body.last_used_at = ts(row.last_used_at);
  return body;
}

export async function credentialsOf(q: Queryable, userId: string): Promise<CredentialRow[]> {
  const { rows } = await q.query<CredentialRow>(
    `select ${CREDENTIAL_COLUMNS} from auth.webauthn_credentials where user_id = $1 order by created_at asc, id`,
    [userId],
  );
  return rows.map((r) => ({ ...r, credential_id: toBuffer(r.credential_id), public_key: toBuffer(r.public_key) }));
}

/** bytea arrives as a Buffer from node-postgres and as a Uint8Array from PGlite. */
function toBuffer(v: unknown): Buffer {
  if (Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v);
  if (typeof v === "string" && v.startsWith("\\x")) return Buffer.from(v.slice(2), "hex");
  throw new Error("unexpected bytea value");
}

/** A user with a verified MFA factor manages passkeys from an aal2 session only (requirePasskeyManagementAAL). */
export async function requireManagementAal(q: Queryable, caller: Caller) {
  const { rows } = await q.query<{ verified: boolean; aal: string | null }>(
    `select exists (select 1 from auth.mfa_factors where user_id = $1 and status = 'verified') as verified,
       (select aal::text from auth.sessions where id = $2) as aal`,
    [caller.user.id, caller.sessionId],
  );
  if (rows[0]?.verified && rows[0].aal !== "aal2")
    throw forbidden("insufficient_aal", "AAL2 session is required to manage passkeys when MFA is enabled");
}

export async function storeChallenge(
  ctx: ServiceContext,
  type: ChallengeType,
  userId: string | null,
  data: SessionData,
) {
  const expiry = ctx.config.auth.webauthn.challengeExpiry;
  const { rows } = await ctx.db.query<{ id: string; expires_at: number }>(
    `insert into auth.webauthn_challenges (id, user_id, challenge_type, session_data, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(secs => $5))
     returning id, extract(epoch from expires_at)::bigint as expires_at`,
    [crypto.randomUUID(), userId, type, JSON.stringify(data), expiry],
  );
  return { id: rows[0].id, expiresAt: Number(rows[0].expires_at) };
}

/** Deletes and returns the challenge (each is used once), as ConsumeWebAuthnChallengeByID. */
export async function consumeChallenge(ctx: ServiceContext, id: string, type: ChallengeType, userId: string | null) {
  const { rows } = await ctx.db.query<{ session_data: SessionData | string; expired: boolean }>(
    `delete from auth.webauthn_challenges
     where id = $1 and challenge_type = $2 and ${userId ? "user_id = $3" : "user_id is null"}
     returning session_data, expires_at <= now() as expired`,
    userId ? [id, type, userId] : [id, type],
  );
  if (!rows[0]) throw badRequest("webauthn_challenge_not_found", "Challenge not found or already used");
  if (rows[0].expired) throw badRequest("webauthn_challenge_expired", "Challenge has expired");
  const data = rows[0].session_data;
  return (typeof data === "string" ? JSON.parse(data) : data) as SessionData;
}

/** The verify endpoints' body: { challenge_id, credential }. */
/** `userId`'s passkey `id` (404 "Passkey not found" for a malformed id or another user's). */
export async function findPasskey(q: Queryable, userId: string, id: string): Promise<CredentialRow> {
  if (!isUuid(id)) throw notFound("validation_failed", "Passkey not found");
  const { rows } = await q.query<CredentialRow>(
    `select ${CREDENTIAL_COLUMNS} from auth.webauthn_credentials where id = $1 and user_id = $2`,
    [id, userId],
  );
  if (!rows[0]) throw notFound("validation_failed", "Passkey not found");
  return rows[0];
}

export async function renamePasskey(q: Queryable, id: string, friendlyName: string): Promise<CredentialRow> {
  const { rows } = await q.query<CredentialRow>(
    `update auth.webauthn_credentials set friendly_name = $2, updated_at = now() where id = $1 returning ${CREDENTIAL_COLUMNS}`,
    [id, friendlyName],
  );
  return rows[0];
}

export async function deletePasskey(q: Queryable, id: string) {
  await q.query("delete from auth.webauthn_credentials where id = $1", [id]);
}

/** Stores a verified registration as the user's passkey "Passkey", within the per-user cap; refuses a credential registered already. */
export async function insertPasskey(
  q: Queryable,
  userId: string,
  credential: NewCredential,
  maxPerUser: number,
): Promise<CredentialRow> {
  const { rows: count } = await q.query<{ n: number }>(
    "select count(*)::int as n from auth.webauthn_credentials where user_id = $1",
    [userId],
  );
  if (count[0].n >= maxPerUser) throw unprocessable("too_many_passkeys", "Maximum number of passkeys reached");
  const { rows: taken } = await q.query("select 1 from auth.webauthn_credentials where credential_id = $1", [
    credential.credentialId,
  ]);
  if (taken.length) throw unprocessable("webauthn_credential_exists", "This credential is already registered");
  const aaguid = credential.aaguid.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  const { rows } = await q.query<CredentialRow>(
    `insert into auth.webauthn_credentials (id, user_id, credential_id, public_key, attestation_type, aaguid, sign_count,
       transports, backup_eligible, backed_up, friendly_name)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'Passkey') returning ${CREDENTIAL_COLUMNS}`,
    [
      crypto.randomUUID(),
      userId,
      credential.credentialId,
      credential.publicKey,
      credential.attestationType,
      aaguid,
      credential.signCount,
      JSON.stringify(credential.transports),
      credential.backupEligible,
      credential.backedUp,
    ],
  );
  return rows[0];
}
