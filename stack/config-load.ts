/**
 * Where the stack's configuration comes from when it runs as a program: the
 * defaults (config.ts), then a JSON file (`supabase/local-stack.json`, or
 * `--config <file>`), then environment variables, then overrides in code.
 */
import fs from "node:fs";
import {
  defaultConfig,
  mergeConfig,
  stripUndefined,
  type OAuthProviderConfig,
  type StackConfig,
  type StackConfigOverrides,
} from "./config.ts";

export function loadConfig(
  options: { file?: string | null; env?: Record<string, string | undefined>; overrides?: StackConfigOverrides } = {},
) {
  let config = defaultConfig();
  const file = options.file ?? (fs.existsSync("supabase/local-stack.json") ? "supabase/local-stack.json" : null);
  if (file) config = mergeConfig(config, JSON.parse(fs.readFileSync(file, "utf8")) as StackConfigOverrides);
  config = mergeConfig(config, configFromEnv(options.env ?? process.env));
  if (options.overrides) config = mergeConfig(config, options.overrides);
  return config;
}

const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
const bool = (v: string | undefined) => (v === undefined || v === "" ? undefined : v === "true" || v === "1");
const list = (v: string | undefined) => (v === undefined || v === "" ? undefined : v.split(",").map((s) => s.trim()));

/** "20ms", "20" or "0.5s" → milliseconds; anything else is refused. */
export function parseLatency(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/.exec(value);
  if (!match) throw new Error(`A latency is a duration like 20ms or 0.1s, not "${value}".`);
  return Number(match[1]) * (match[2] === "s" ? 1000 : 1);
}

/** Environment variables the stack reads (names follow GoTrue's where it has one). */
export function configFromEnv(env: Record<string, string | undefined> = process.env): StackConfigOverrides {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    apiUrl: env.STACK_API_URL || undefined,
    trustedProxies: list(env.STACK_TRUSTED_PROXIES),
    smtpPort: num(env.STACK_SMTP_PORT),
    latencyMs: env.STACK_LATENCY ? parseLatency(env.STACK_LATENCY) : undefined,
    auth: {
      siteUrl: env.GOTRUE_SITE_URL || env.SITE_URL || undefined,
      additionalRedirectUrls: list(env.GOTRUE_URI_ALLOW_LIST),
      jwtExpiry: num(env.GOTRUE_JWT_EXP),
      autoconfirm: bool(env.GOTRUE_MAILER_AUTOCONFIRM),
      tokenRequestsPerMinute: num(env.GOTRUE_RATE_LIMIT_TOKEN_PER_MINUTE),
      mfaRequestsPerMinute: num(env.GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY),
      emailSendInterval: num(env.GOTRUE_RATE_LIMIT_EMAIL_INTERVAL),
      emailsPerHour: num(env.GOTRUE_RATE_LIMIT_EMAIL_SENT),
      disableSignup: bool(env.GOTRUE_DISABLE_SIGNUP),
      passwordMinLength: num(env.GOTRUE_PASSWORD_MIN_LENGTH),
      passwordRequiredCharacters: env.GOTRUE_PASSWORD_REQUIRED_CHARACTERS,
      refreshTokenRotation: bool(env.GOTRUE_SECURITY_REFRESH_TOKEN_ROTATION_ENABLED),
      refreshTokenReuseInterval: num(env.GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL),
      otpLength: num(env.GOTRUE_MAILER_OTP_LENGTH),
      otpExpiry: num(env.GOTRUE_MAILER_OTP_EXP),
      jwtSecret: env.GOTRUE_JWT_SECRET || undefined,
      jwtKeys: env.GOTRUE_JWT_KEYS ? (JSON.parse(env.GOTRUE_JWT_KEYS) as import("jose").JWK[]) : undefined,
      signingKeysPath: env.GOTRUE_JWT_KEYS_PATH || undefined,
      anonymousSignIns: bool(env.GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED),
      emailEnabled: bool(env.GOTRUE_EXTERNAL_EMAIL_ENABLED),
      secureEmailChange: bool(env.GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED),
      mfa: mfaFromEnv(env),
      oauthServer: sectionFromEnv("oauthServer", {
        enabled: bool(env.GOTRUE_OAUTH_SERVER_ENABLED),
        allowDynamicRegistration: bool(env.GOTRUE_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION),
      }),
      passkey: sectionFromEnv("passkey", {
        enabled: bool(env.GOTRUE_PASSKEY_ENABLED),
        maxPerUser: num(env.GOTRUE_PASSKEY_MAX_PASSKEYS_PER_USER),
      }),
      webauthn: sectionFromEnv("webauthn", {
        rpId: env.GOTRUE_WEBAUTHN_RP_ID || undefined,
        rpDisplayName: env.GOTRUE_WEBAUTHN_RP_DISPLAY_NAME || undefined,
        rpOrigins: list(env.GOTRUE_WEBAUTHN_RP_ORIGINS),
      }),
      externalProviders: providersFromEnv(env),
      maxOtpAttempts: num(env.STACK_AUTH_MAX_OTP_ATTEMPTS),
      maxMfaAttemptsPerChallenge: num(env.STACK_AUTH_MAX_MFA_ATTEMPTS_PER_CHALLENGE),
      localProvider: bool(env.STACK_AUTH_LOCAL_PROVIDER),
      maxPasswordFailures: num(env.STACK_AUTH_MAX_PASSWORD_FAILURES),
      smtp: env.GOTRUE_SMTP_HOST
        ? {
            host: env.GOTRUE_SMTP_HOST,
            port: Number(env.GOTRUE_SMTP_PORT ?? 587),
            user: env.GOTRUE_SMTP_USER,
            pass: env.GOTRUE_SMTP_PASS,
          }
        : undefined,
    },
    rest: {
      schemas: list(env.PGRST_DB_SCHEMAS),
      maxRows: num(env.PGRST_DB_MAX_ROWS),
    },
    storage: {
      fileSizeLimit: num(env.FILE_SIZE_LIMIT),
    },
    functions: {
      offline: bool(env.STACK_FUNCTIONS_OFFLINE),
    },
    realtime: {
      maxConnections: num(env.REALTIME_MAX_CONNECTIONS),
      maxConnectionsPerClient: num(env.REALTIME_MAX_CONNECTIONS_PER_CLIENT),
      maxJoinsPerSecond: num(env.REALTIME_MAX_JOINS_PER_SECOND),
      maxChannelsPerClient: num(env.REALTIME_MAX_CHANNELS_PER_CLIENT),
      maxEventsPerSecond: num(env.REALTIME_MAX_EVENTS_PER_SECOND),
      maxPayloadBytes: num(env.REALTIME_MAX_PAYLOAD_BYTES),
    },
    cron: { logRuns: bool(env.STACK_CRON_LOG) },
    net: {
      allowedHosts: list(env.STACK_NET_ALLOWED_HOSTS),
    },
  };
}

/** GOTRUE_EXTERNAL_<NAME>_ENABLED=true with _CLIENT_ID and _SECRET (phone, email, anonymous users are not OAuth providers). */
function providersFromEnv(env: Record<string, string | undefined>): Record<string, OAuthProviderConfig> | undefined {
  const out: Record<string, OAuthProviderConfig> = {};
  for (const [key, value] of Object.entries(env)) {
    const m = /^GOTRUE_EXTERNAL_([A-Z0-9_]+)_ENABLED$/.exec(key);
    if (!m || value !== "true" || ["EMAIL", "PHONE", "ANONYMOUS_USERS"].includes(m[1])) continue;
    const prefix = `GOTRUE_EXTERNAL_${m[1]}_`;
    out[m[1].toLowerCase()] = { clientId: env[`${prefix}CLIENT_ID`] ?? "", secret: env[`${prefix}SECRET`] ?? "" };
  }
  return Object.keys(out).length ? out : undefined;
}

function mfaFromEnv(env: Record<string, string | undefined>): StackConfig["auth"]["mfa"] | undefined {
  const over = stripUndefined({
    maxEnrolledFactors: num(env.GOTRUE_MFA_MAX_ENROLLED_FACTORS),
    challengeExpiry: num(env.GOTRUE_MFA_CHALLENGE_EXPIRY_DURATION),
    totpEnroll: bool(env.GOTRUE_MFA_TOTP_ENROLL_ENABLED),
    totpVerify: bool(env.GOTRUE_MFA_TOTP_VERIFY_ENABLED),
    webauthnEnroll: bool(env.GOTRUE_MFA_WEB_AUTHN_ENROLL_ENABLED),
  });
  return Object.keys(over).length ? { ...defaultConfig().auth.mfa, ...over } : undefined;
}

/** A nested auth section from the environment: the defaults with what is set, or undefined when nothing is. */
function sectionFromEnv<K extends "oauthServer" | "passkey" | "webauthn">(
  key: K,
  values: Partial<Record<keyof StackConfig["auth"][K], unknown>>,
): StackConfig["auth"][K] | undefined {
  const over = stripUndefined(values as Record<string, unknown>);
  return Object.keys(over).length ? { ...defaultConfig().auth[key], ...over } : undefined;
}
