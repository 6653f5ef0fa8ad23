/**
 * /factors: enrolling a TOTP factor, challenging it and verifying a code
 * (which steps the session up to aal2: the next access token's `aal` and
 * `amr` say so), and unenrolling, as GoTrue's mfa.go serves them. Phone and
 * WebAuthn factors answer as a GoTrue with their enrolment off (no SMS here;
 * WebAuthn factors are stored but not challenged). A challenge checks a few
 * codes, then is void; a factor takes each code once (docs/decisions/0013).
 */
import QRCode from "qrcode";
import { clientIp } from "../../http/client-ip.ts";
import { AuthError, badRequest, unprocessable } from "../errors.ts";
import type { Caller } from "../guards.ts";
import {
  challengeExpired,
  checkEnrolment,
  createChallenge,
  deleteFactor,
  findChallenge,
  insertFactor,
  normalizeIp,
  sessionAal,
  stepUp,
  verificationDisabled,
} from "../mfa.ts";
import { readParams } from "../params.ts";
import { callerOf, factorOf, json, type Handler } from "../router.ts";
import { newTotpSecret, totpStep, totpUri } from "../totp.ts";

function requireSession(caller: Caller, what: string): string {
  if (!caller.sessionId) throw new AuthError(500, "unexpected_failure", what);
  return caller.sessionId;
}

/** POST /factors */
export const enrollFactor: Handler = async (c, state, { ctx }) => {
  const cfg = ctx.config.auth;
  const caller = callerOf(state);
  requireSession(caller, "A valid session and a registered user are required to enroll a factor");
  const p = await readParams(c, ctx.config.maxBodyBytes, "EnrollFactorParams", {
    friendly_name: "string",
    factor_type: "string",
    issuer: "string",
    phone: "string",
  });
  if (p.factor_type === "phone")
    throw unprocessable("mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone");
  if (p.factor_type === "webauthn") {
    if (!cfg.mfa.webauthnEnroll)
      throw unprocessable("mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn");
    const id = await ctx.db.transaction(async (tx) => {
      await checkEnrolment(ctx, tx, caller, p.friendly_name);
      return insertFactor(tx, caller.user.id, { type: "webauthn", friendlyName: p.friendly_name });
    });
    return json(c, { id, type: "webauthn", friendly_name: p.friendly_name });
  }
  if (p.factor_type !== "totp")
    throw badRequest("validation_failed", "factor_type needs to be totp, phone, or webauthn");
  if (!cfg.mfa.totpEnroll) throw unprocessable("mfa_totp_enroll_not_enabled", "MFA enroll is disabled for TOTP");
  const issuer = p.issuer || new URL(cfg.siteUrl).host;
  const secret = newTotpSecret();
  const uri = totpUri(secret, issuer, caller.user.email ?? "");
  const qr = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "H", margin: 0 });
  const id = await ctx.db.transaction(async (tx) => {
    await checkEnrolment(ctx, tx, caller, p.friendly_name);
    return insertFactor(tx, caller.user.id, { type: "totp", friendlyName: p.friendly_name, secret });
  });
  return json(c, { id, type: "totp", friendly_name: p.friendly_name, totp: { qr_code: qr, secret, uri } });
};

/** POST /factors/:factor_id/challenge */
export const challengeFactor: Handler = async (c, state, { ctx }) => {
  const factor = factorOf(state);
  await readParams(c, ctx.config.maxBodyBytes, "ChallengeFactorParams", { channel: "string" });
  if (factor.factor_type !== "totp") throw verificationDisabled(factor.factor_type);
  if (!ctx.config.auth.mfa.totpVerify) throw verificationDisabled("totp");
  const { id, createdAt } = await createChallenge(ctx, factor.id, clientIp(c, ctx.config.trustedProxies));
  return json(c, { id, type: "totp", expires_at: Math.floor(createdAt + ctx.config.auth.mfa.challengeExpiry) });
};

/** POST /factors/:factor_id/verify */
export const verifyFactor: Handler = async (c, state, { ctx, mfaChallengeAttempts, usedTotpSteps }) => {
  const caller = callerOf(state);
  const factor = factorOf(state);
  const sessionId = requireSession(caller, "A valid session is required to verify a factor");
  const p = await readParams(c, ctx.config.maxBodyBytes, "VerifyFactorParams", {
    challenge_id: "string",
    code: "string",
  });
  if (p.code === "" && factor.factor_type !== "webauthn")
    throw badRequest("validation_failed", "Code needs to be non-empty");
  if (factor.factor_type !== "totp") throw verificationDisabled(factor.factor_type);
  if (!ctx.config.auth.mfa.totpVerify) throw verificationDisabled("totp");
  const challenge = await findChallenge(ctx.db, factor.id, p.challenge_id);
  if (!challenge) throw unprocessable("mfa_factor_not_found", "MFA factor with the provided challenge ID not found");
  if (challenge.verified_at || challenge.ip_address !== normalizeIp(clientIp(c, ctx.config.trustedProxies))) {
    throw unprocessable("mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.");
  }
  // a challenge checks so many codes (counted before the check, so requests sent at once count too), then is void
  const attempts = mfaChallengeAttempts.record(challenge.id);
  const exhausted = mfaChallengeAttempts.limit > 0 && attempts > mfaChallengeAttempts.limit;
  if (Number(challenge.age) > ctx.config.auth.mfa.challengeExpiry || exhausted) {
    await ctx.db.query("delete from auth.mfa_challenges where id = $1", [challenge.id]);
    throw challengeExpired(challenge.id);
  }
  // each code once per factor: claimed at once, before any await, so two requests with one code can't both pass
  const step = factor.secret ? totpStep(factor.secret, p.code) : null;
  if (step === null || !usedTotpSteps.claim(factor.id, step)) {
    throw unprocessable("mfa_verification_failed", "Invalid TOTP code entered");
  }
  const session = await ctx.db.transaction((tx) => stepUp(ctx, tx, caller.user.id, sessionId, factor, challenge.id));
  return json(c, session);
};

/** DELETE /factors/:factor_id */
export const unenrollFactor: Handler = async (c, state, { ctx }) => {
  const caller = callerOf(state);
  const factor = factorOf(state);
  const sessionId = requireSession(caller, "A valid session and factor are required to unenroll a factor");
  if (factor.status === "verified" && (await sessionAal(ctx.db, sessionId)) !== "aal2") {
    throw unprocessable("insufficient_aal", "AAL2 required to unenroll verified factor");
  }
  await ctx.db.transaction((tx) => deleteFactor(tx, factor));
  return json(c, { id: factor.id });
};
