import crypto from "node:crypto";
import type { Context, Hono } from "hono";
import QRCode from "qrcode";
import type { ServiceContext } from "../context.ts";
import type { Queryable } from "../db/types.ts";
import { AuthError, badRequest, forbidden, notFound, tooManyRequests, unprocessable } from "./errors.ts";
import { clientIp } from "../http/client-ip.ts";
import { requireAdmin, requireUser, type Caller } from "./guards.ts";
import { readParams } from "./params.ts";
import type { AuthDeps } from "./router.ts";
import { reissueSession } from "./sessions.ts";
import { newTotpSecret, totpStep, totpUri } from "./totp.ts";
import { factorJson, findUserById, isUuid, type FactorRow, type UserRow } from "./users.ts";

/**
 * Multi-factor authentication as GoTrue serves it: /factors to enroll a
 * TOTP factor, /factors/:id/challenge and /verify to step a session up to
 * aal2 (the `aal` and `amr` claims of the next access token say so),
 * DELETE /factors/:id to unenroll, and the admin API's
 * /admin/users/:id/factors. Phone and WebAuthn factors answer as a GoTrue
 * with their enrolment disabled does (no SMS provider, no WebAuthn here).
 */
const FACTOR_COLUMNS = `id, user_id, friendly_name, factor_type, status, created_at, updated_at, last_challenged_at, phone`;
/** Unverified factors older than this are dropped on the next enrolment (GoTrue's factor_expiry_duration). */
const FACTOR_EXPIRY_SECONDS = 300;
const MAX_VERIFIED_FACTORS = 10;

interface ChallengeRow {
  id: string;
  factor_id: string;
  created_at: string;
  verified_at: string | null;
  ip_address: string;
  age: number;
}

function normalizeIp(ip: string): string {
  return ip.replace(/^::ffff:/, "");
}

async function loadFactor(q: Queryable, user: UserRow, id: string): Promise<FactorRow & { secret: string | null }> {
  if (!isUuid(id)) throw notFound("validation_failed", "factor_id must be an UUID");
  const { rows } = await q.query<FactorRow & { secret: string | null }>(
    `select ${FACTOR_COLUMNS}, secret from auth.mfa_factors where id = $1 and user_id = $2`,
    [id, user.id],
  );
  if (!rows[0]) throw notFound("mfa_factor_not_found", "Factor not found");
  return rows[0];
}

async function validateFactors(ctx: ServiceContext, q: Queryable, caller: Caller, friendlyName: string) {
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

async function sessionAal(q: Queryable, sessionId: string | null): Promise<string> {
  if (!sessionId) return "aal1";
  const { rows } = await q.query<{ aal: string | null }>("select aal from auth.sessions where id = $1", [sessionId]);
  return rows[0]?.aal ?? "aal1";
}

function requireNotAnonymous(caller: Caller) {
  if (caller.claims.is_anonymous === true) {
    throw forbidden("no_authorization", "Anonymous user not allowed to perform these actions");
  }
}

function requireSession(caller: Caller, what: string): string {
  if (!caller.sessionId) throw new AuthError(500, "unexpected_failure", what);
  return caller.sessionId;
}

function challengeExpired(id: string) {
  return unprocessable(
    "mfa_challenge_expired",
    `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`,
  );
}

export function mountMfaRoutes(app: Hono, deps: AuthDeps) {
  const { ctx, mfaChallengeLimiter, mfaVerifyLimiter, mfaChallengeAttempts, usedTotpSteps } = deps;
  const cfg = ctx.config.auth;
  /** GoTrue's limitHandler: per client IP, after the factor was found */
  const rateLimit = (c: Context, limiter: typeof mfaVerifyLimiter) => {
    if (!limiter.allow(clientIp(c, ctx.config.trustedProxies)))
      throw tooManyRequests("over_request_rate_limit", "Request rate limit reached");
  };
  const maxBody = ctx.config.maxBodyBytes;

  const factorCaller = async (c: Context) => {
    const caller = await requireUser(ctx, c);
    requireNotAnonymous(caller);
    return caller;
  };

  app.post("/factors", async (c) => {
    const caller = await factorCaller(c);
    requireSession(caller, "A valid session and a registered user are required to enroll a factor");
    const p = await readParams(c, maxBody, "EnrollFactorParams", {
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
      const id = crypto.randomUUID();
      await ctx.db.transaction(async (tx) => {
        await validateFactors(ctx, tx, caller, p.friendly_name);
        await tx.query(
          `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
           values ($1, $2, $3, 'webauthn', 'unverified', now(), now())`,
          [id, caller.user.id, p.friendly_name],
        );
      });
      return c.json({ id, type: "webauthn", friendly_name: p.friendly_name });
    }
    if (p.factor_type !== "totp")
      throw badRequest("validation_failed", "factor_type needs to be totp, phone, or webauthn");
    if (!cfg.mfa.totpEnroll) throw unprocessable("mfa_totp_enroll_not_enabled", "MFA enroll is disabled for TOTP");
    const issuer = p.issuer || new URL(cfg.siteUrl).host;
    const secret = newTotpSecret();
    const uri = totpUri(secret, issuer, caller.user.email ?? "");
    const qr = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "H", margin: 0 });
    const id = crypto.randomUUID();
    await ctx.db.transaction(async (tx) => {
      await validateFactors(ctx, tx, caller, p.friendly_name);
      await tx.query(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
         values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
        [id, caller.user.id, p.friendly_name, secret],
      );
    });
    return c.json({ id, type: "totp", friendly_name: p.friendly_name, totp: { qr_code: qr, secret, uri } });
  });

  app.post("/factors/:factor_id/challenge", async (c) => {
    const caller = await factorCaller(c);
    const factor = await loadFactor(ctx.db, caller.user, c.req.param("factor_id"));
    rateLimit(c, mfaChallengeLimiter);
    await readParams(c, maxBody, "ChallengeFactorParams", { channel: "string" });
    if (factor.factor_type !== "totp") {
      const kind = factor.factor_type === "phone" ? "Phone" : "WebAuthn";
      throw unprocessable(`mfa_${factor.factor_type}_verify_not_enabled`, `MFA verification is disabled for ${kind}`);
    }
    if (!cfg.mfa.totpVerify)
      throw unprocessable("mfa_totp_verify_not_enabled", "MFA verification is disabled for TOTP");
    const id = crypto.randomUUID();
    const createdAt = await ctx.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ at: number }>(
        `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3::inet)
         returning extract(epoch from created_at)::float8 as at`,
        [id, factor.id, normalizeIp(clientIp(c, ctx.config.trustedProxies))],
      );
      await tx.query("update auth.mfa_factors set last_challenged_at = now(), updated_at = now() where id = $1", [
        factor.id,
      ]);
      return Number(rows[0].at);
    });
    return c.json({ id, type: "totp", expires_at: Math.floor(createdAt + cfg.mfa.challengeExpiry) });
  });

  app.post("/factors/:factor_id/verify", async (c) => {
    const caller = await factorCaller(c);
    const sessionId = requireSession(caller, "A valid session is required to verify a factor");
    const factor = await loadFactor(ctx.db, caller.user, c.req.param("factor_id"));
    rateLimit(c, mfaVerifyLimiter);
    const p = await readParams(c, maxBody, "VerifyFactorParams", { challenge_id: "string", code: "string" });
    if (p.code === "" && factor.factor_type !== "webauthn")
      throw badRequest("validation_failed", "Code needs to be non-empty");
    if (factor.factor_type !== "totp") {
      const kind = factor.factor_type === "phone" ? "Phone" : "WebAuthn";
      throw unprocessable(`mfa_${factor.factor_type}_verify_not_enabled`, `MFA verification is disabled for ${kind}`);
    }
    if (!cfg.mfa.totpVerify)
      throw unprocessable("mfa_totp_verify_not_enabled", "MFA verification is disabled for TOTP");
    const challenge = isUuid(p.challenge_id)
      ? (
          await ctx.db.query<ChallengeRow>(
            `select id, factor_id, created_at, verified_at, host(ip_address) as ip_address,
                    extract(epoch from now() - created_at)::float8 as age
             from auth.mfa_challenges where id = $1 and factor_id = $2`,
            [p.challenge_id, factor.id],
          )
        ).rows[0]
      : undefined;
    if (!challenge) throw unprocessable("mfa_factor_not_found", "MFA factor with the provided challenge ID not found");
    if (challenge.verified_at || challenge.ip_address !== normalizeIp(clientIp(c, ctx.config.trustedProxies))) {
      throw unprocessable("mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.");
    }
    // a challenge checks so many codes (counted before the check, so requests sent at once count too), then is void
    const attempts = mfaChallengeAttempts.record(challenge.id);
    const exhausted = mfaChallengeAttempts.limit > 0 && attempts > mfaChallengeAttempts.limit;
    if (Number(challenge.age) > cfg.mfa.challengeExpiry || exhausted) {
      await ctx.db.query("delete from auth.mfa_challenges where id = $1", [challenge.id]);
      throw challengeExpired(challenge.id);
    }
    // each code once per factor: claimed at once, before any await, so two requests with one code can't both pass
    const step = factor.secret ? totpStep(factor.secret, p.code) : null;
    if (step === null || !usedTotpSteps.claim(factor.id, step)) {
      throw unprocessable("mfa_verification_failed", "Invalid TOTP code entered");
    }
    const session = await ctx.db.transaction(async (tx) => {
      await tx.query("update auth.mfa_challenges set verified_at = now() where id = $1", [challenge.id]);
      if (factor.status !== "verified") {
        await tx.query("update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1", [
          factor.id,
        ]);
      }
      await tx.query(
        `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
         values (gen_random_uuid(), $1, now(), now(), 'totp')
         on conflict (session_id, authentication_method) do update set updated_at = now()`,
        [sessionId],
      );
      await tx.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [
        sessionId,
        factor.id,
      ]);
      const response = await reissueSession(ctx, tx, caller.user.id, sessionId);
      await tx.query("delete from auth.sessions where user_id = $1 and aal < 'aal2'", [caller.user.id]);
      await tx.query(
        "delete from auth.mfa_factors where user_id = $1 and factor_type = 'totp' and status = 'unverified'",
        [caller.user.id],
      );
      return response;
    });
    return c.json(session);
  });

  app.delete("/factors/:factor_id", async (c) => {
    const caller = await factorCaller(c);
    const sessionId = requireSession(caller, "A valid session and factor are required to unenroll a factor");
    const factor = await loadFactor(ctx.db, caller.user, c.req.param("factor_id"));
    if (factor.status === "verified" && (await sessionAal(ctx.db, sessionId)) !== "aal2") {
      throw unprocessable("insufficient_aal", "AAL2 required to unenroll verified factor");
    }
    await ctx.db.transaction((tx) => deleteFactor(tx, factor));
    return c.json({ id: factor.id });
  });

  // ---- admin ----------------------------------------------------------------
  const adminUser = async (c: Context) => {
    await requireAdmin(ctx, c);
    const id = c.req.param("id") ?? "";
    if (!isUuid(id)) throw notFound("validation_failed", "user_id must be an UUID");
    const user = await findUserById(ctx.db, id);
    if (!user) throw notFound("user_not_found", "User not found");
    return user;
  };

  app.get("/admin/users/:id/factors", async (c) => {
    const user = await adminUser(c);
    return c.json((user.factors ?? []).map(factorJson));
  });

  app.delete("/admin/users/:id/factors/:factor_id", async (c) => {
    const user = await adminUser(c);
    const factor = await loadFactor(ctx.db, user, c.req.param("factor_id"));
    await ctx.db.transaction((tx) => deleteFactor(tx, factor));
    return c.json(factorJson(factor));
  });

  app.put("/admin/users/:id/factors/:factor_id", async (c) => {
    const user = await adminUser(c);
    const factor = await loadFactor(ctx.db, user, c.req.param("factor_id"));
    const p = await readParams(c, maxBody, "AdminUserUpdateFactorParams", { friendly_name: "string", phone: "string" });
    if (p.friendly_name !== "") {
      await ctx.db.query("update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1", [
        factor.id,
        p.friendly_name,
      ]);
    }
    const updated = await loadFactor(ctx.db, user, factor.id);
    return c.json(factorJson(updated));
  });
}

/** Removes a factor and takes the sessions it stepped up back to aal1. */
async function deleteFactor(q: Queryable, factor: FactorRow) {
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
