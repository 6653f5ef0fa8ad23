/**
 * /passkeys, as GoTrue serves them when GOTRUE_PASSKEY_ENABLED is on (off,
 * hosted's default, everything under /passkeys answers 404 "Passkeys are
 * disabled": the table's `passkeys` switch): registration and discoverable
 * sign-in ceremonies (`/passkeys/registration/*`, `/passkeys/authentication/*`),
 * and the user's list, rename and delete. The rows are passkey-store.ts's;
 * webauthn.ts checks the ceremonies.
 */
import crypto from "node:crypto";
import type { Context } from "hono";
import type { ServiceContext } from "../../context.ts";
import { AuthError, badRequest, forbidden, unprocessable } from "../errors.ts";
import { requestMeta } from "../guards.ts";
import { readParams } from "../params.ts";
import {
  consumeChallenge,
  credentialsOf,
  deletePasskey,
  findPasskey,
  insertPasskey,
  passkeyJson,
  relyingParty,
  renamePasskey,
  requireManagementAal,
  storeChallenge,
} from "../passkey-store.ts";
import { callerOf, json, type Handler } from "../router.ts";
import { issueSession } from "../sessions.ts";
import { findUserById, isBanned, isUuid, ts, type UserRow } from "../users.ts";
import {
  parseAssertion,
  SUPPORTED_ALGORITHMS,
  verifyAssertion,
  verifyRegistration,
  WebAuthnError,
} from "../webauthn.ts";

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

/** POST /passkeys/registration/options */
export const passkeyRegistrationOptions: Handler = async (c, state, { ctx }) => {
  const caller = callerOf(state);
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
};

/** POST /passkeys/registration/verify */
export const passkeyRegistrationVerify: Handler = async (c, state, { ctx }) => {
  const caller = callerOf(state);
  await requireManagementAal(ctx.db, caller);
  const p = await readVerifyParams(c, ctx, "PasskeyRegistrationVerifyParams");
  const session = await consumeChallenge(ctx, p.challenge_id, "registration", caller.user.id);
  let credential;
  try {
    credential = verifyRegistration(p.credential, session.challenge, relyingParty(ctx));
  } catch (error) {
    throw verificationError(error);
  }
  const row = await ctx.db.transaction((tx) =>
    insertPasskey(tx, caller.user.id, credential, ctx.config.auth.passkey.maxPerUser),
  );
  return json(c, { id: row.id, friendly_name: row.friendly_name, created_at: ts(row.created_at) });
};

/** POST /passkeys/authentication/options */
export const passkeyAuthenticationOptions: Handler = async (c, _state, { ctx }) => {
  const challenge = newChallenge();
  const { id, expiresAt } = await storeChallenge(ctx, "authentication", null, {
    challenge,
    user_verification: "preferred",
  });
  const wa = ctx.config.auth.webauthn;
  // discoverable login: no allowCredentials, the authenticator names the user
  const options = { challenge, timeout: wa.challengeExpiry * 1000, rpId: wa.rpId, userVerification: "preferred" };
  return json(c, { challenge_id: id, options, expires_at: expiresAt });
};

/** POST /passkeys/authentication/verify */
export const passkeyAuthenticationVerify: Handler = async (c, _state, { ctx }) => {
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
};

/** GET /passkeys */
export const passkeyList: Handler = async (c, state, { ctx }) =>
  json(c, (await credentialsOf(ctx.db, callerOf(state).user.id)).map(passkeyJson));

/** PATCH /passkeys/:passkey_id */
export const passkeyUpdate: Handler = async (c, state, { ctx }) => {
  const cred = await findPasskey(ctx.db, callerOf(state).user.id, c.req.param("passkey_id") ?? "");
  const p = await readParams(c, ctx.config.maxBodyBytes, "PasskeyUpdateParams", { friendly_name: "string" });
  if (p.friendly_name === "") throw badRequest("validation_failed", "friendly_name is required");
  if (p.friendly_name.length > 120)
    throw badRequest("validation_failed", "friendly_name must be 120 characters or less");
  return json(c, passkeyJson(await renamePasskey(ctx.db, cred.id, p.friendly_name)));
};

/** DELETE /passkeys/:passkey_id */
export const passkeyDelete: Handler = async (c, state, { ctx }) => {
  const caller = callerOf(state);
  await requireManagementAal(ctx.db, caller);
  const cred = await findPasskey(ctx.db, caller.user.id, c.req.param("passkey_id") ?? "");
  await deletePasskey(ctx.db, cred.id);
  return c.body(null, 204);
};
