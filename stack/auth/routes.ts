import crypto from "node:crypto";
import type { Context, Hono } from "hono";
import { localProviderEnabled } from "../config.ts";
import type { ServiceContext } from "../context.ts";
import type { OutgoingMail } from "../mail/mailer.ts";
import { idTokenGrant, web3Grant } from "./disabled.ts";
import { checkHourlyEmailLimit, checkSendInterval, generateOtp, prepareEmail, tokenHash } from "./emails.ts";
import { AuthError, badRequest, errorResponse, forbidden, tooManyRequests, unprocessable } from "./errors.ts";
import { clientIp } from "../http/client-ip.ts";
import { requestMeta, requireUser } from "./guards.ts";
import { readParams } from "./params.ts";
import { checkPasswordStrength, comparePassword, hashPassword } from "./passwords.ts";
import { issueAuthCode, pkceGrant, validatePkceParams, PKCE_PREFIX } from "./pkce.ts";
import { FailureCounter, type SlidingWindowLimiter } from "./rate-limit.ts";
import { resolveRedirect } from "./redirects.ts";
import { issueSession, logout, refreshGrant, type LogoutScope, type SessionResponse } from "./sessions.ts";
import {
  clearOneTimeTokens,
  confirmUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isBanned,
  isConfirmed,
  updateUserMetadata,
  userJson,
  type UserRow,
} from "./users.ts";
import {
  applyVerification,
  authMethodForType,
  invalidateCodes,
  SINGLE_CONFIRMATION_ACCEPTED,
  verifyEmailAndCode,
  verifyTokenHash,
  VERIFY_TYPES,
  type VerifyType,
} from "./verify.ts";

export function validateEmail(email: string): string {
  if (email === "") throw badRequest("validation_failed", "An email address is required");
  if (email.length > 255) throw badRequest("validation_failed", "An email address is too long");
  if (
    !/^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(
      email,
    )
  ) {
    throw badRequest("validation_failed", "Unable to validate email address: invalid format");
  }
  return email.toLowerCase();
}

export function redirectFor(ctx: ServiceContext, c: Context, fromBody?: string | null): string {
  return resolveRedirect(ctx.config.auth, fromBody || c.req.query("redirect_to"), c.req.header("referer"));
}

export async function sendAll(ctx: ServiceContext, mails: OutgoingMail[]) {
  for (const m of mails) await ctx.mailer.send(m);
}

const json = (c: Context, body: unknown, status = 200) => c.json(body as object, status as 200);

/** The password users made by magic links get (never told to anyone). */
function randomPassword() {
  return `${crypto.randomBytes(24).toString("base64url")}aA1`;
}

export function mountPublicRoutes(app: Hono, ctx: ServiceContext, limiter: SlidingWindowLimiter) {
  const cfg = ctx.config.auth;
  const maxBody = ctx.config.maxBodyBytes;

  // failures per account: wrong codes invalidate the code, wrong passwords lock the address for a while
  const otpFailures = new FailureCounter(cfg.maxOtpAttempts, cfg.otpExpiry * 1000);
  const passwordFailures = new FailureCounter(cfg.maxPasswordFailures, cfg.passwordFailureWindow * 1000);
  // compared against when the address has no password, so both cases take one bcrypt comparison
  let dummyHash: Promise<string> | null = null;

  const limitTokens = (c: Context) => {
    if (!limiter.allow(clientIp(c, ctx.config.trustedProxies)))
      throw tooManyRequests("over_request_rate_limit", "Request rate limit reached");
  };

  // ---- sign-up -------------------------------------------------------------
  interface SignupInput {
    email: string;
    phone: string;
    password: string;
    data: Record<string, unknown> | null;
    code_challenge: string;
    code_challenge_method: string;
  }

  /** GoTrue's Signup; returns the JSON body (user, session, or the obfuscated user). */
  async function signup(c: Context, p: SignupInput): Promise<unknown> {
    if (cfg.disableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
    if (p.password === "") throw badRequest("validation_failed", "Signup requires a valid password");
    checkPasswordStrength(p.password, cfg);
    if (p.email !== "" && p.phone !== "") {
      throw badRequest("validation_failed", "Only an email address or phone number should be provided on signup.");
    }
    validatePkceParams(p.code_challenge_method, p.code_challenge);
    if (p.phone !== "") throw badRequest("phone_provider_disabled", "Phone signups are disabled");
    if (p.email === "") throw badRequest("validation_failed", "Sign up only available with email provider");
    const email = validateEmail(p.email);
    const data = p.data ?? {};
    const redirectTo = redirectFor(ctx, c);
    const existing = await findUserByEmail(ctx.db, email);
    if (existing && isConfirmed(existing)) {
      if (cfg.autoconfirm) throw unprocessable("user_already_exists", "User already registered");
      return obfuscatedUser(existing, email, data);
    }
    const passwordHash = existing ? null : await hashPassword(p.password, cfg.bcryptCost);
    const mails: OutgoingMail[] = [];
    const result = await ctx.db.transaction(async (tx) => {
      const userId = existing
        ? existing.id
        : await insertUser(tx, { email, passwordHash, userMetadata: data, provider: "email" });
      let user = (await findUserById(tx, userId)) as UserRow;
      if (cfg.autoconfirm) {
        await confirmUser(tx, userId);
        user = (await findUserById(tx, userId)) as UserRow;
        return issueSession(ctx, tx, user, "password", requestMeta(ctx, c));
      }
      const prepared = await prepareEmail(ctx, tx, user, "signup", { challenge: p, redirectTo });
      mails.push(prepared.mail);
      return userJson((await findUserById(tx, userId)) as UserRow);
    });
    await sendAll(ctx, mails);
    return result;
  }

  /** What GoTrue answers for an already-confirmed address: a user-shaped body that reveals nothing. */
  function obfuscatedUser(existing: UserRow, email: string, data: Record<string, unknown>) {
    const now = new Date().toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
    const body: Record<string, unknown> = {
      id: crypto.randomUUID(),
      aud: "authenticated",
      role: "",
      email,
      phone: "",
      confirmation_sent_at: now,
    };
    if (existing.recovery_sent_at) body.recovery_sent_at = existing.recovery_sent_at.replace(/\+00(:00)?$/, "Z");
    Object.assign(body, {
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: data,
      identities: [],
      created_at: now,
      updated_at: now,
      is_anonymous: false,
    });
    return body;
  }

  app.post("/signup", async (c) => {
    const p = await readParams(c, maxBody, "SignupParams", {
      email: "string",
      phone: "string",
      password: "string",
      data: "object",
      code_challenge: "string",
      code_challenge_method: "string",
      channel: "string",
    });
    if (p.email === "" && p.phone === "") return json(c, await anonymousSignup(c, p.data ?? {}));
    return json(c, await signup(c, p));
  });

  /** POST /signup without an email or phone: an anonymous user and a session, when the project allows them. */
  async function anonymousSignup(c: Context, data: Record<string, unknown>): Promise<SessionResponse> {
    if (!cfg.anonymousSignIns) throw unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled");
    if (cfg.disableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
    return ctx.db.transaction(async (tx) => {
      const id = crypto.randomUUID();
      await tx.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data,
           created_at, updated_at, is_sso_user, is_anonymous, confirmation_token, recovery_token, email_change_token_new, email_change)
         values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', null, '', '{}'::jsonb, $2,
           now(), now(), false, true, '', '', '', '')`,
        [id, JSON.stringify(data)],
      );
      return issueSession(ctx, tx, (await findUserById(tx, id)) as UserRow, "anonymous", requestMeta(ctx, c));
    });
  }

  // ---- tokens --------------------------------------------------------------
  app.post("/token", async (c) => {
    const grantType = c.req.query("grant_type") ?? "";
    if (grantType === "web3") web3Grant();
    if (grantType === "id_token") return idTokenGrant(ctx, c);
    if (!["password", "refresh_token", "pkce"].includes(grantType)) {
      throw badRequest("invalid_credentials", "unsupported_grant_type");
    }
    limitTokens(c);
    let session: SessionResponse;
    if (grantType === "password") {
      const p = await readParams(c, maxBody, "PasswordGrantParams", {
        email: "string",
        phone: "string",
        password: "string",
      });
      session = await passwordGrant(c, p);
    } else if (grantType === "refresh_token") {
      const p = await readParams(c, maxBody, "RefreshTokenGrantParams", { refresh_token: "string" });
      session = await refreshGrant(ctx, p.refresh_token);
    } else {
      const p = await readParams(c, maxBody, "PKCEGrantParams", { auth_code: "string", code_verifier: "string" });
      session = await pkceGrant(ctx, p.auth_code, p.code_verifier, requestMeta(ctx, c));
    }
    return json(c, session);
  });

  async function passwordGrant(
    c: Context,
    p: { email: string; phone: string; password: string },
  ): Promise<SessionResponse> {
    if (p.email !== "" && p.phone !== "") {
      throw badRequest("validation_failed", "Only an email address or phone number should be provided on login.");
    }
    if (p.phone !== "") throw unprocessable("phone_provider_disabled", "Phone logins are disabled");
    if (p.email === "") throw badRequest("validation_failed", "missing email or phone");
    const account = p.email.toLowerCase();
    if (passwordFailures.reached(account))
      throw tooManyRequests("over_request_rate_limit", "Request rate limit reached");
    const user = await findUserByEmail(ctx.db, p.email);
    dummyHash ??= hashPassword(randomPassword(), cfg.bcryptCost);
    const hash = user?.encrypted_password || (await dummyHash);
    const ok = (await comparePassword(p.password, hash)) && !!user?.encrypted_password;
    if (!user || !ok) {
      passwordFailures.record(account);
      throw badRequest("invalid_credentials", "Invalid login credentials");
    }
    passwordFailures.reset(account);
    // only someone who knows the password learns that the account is banned
    if (isBanned(user)) throw badRequest("user_banned", "User is banned");
    let weak: { message: string; reasons: string[] } | undefined;
    try {
      checkPasswordStrength(p.password, cfg);
    } catch (e) {
      if (e instanceof AuthError && e.extra.weakPasswordReasons)
        weak = { message: e.message, reasons: e.extra.weakPasswordReasons };
    }
    if (!isConfirmed(user)) throw badRequest("email_not_confirmed", "Email not confirmed");
    const session = await ctx.db.transaction((tx) => issueSession(ctx, tx, user, "password", requestMeta(ctx, c)));
    if (weak) session.weak_password = weak;
    return session;
  }

  // ---- one-time passwords and magic links ---------------------------------
  app.post("/otp", async (c) => {
    const p = await readParams(c, maxBody, "OtpParams", {
      email: "string",
      phone: "string",
      create_user: "bool",
      data: "object",
      channel: "string",
      code_challenge: "string",
      code_challenge_method: "string",
    });
    const createUser = p.create_user ?? true;
    if (p.email !== "" && p.phone !== "")
      throw badRequest("validation_failed", "Only an email address or phone number should be provided");
    if (p.email !== "" && p.channel !== "")
      throw badRequest("validation_failed", "Channel should only be specified with Phone OTP");
    validatePkceParams(p.code_challenge_method, p.code_challenge);
    if (p.phone !== "") throw badRequest("phone_provider_disabled", "Unsupported phone provider");
    if (p.email === "") throw badRequest("validation_failed", "One of email or phone must be set");
    const email = validateEmail(p.email);
    let user = await findUserByEmail(ctx.db, email);
    if (!user && (!createUser || cfg.disableSignup)) throw unprocessable("otp_disabled", "Signups not allowed for otp");
    if (!user || !isConfirmed(user)) {
      await signup(c, {
        email,
        phone: "",
        password: randomPassword(),
        data: p.data ?? {},
        code_challenge: p.code_challenge,
        code_challenge_method: p.code_challenge_method,
      });
      if (!cfg.autoconfirm) return json(c, {});
      user = (await findUserByEmail(ctx.db, email)) as UserRow;
    }
    const confirmedUser = user;
    const redirectTo = redirectFor(ctx, c);
    const mail = await ctx.db.transaction(async (tx) => {
      return (await prepareEmail(ctx, tx, confirmedUser, "magiclink", { challenge: p, redirectTo })).mail;
    });
    await sendAll(ctx, [mail]);
    return json(c, {});
  });

  app.post("/magiclink", async (c) => {
    const p = await readParams(c, maxBody, "MagicLinkParams", { email: "string", data: "object" });
    if (p.email === "") throw unprocessable("validation_failed", "Password recovery requires an email");
    const email = validateEmail(p.email);
    const user = await findUserByEmail(ctx.db, email);
    if (!user || !isConfirmed(user)) {
      await signup(c, {
        email,
        phone: "",
        password: randomPassword(),
        data: p.data,
        code_challenge: "",
        code_challenge_method: "",
      });
      return json(c, {});
    }
    const redirectTo = redirectFor(ctx, c);
    const mail = await ctx.db.transaction(
      async (tx) => (await prepareEmail(ctx, tx, user, "magiclink", { redirectTo })).mail,
    );
    await sendAll(ctx, [mail]);
    return json(c, {});
  });

  // ---- verification --------------------------------------------------------
  app.post("/verify", async (c) => {
    limitTokens(c);
    const p = await readParams(c, maxBody, "VerifyParams", {
      type: "string",
      token: "string",
      token_hash: "string",
      email: "string",
      phone: "string",
      redirect_to: "string",
    });
    if (p.type === "") throw badRequest("validation_failed", "Verify requires a verification type");
    if ((p.token === "" && p.token_hash === "") || (p.token !== "" && p.token_hash !== "")) {
      throw badRequest("validation_failed", "Verify requires either a token or a token hash");
    }
    let email = "";
    if (p.token !== "") {
      if (p.phone !== "" && p.email === "") {
        // GoTrue checks the number's format, then looks for the code: none was ever sent to a phone here
        if (!/^[1-9][0-9]{1,14}$/.test(p.phone.replace(/^\+/, "").replaceAll(" ", "")))
          throw badRequest("validation_failed", "Invalid phone number format (E.164 required)");
        if (!["sms", "phone_change", ...VERIFY_TYPES].includes(p.type))
          throw badRequest("validation_failed", "Unsupported verification type");
        throw new AuthError(403, "otp_expired", "Token has expired or is invalid");
      }
      if (!(p.phone === "" && p.email !== "")) {
        throw badRequest("validation_failed", "Only an email address or phone number should be provided on verify");
      }
      try {
        email = validateEmail(p.email);
      } catch {
        throw unprocessable("validation_failed", "Invalid email format");
      }
    } else if (p.email !== "" || p.phone !== "" || p.redirect_to !== "") {
      throw badRequest("validation_failed", "Only the token_hash and type should be provided");
    }
    if (!(VERIFY_TYPES as readonly string[]).includes(p.type)) {
      throw badRequest(
        "validation_failed",
        p.token_hash ? "Invalid email verification type" : "Unsupported verification type",
      );
    }
    let session: SessionResponse | null;
    try {
      session = await ctx.db.transaction(async (tx) => {
        const found = p.token_hash
          ? await verifyTokenHash(ctx, tx, p.type, p.token_hash)
          : await verifyEmailAndCode(ctx, tx, p.type, email, p.token);
        const user = await applyVerification(tx, found, { secureEmailChange: cfg.secureEmailChange });
        return user && issueSession(ctx, tx, user, "otp", requestMeta(ctx, c));
      });
    } catch (error) {
      // A wrong code counts against the address; after too many, its codes
      // and links are void (the answer stays the same, so guessing on learns nothing).
      if (
        email &&
        error instanceof AuthError &&
        error.code === "otp_expired" &&
        otpFailures.record(email) >= otpFailures.limit &&
        otpFailures.limit > 0
      ) {
        await invalidateCodes(ctx.db, email);
        otpFailures.reset(email);
      }
      throw error;
    }
    if (email) otpFailures.reset(email);
    // the first link of a secure email change: GoTrue's answer, no session yet
    if (!session) return json(c, { msg: SINGLE_CONFIRMATION_ACCEPTED, code: "200" });
    return json(c, session);
  });

  app.get("/verify", async (c) => {
    limitTokens(c);
    const token = c.req.query("token") ?? "";
    const type = c.req.query("type") ?? "";
    const redirectTo = redirectFor(ctx, c);
    if (type === "") throw badRequest("validation_failed", "Verify requires a verification type");
    if (token === "") throw badRequest("validation_failed", "Verify requires a token or a token hash");
    const pkce = token.startsWith(PKCE_PREFIX);
    try {
      const outcome = await ctx.db.transaction(async (tx) => {
        const found = await verifyTokenHash(ctx, tx, type, token);
        const user = await applyVerification(tx, found, { secureEmailChange: cfg.secureEmailChange });
        if (!user) return { message: SINGLE_CONFIRMATION_ACCEPTED };
        if (pkce) {
          try {
            return { code: await issueAuthCode(tx, user.id, authMethodForType(found.type)) };
          } catch (e) {
            throw badRequest(
              "flow_state_not_found",
              `No associated flow state found. ${e instanceof Error ? e.message : ""}`.trim(),
            );
          }
        }
        return { session: await issueSession(ctx, tx, user, "otp", requestMeta(ctx, c)), type: found.type };
      });
      if ("message" in outcome) return c.redirect(messageRedirect(redirectTo, outcome.message as string, pkce), 303);
      if ("code" in outcome) {
        const u = new URL(redirectTo);
        u.searchParams.set("code", outcome.code as string);
        return c.redirect(u.toString(), 303);
      }
      return c.redirect(sessionRedirect(redirectTo, outcome.session as SessionResponse, { type }), 303);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return c.redirect(errorRedirect(redirectTo, error, pkce), 303);
    }
  });

  // ---- recovery and resend -------------------------------------------------
  app.post("/recover", async (c) => {
    const p = await readParams(c, maxBody, "RecoverParams", {
      email: "string",
      code_challenge: "string",
      code_challenge_method: "string",
    });
    if (p.email === "") throw unprocessable("validation_failed", "Password recovery requires an email");
    const email = validateEmail(p.email);
    validatePkceParams(p.code_challenge_method, p.code_challenge);
    const user = await findUserByEmail(ctx.db, email);
    if (!user) return json(c, {});
    const redirectTo = redirectFor(ctx, c);
    const mail = await ctx.db.transaction(async (tx) => {
      return (await prepareEmail(ctx, tx, user, "recovery", { challenge: p, redirectTo })).mail;
    });
    await sendAll(ctx, [mail]);
    return json(c, {});
  });

  app.post("/resend", async (c) => {
    const p = await readParams(c, maxBody, "ResendConfirmationParams", {
      type: "string",
      email: "string",
      phone: "string",
      code_challenge: "string",
      code_challenge_method: "string",
    });
    if (!["signup", "email_change", "sms", "phone_change"].includes(p.type)) {
      throw badRequest("validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
    }
    if (p.type === "sms" || p.type === "phone_change")
      throw badRequest("phone_provider_disabled", "SMS Provider could not be found");
    validatePkceParams(p.code_challenge_method, p.code_challenge);
    if (p.email === "") throw badRequest("validation_failed", "Type provided requires an email address");
    const email = validateEmail(p.email);
    const user = await findUserByEmail(ctx.db, email);
    if (!user) return json(c, {});
    if (p.type === "signup" && isConfirmed(user)) return json(c, {});
    if (p.type === "email_change" && !user.email_change) return json(c, {});
    const redirectTo = redirectFor(ctx, c);
    const mails = await ctx.db.transaction(async (tx) => {
      const kind = p.type === "signup" ? "signup" : "email_change";
      return (
        await prepareEmail(ctx, tx, user, kind, { challenge: p, redirectTo, newEmail: user.email_change ?? undefined })
      ).mails;
    });
    await sendAll(ctx, mails);
    return json(c, {});
  });

  // ---- the signed-in user ---------------------------------------------------
  app.get("/user", async (c) => {
    const { user } = await requireUser(ctx, c);
    return json(c, userJson(user));
  });

  app.put("/user", async (c) => {
    const caller = await requireUser(ctx, c);
    const p = await readParams(c, maxBody, "UserUpdateParams", {
      email: "string",
      password: "string?",
      data: "object",
      app_metadata: "object",
      phone: "string",
      nonce: "string",
      code_challenge: "string",
      code_challenge_method: "string",
    });
    const user = caller.user;
    if (p.password !== null && p.password !== "") checkPasswordStrength(p.password, cfg);
    const newEmail = p.email !== "" ? validateEmail(p.email) : "";
    validatePkceParams(p.code_challenge_method, p.code_challenge);
    if (p.app_metadata !== null) throw forbidden("not_admin", "Updating app_metadata requires admin privileges");
    if (p.phone !== "" && p.phone !== user.phone)
      throw badRequest("phone_provider_disabled", "Unsupported phone provider");
    if (newEmail !== "" && newEmail !== user.email) {
      const other = await findUserByEmail(ctx.db, newEmail);
      if (other && other.id !== user.id)
        throw unprocessable("email_exists", "A user with this email address has already been registered");
    }
    let passwordHash: string | null = null;
    if (p.password !== null && p.password !== "") {
      if (user.encrypted_password && (await comparePassword(p.password, user.encrypted_password))) {
        throw unprocessable("same_password", "New password should be different from the old password.");
      }
      passwordHash = await hashPassword(p.password, cfg.bcryptCost);
    }
    const redirectTo = redirectFor(ctx, c);
    const mails: OutgoingMail[] = [];
    const updated = await ctx.db.transaction(async (tx) => {
      if (passwordHash !== null) {
        await tx.query(
          `update auth.users set encrypted_password = $2, confirmation_token = '', confirmation_sent_at = null, recovery_token = '',
             recovery_sent_at = null, email_change_token_current = '', email_change_token_new = '', email_change_sent_at = null,
             reauthentication_token = '', reauthentication_sent_at = null, updated_at = now() where id = $1`,
          [user.id, passwordHash],
        );
        await clearOneTimeTokens(tx, user.id);
        await logout(tx, user.id, caller.sessionId, "others");
      }
      let current = (await findUserById(tx, user.id)) as UserRow;
      if (p.data !== null) {
        await updateUserMetadata(tx, current, p.data);
        current = (await findUserById(tx, user.id)) as UserRow;
      }
      if (newEmail !== "" && newEmail !== current.email) {
        mails.push(
          ...(await prepareEmail(ctx, tx, current, "email_change", { challenge: p, redirectTo, newEmail })).mails,
        );
      }
      return (await findUserById(tx, user.id)) as UserRow;
    });
    await sendAll(ctx, mails);
    return json(c, userJson(updated));
  });

  app.get("/reauthenticate", async (c) => {
    const { user } = await requireUser(ctx, c);
    if (!user.email && !user.phone) {
      throw badRequest("validation_failed", "Reauthentication requires the user to have an email or a phone number");
    }
    if (!user.email) throw badRequest("phone_provider_disabled", "Unsupported phone provider");
    if (!isConfirmed(user)) throw unprocessable("email_not_confirmed", "Please verify your email first.");
    const email = user.email;
    const otp = generateOtp(cfg.otpLength);
    await ctx.db.transaction(async (tx) => {
      await checkHourlyEmailLimit(tx, cfg.emailsPerHour);
      checkSendInterval(user.reauthentication_sent_at ?? null, cfg.emailSendInterval);
      await tx.query(
        "update auth.users set reauthentication_token = $2, reauthentication_sent_at = now() where id = $1",
        [user.id, tokenHash(email, otp)],
      );
    });
    await ctx.mailer.send({
      to: email,
      subject: "Confirm reauthentication",
      html: `<h2>Confirm reauthentication</h2>\n<p>Enter the code: <strong>${otp}</strong></p>`,
    });
    return json(c, {});
  });

  app.post("/logout", async (c) => {
    const caller = await requireUser(ctx, c);
    const raw = c.req.query("scope") ?? "";
    const scope: LogoutScope | null =
      raw === "" || raw === "global" ? "global" : raw === "local" || raw === "others" ? raw : null;
    if (!scope) throw badRequest("validation_failed", `Unsupported logout scope "${raw}"`);
    await ctx.db.transaction((tx) => logout(tx, caller.user.id, caller.sessionId, scope));
    return c.body(null, 204);
  });

  // ---- about the service ----------------------------------------------------
  app.get("/settings", (c) => {
    const external: Record<string, boolean> = {};
    for (const name of [
      "anonymous_users",
      "apple",
      "azure",
      "bitbucket",
      "discord",
      "facebook",
      "snapchat",
      "figma",
      "fly",
      "github",
      "gitlab",
      "google",
      "keycloak",
      "kakao",
      "linkedin",
      "linkedin_oidc",
      "notion",
      "spotify",
      "slack",
      "slack_oidc",
      "workos",
      "twitch",
      "twitter",
      "email",
      "phone",
      "zoom",
    ]) {
      external[name] = false;
    }
    external.email = cfg.emailEnabled;
    external.anonymous_users = cfg.anonymousSignIns;
    for (const name of Object.keys(cfg.externalProviders)) external[name] = true;
    external.local = localProviderEnabled(cfg);
    return json(c, {
      external,
      disable_signup: cfg.disableSignup,
      mailer_autoconfirm: cfg.autoconfirm,
      phone_autoconfirm: false,
      sms_provider: "",
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: cfg.passkey.enabled,
    });
  });
}

/** Tokens in the fragment, as GoTrue's implicit-flow redirects carry them. */
export function sessionRedirect(redirectTo: string, s: SessionResponse, extra: Record<string, string> = {}): string {
  const params: Record<string, string> = {
    ...extra,
    access_token: s.access_token,
    token_type: s.token_type,
    expires_in: String(s.expires_in),
    expires_at: String(s.expires_at),
    refresh_token: s.refresh_token,
    sb: "",
  };
  const q = new URLSearchParams(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]]),
  );
  return `${redirectTo}#${q.toString()}`;
}

const OAUTH_ERROR: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};

/** A message carried back to the app (GoTrue's prepRedirectURL): in the fragment, and in the query for PKCE flows. */
export function messageRedirect(redirectTo: string, message: string, inQuery: boolean): string {
  const u = new URL(redirectTo);
  if (inQuery) u.searchParams.set("message", message);
  u.hash = new URLSearchParams([
    ["message", message],
    ["sb", ""],
  ]).toString();
  return u.toString();
}

/** An error carried back to the app: in the fragment always, and in the query for PKCE flows. */
export function errorRedirect(redirectTo: string, error: AuthError, inQuery: boolean): string {
  const u = new URL(redirectTo);
  const params: [string, string][] = [];
  if (OAUTH_ERROR[error.status]) params.push(["error", OAUTH_ERROR[error.status]]);
  params.push(["error_code", error.code], ["error_description", error.message]);
  if (inQuery) for (const [k, v] of params) u.searchParams.set(k, v);
  const fragment = new URLSearchParams([...params, ["sb", ""]].sort(([a], [b]) => a.localeCompare(b)));
  u.hash = fragment.toString();
  return u.toString();
}

export { errorResponse };
export type { VerifyType };
