import crypto from "node:crypto";
import type { Context } from "hono";
import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { loadUser } from "./admin.ts";
import { AuthError, badRequest, forbidden, notFound, unprocessable } from "./errors.ts";
import { requestMeta, type Caller } from "./guards.ts";
import { readParams } from "./params.ts";
import { admin, callerOf, feature, json, notAnonymous, user, type Route } from "./router.ts";
import { issueSession } from "./sessions.ts";
import { findUserById, isBanned, isUuid, ts, type UserRow } from "./users.ts";
import {
  parseAssertion,
  SUPPORTED_ALGORITHMS,
  verifyAssertion,
  verifyRegistration,
  WebAuthnError,
  type RelyingParty,
} from "./webauthn.ts";

/**
 * Passkeys as GoTrue serves them when GOTRUE_PASSKEY_ENABLED is on:
 * registration and discoverable sign-in ceremonies (`/passkeys/registration/*`,
 * `/passkeys/authentication/*`), the user's list, rename and delete, and the
 * admin API's `/admin/users/:id/passkeys`. Off (hosted's default), everything
 * under /passkeys answers 404 "Passkeys are disabled". Challenges live in
 * auth.webauthn_challenges and are consumed once; credentials in
 * auth.webauthn_credentials with their COSE public key.
 */
const passkeysDisabled = () => notFound("passkey_disabled", "Passkeys are disabled");
const passkeys = feature((ctx) => ctx.config.auth.passkey.enabled, passkeysDisabled);

type ChallengeType = "registration" | "authentication";

interface SessionData {
  challenge: string;
  user_id?: string;
  user_verification: "preferred";
}

interface CredentialRow {
  id: string;
  user_id: string;
  credential_id: Buffer;
  public_key: Buffer;
  friendly_name: string;
  created_at: string;
  last_used_at: string | null;
}

const CREDENTIAL_COLUMNS = "id, user_id, credential_id, public_key, friendly_name, created_at, last_used_at";

function relyingParty(ctx: ServiceContext): RelyingParty {
  return { id: ctx.config.auth.webauthn.rpId, origins: ctx.config.auth.webauthn.rpOrigins };
}

/** GoTrue's PasskeyListItem (friendly_name and last_used_at left out when empty). */
function passkeyJson(row: CredentialRow): Record<string, unknown> {
  const body: Record<string, unknown> = { id: row.id };
  if (row.friendly_name) body.friendly_name = row.friendly_name;
  body.created_at = ts(row.created_at);
  if (row.last_used_at) body.last_used_at = ts(row.last_used_at);
  return body;
}

async function credentialsOf(q: Queryable, userId: string): Promise<CredentialRow[]> {
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
async function requireManagementAal(q: Queryable, caller: Caller) {
  const { rows } = await q.query<{ verified: boolean; aal: string | null }>(
    `select exists (select 1 from auth.mfa_factors where user_id = $1 and status = 'verified') as verified,
       (select aal::text from auth.sessions where id = $2) as aal`,
    [caller.user.id, caller.sessionId],
  );
  if (rows[0]?.verified && rows[0].aal !== "aal2")
    throw forbidden("insufficient_aal", "AAL2 session is required to manage passkeys when MFA is enabled");
}

async function storeChallenge(ctx: ServiceContext, type: ChallengeType, userId: string | null, data: SessionData) {
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
async function consumeChallenge(ctx: ServiceContext, id: string, type: ChallengeType, userId: string | null) {
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
async function readVerifyParams(c: Context, ctx: ServiceContext, typeName: string) {
  const p = await readParams(c, ctx.config.maxBodyBytes, typeName, { challenge_id: "string", credential: "any" });
  if (p.challenge_id === "") throw badRequest("validation_failed", "challenge_id is required");
  if (p.credential === undefined || p.credential === null)
    throw badRequest("validation_failed", "credential is required");
  if (!isUuid(p.challenge_id)) throw badRequest("validation_failed", "challenge_id must be a valid UUID");
  return p as { challenge_id: string; credential: unknown };
}

function verificationError(error: unknown): AuthError {
  if (error instanceof WebAuthnError) {
    return error.malformed
      ? badRequest("webauthn_verification_failed", "Invalid credential response")
      : badRequest("webauthn_verification_failed", "Credential verification failed");
  }
  throw error;
}

function newChallenge(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** The name and display name go-webauthn is given for a user. */
function webauthnNames(u: UserRow) {
  const name = u.email || u.phone || "";
  const metaName = u.raw_user_meta_data?.name;
  return { name, displayName: typeof metaName === "string" && metaName !== "" ? metaName : name };
}

async function registrationOptions(c: Context, ctx: ServiceContext, caller: Caller) {
  await requireManagementAal(ctx.db, caller);
  const existing = await credentialsOf(ctx.db, caller.user.id);
  if (existing.length >= ctx.config.auth.passkey.maxPerUser)
    throw unprocessable("too_many_passkeys", "Maximum number of passkeys reached");
  const challenge = newChallenge();
  const { id, expiresAt } = await storeChallenge(ctx, "registration", caller.user.id, {
    challenge,
    user_id: caller.user.id,
    user_verification: "preferred",
  });
  const wa = ctx.config.auth.webauthn;
  const options: Record<string, unknown> = {
    rp: { name: wa.rpDisplayName, id: wa.rpId },
    user: { ...webauthnNames(caller.user), id: Buffer.from(caller.user.id).toString("base64url") },
    challenge,
    pubKeyCredParams: SUPPORTED_ALGORITHMS.map((alg) => ({ type: "public-key", alg })),
    timeout: wa.challengeExpiry * 1000,
  };
  if (existing.length) {
    options.excludeCredentials = existing.map((cr) => ({
      type: "public-key",
      id: cr.credential_id.toString("base64url"),
    }));
  }
  options.authenticatorSelection = { requireResidentKey: true, residentKey: "required", userVerification: "preferred" };
  options.attestation = "none";
  return json(c, { challenge_id: id, options, expires_at: expiresAt });
}

async function registrationVerify(c: Context, ctx: ServiceContext, caller: Caller) {
  await requireManagementAal(ctx.db, caller);
  const p = await readVerifyParams(c, ctx, "PasskeyRegistrationVerifyParams");
  const session = await consumeChallenge(ctx, p.challenge_id, "registration", caller.user.id);
  let credential;
  try {
    credential = verifyRegistration(p.credential, session.challenge, relyingParty(ctx));
  } catch (error) {
    throw verificationError(error);
  }
  const row = await ctx.db.transaction(async (tx) => {
    const { rows: count } = await tx.query<{ n: number }>(
      "select count(*)::int as n from auth.webauthn_credentials where user_id = $1",
      [caller.user.id],
    );
    if (count[0].n >= ctx.config.auth.passkey.maxPerUser)
      throw unprocessable("too_many_passkeys", "Maximum number of passkeys reached");
    const { rows: taken } = await tx.query("select 1 from auth.webauthn_credentials where credential_id = $1", [
      credential.credentialId,
    ]);
    if (taken.length) throw unprocessable("webauthn_credential_exists", "This credential is already registered");
    const aaguid = credential.aaguid.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    const { rows } = await tx.query<CredentialRow>(
      `insert into auth.webauthn_credentials (id, user_id, credential_id, public_key, attestation_type, aaguid, sign_count,
         transports, backup_eligible, backed_up, friendly_name)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'Passkey') returning ${CREDENTIAL_COLUMNS}`,
      [
        crypto.randomUUID(),
        caller.user.id,
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
  });
  return json(c, { id: row.id, friendly_name: row.friendly_name, created_at: ts(row.created_at) });
}

async function authenticationOptions(c: Context, ctx: ServiceContext) {
  const challenge = newChallenge();
  const { id, expiresAt } = await storeChallenge(ctx, "authentication", null, {
    challenge,
    user_verification: "preferred",
  });
  const wa = ctx.config.auth.webauthn;
  // discoverable login: no allowCredentials, the authenticator names the user
  const options = { challenge, timeout: wa.challengeExpiry * 1000, rpId: wa.rpId, userVerification: "preferred" };
  return json(c, { challenge_id: id, options, expires_at: expiresAt });
}

async function authenticationVerify(c: Context, ctx: ServiceContext) {
  const p = await readVerifyParams(c, ctx, "PasskeyAuthenticationVerifyParams");
  const session = await consumeChallenge(ctx, p.challenge_id, "authentication", null);
  const failed = () => badRequest("webauthn_verification_failed", "Credential verification failed");
  let assertion;
  try {
    assertion = parseAssertion(p.credential);
  } catch (error) {
    throw verificationError(error);
  }
  const userId = assertion.userHandle.toString("utf8");
  if (!isUuid(userId)) throw failed();
  const found = await findUserById(ctx.db, userId);
  if (!found) throw failed();
  const stored = (await credentialsOf(ctx.db, found.id)).find((cr) => cr.credential_id.equals(assertion.rawId));
  if (!stored) throw failed();
  let signCount: number;
  try {
    signCount = verifyAssertion(assertion, session.challenge, relyingParty(ctx), stored.public_key);
  } catch (error) {
    throw verificationError(error);
  }
  if (found.email && !found.email_confirmed_at) throw forbidden("email_not_confirmed", "Email not confirmed");
  if (found.phone && !found.phone_confirmed_at) throw forbidden("phone_not_confirmed", "Phone not confirmed");
  if (isBanned(found)) throw forbidden("user_banned", "User is banned");
  const tokens = await ctx.db.transaction(async (tx) => {
    await tx.query(
      "update auth.webauthn_credentials set sign_count = $2, last_used_at = now(), updated_at = now() where id = $1",
      [stored.id, signCount],
    );
    return issueSession(ctx, tx, found, "passkey", requestMeta(ctx, c));
  });
  return json(c, tokens);
}

async function findOwnPasskey(ctx: ServiceContext, c: Context, userId: string): Promise<CredentialRow> {
  const id = c.req.param("passkey_id") ?? "";
  if (!isUuid(id)) throw notFound("validation_failed", "Passkey not found");
  const { rows } = await ctx.db.query<CredentialRow>(
    `select ${CREDENTIAL_COLUMNS} from auth.webauthn_credentials where id = $1 and user_id = $2`,
    [id, userId],
  );
  if (!rows[0]) throw notFound("validation_failed", "Passkey not found");
  return rows[0];
}

async function rename(c: Context, ctx: ServiceContext, caller: Caller) {
  const cred = await findOwnPasskey(ctx, c, caller.user.id);
  const p = await readParams(c, ctx.config.maxBodyBytes, "PasskeyUpdateParams", { friendly_name: "string" });
  if (p.friendly_name === "") throw badRequest("validation_failed", "friendly_name is required");
  if (p.friendly_name.length > 120)
    throw badRequest("validation_failed", "friendly_name must be 120 characters or less");
  const { rows } = await ctx.db.query<CredentialRow>(
    `update auth.webauthn_credentials set friendly_name = $2, updated_at = now() where id = $1 returning ${CREDENTIAL_COLUMNS}`,
    [cred.id, p.friendly_name],
  );
  return json(c, passkeyJson(rows[0]));
}

export const passkeyRoutes: Route[] = [
  {
    method: "POST",
    path: "/passkeys/authentication/options",
    use: [passkeys],
    handler: (c, _s, { ctx }) => authenticationOptions(c, ctx),
  },
  {
    method: "POST",
    path: "/passkeys/authentication/verify",
    use: [passkeys],
    handler: (c, _s, { ctx }) => authenticationVerify(c, ctx),
  },
  {
    method: "POST",
    path: "/passkeys/registration/options",
    use: [passkeys, user, notAnonymous],
    handler: (c, s, { ctx }) => registrationOptions(c, ctx, callerOf(s)),
  },
  {
    method: "POST",
    path: "/passkeys/registration/verify",
    use: [passkeys, user, notAnonymous],
    handler: (c, s, { ctx }) => registrationVerify(c, ctx, callerOf(s)),
  },
  {
    method: "GET",
    path: "/passkeys/",
    use: [passkeys, user],
    handler: async (c, s, { ctx }) => json(c, (await credentialsOf(ctx.db, callerOf(s).user.id)).map(passkeyJson)),
  },
  {
    method: "GET",
    path: "/passkeys",
    use: [passkeys, user],
    handler: async (c, s, { ctx }) => json(c, (await credentialsOf(ctx.db, callerOf(s).user.id)).map(passkeyJson)),
  },
  {
    method: "PATCH",
    path: "/passkeys/:passkey_id",
    use: [passkeys, user],
    handler: (c, s, { ctx }) => rename(c, ctx, callerOf(s)),
  },
  {
    method: "DELETE",
    path: "/passkeys/:passkey_id",
    use: [passkeys, user],
    handler: async (c, s, { ctx }) => {
      const caller = callerOf(s);
      await requireManagementAal(ctx.db, caller);
      const cred = await findOwnPasskey(ctx, c, caller.user.id);
      await ctx.db.query("delete from auth.webauthn_credentials where id = $1", [cred.id]);
      return c.body(null, 204);
    },
  },
  // the admin API's passkeys are served whether or not passkey sign-in is on (as GoTrue's router does)
  {
    method: "GET",
    path: "/admin/users/:id/passkeys",
    use: [admin],
    handler: async (c, _s, { ctx }) => {
      const target = await loadUser(ctx, c);
      return json(c, (await credentialsOf(ctx.db, target.id)).map(passkeyJson));
    },
  },
  {
    method: "DELETE",
    path: "/admin/users/:id/passkeys/:passkey_id",
    use: [admin],
    handler: async (c, _s, { ctx }) => {
      const target = await loadUser(ctx, c);
      const cred = await findOwnPasskey(ctx, c, target.id);
      await ctx.db.query("delete from auth.webauthn_credentials where id = $1", [cred.id]);
      return c.body(null, 204);
    },
  },
  // anything else under /passkeys: "disabled" when off, as GoTrue's sub-router checks that first
  {
    method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    path: "/passkeys/*",
    use: [passkeys],
    handler: () => {
      throw new AuthError(404, "not_found", "404 page not found");
    },
  },
];
