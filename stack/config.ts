import fs from "node:fs";
import { DEFAULT_LIMITS, type InputLimits } from "./http/limits.ts";
import type { RealtimeLimits } from "./realtime/types.ts";

/**
 * The local stack's configuration. Defaults mirror a hosted project's
 * defaults (and docs/product.md §9); a JSON file (`supabase/local-stack.json`, or
 * `--config <file>`) and then environment variables override them; tests pass
 * overrides in code.
 */
export interface EmailTemplate {
  subject: string;
  /** HTML body; placeholders as in Supabase's templates: {{ .ConfirmationURL }}, {{ .Token }}, {{ .TokenHash }}, {{ .SiteURL }}, {{ .RedirectTo }}, {{ .Email }}, {{ .NewEmail }} */
  html: string;
}

export interface OAuthProviderConfig {
  clientId: string;
  secret: string;
  /** authorize / token / userinfo endpoints of the provider */
  authorizeUrl?: string;
  tokenUrl?: string;
  userInfoUrl?: string;
}

export interface StackConfig {
  host: string;
  port: number;
  /** data folder; null keeps the database in memory (tests) */
  dataDir: string | null;
  /** a native PostgreSQL instead of PGlite */
  databaseUrl: string | null;
  /** public URL of the API (defaults to http://host:port) */
  apiUrl: string | null;
  migrationsDir: string;
  seedFile: string | null;
  /** largest request body any service accepts, in bytes */
  maxBodyBytes: number;
  /**
   * addresses of reverse proxies in front of the stack whose X-Forwarded-For
   * is believed (none by default: a client-sent header is ignored)
   */
  trustedProxies: string[];
  /** sizes and nesting of client input, checked before anything reaches SQL (stack/http/limits.ts) */
  limits: InputLimits;
  /** the inbox's SMTP listener; null: the API port + 4 (54325 beside 54321, as Supabase's local Mailpit), or a random port when the API's is random */
  smtpPort: number | null;
  functions: {
    /** supabase/functions: one folder per function with an index.ts */
    dir: string;
    /** supabase/config.toml: `[functions.<name>] verify_jwt = false` */
    configFile: string;
    /** a request still unanswered after this long is cut off with 546 and its worker stopped */
    wallClockLimitMs: number;
    /** largest request body a function accepts, in bytes */
    maxBodyBytes: number;
  };
  /** added before every API request is handled: a hosted backend's network round trip, for benchmarks (0 = none) */
  latencyMs: number;
  auth: {
    siteUrl: string;
    /** further allowed redirect targets; `*` and `**` globs as in Supabase's allow list */
    additionalRedirectUrls: string[];
    jwtExpiry: number;
    refreshTokenRotation: boolean;
    refreshTokenReuseInterval: number;
    autoconfirm: boolean;
    /** email links and codes stay valid this long (seconds) */
    otpExpiry: number;
    otpLength: number;
    /** PKCE flow state lifetime (seconds) */
    flowStateExpiry: number;
    /** at most one email of each kind per address in this many seconds */
    emailSendInterval: number;
    /** token requests per IP per minute (password, refresh, pkce, otp verify) */
    tokenRequestsPerMinute: number;
    /**
     * wrong codes accepted for one address before its outstanding codes and
     * links are invalidated (a new one must be requested); 0: no limit
     */
    maxOtpAttempts: number;
    /** failed password sign-ins for one address within `passwordFailureWindow` seconds before it is refused with 429; 0: no limit */
    maxPasswordFailures: number;
    passwordFailureWindow: number;
    /** emails per hour across the project (Supabase's built-in SMTP limit is low; local default is generous) */
    emailsPerHour: number;
    passwordMinLength: number;
    /** "" | "letters_digits" | "lower_upper_letters_digits" | "lower_upper_letters_digits_symbols" */
    passwordRequiredCharacters: string;
    bcryptCost: number;
    disableSignup: boolean;
    mailerSenderName: string;
    mailerSenderEmail: string;
    templates: Partial<Record<"confirmation" | "magic_link" | "recovery" | "email_change" | "invite", EmailTemplate>>;
    /**
     * The built-in `local` OAuth provider (a consent page that signs in as any
     * address, no password; for development and tests). null: on only when
     * the site URL is local (localhost, 127.0.0.1, ::1); true/false: forced.
     */
    localProvider: boolean | null;
    externalProviders: Record<string, OAuthProviderConfig>;
    smtp: { host: string; port: number; user?: string; pass?: string; secure?: boolean } | null;
    /** legacy HS256 secret: tokens signed with it are accepted (hosted still accepts them) */
    jwtSecret: string | null;
    /** further signing/verification keys as JWKs (GoTrue's GOTRUE_JWT_KEYS); a key with "sign" in key_ops signs */
    jwtKeys: import("jose").JWK[];
    /** a JSON file with such keys (the CLI's signing_keys_path) */
    signingKeysPath: string | null;
    /** POST /signup without credentials makes an anonymous user (hosted default: off) */
    anonymousSignIns: boolean;
    /** email sign-ups and sign-ins (GOTRUE_EXTERNAL_EMAIL_ENABLED) */
    emailEnabled: boolean;
    /** GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED (on, as hosted): an email change is confirmed from the current and the new address */
    secureEmailChange: boolean;
    mfa: {
      maxEnrolledFactors: number;
      /** a challenge must be verified within this many seconds */
      challengeExpiry: number;
      totpEnroll: boolean;
      totpVerify: boolean;
      /** WebAuthn factors can be enrolled (stored unverified); challenging them is not supported here */
      webauthnEnroll: boolean;
    };
    /** the OAuth 2.1 server's client registry (GOTRUE_OAUTH_SERVER_*; hosted default: off) */
    oauthServer: { enabled: boolean; allowDynamicRegistration: boolean };
    /** passkey sign-in (GOTRUE_PASSKEY_*; hosted default: off) */
    passkey: { enabled: boolean; maxPerUser: number };
    /** the WebAuthn relying party passkeys are bound to (GOTRUE_WEBAUTHN_*) */
    webauthn: { rpId: string; rpDisplayName: string; rpOrigins: string[]; challengeExpiry: number };
  };
  rest: {
    schemas: string[];
    maxRows: number;
    /**
     * statement_timeout per request, by role, in milliseconds (0: none), as
     * hosted projects set it on the roles (anon 3 s, authenticated 8 s,
     * service_role the authenticator's 8 s)
     */
    statementTimeout: Record<"anon" | "authenticated" | "service_role", number>;
  };
  storage: {
    /** largest object any upload may write, in bytes (hosted's free tier: 50 MB); a bucket's own limit can only be lower */
    fileSizeLimit: number;
  };
  /** the Realtime service's bounds (stack/realtime/types.ts) */
  realtime: RealtimeLimits;
}

export type StackConfigOverrides = Partial<
  Omit<StackConfig, "auth" | "rest" | "functions" | "storage" | "limits" | "realtime">
> & {
  auth?: Partial<StackConfig["auth"]>;
  rest?: Partial<StackConfig["rest"]>;
  functions?: Partial<StackConfig["functions"]>;
  storage?: Partial<StackConfig["storage"]>;
  limits?: Partial<InputLimits>;
  realtime?: Partial<StackConfig["realtime"]>;
};

export function defaultConfig(): StackConfig {
  return {
    host: "127.0.0.1",
    port: 54321,
    dataDir: ".data/stack",
    databaseUrl: null,
    apiUrl: null,
    migrationsDir: "supabase/migrations",
    seedFile: "supabase/seed.sql",
    maxBodyBytes: 1024 * 1024,
    trustedProxies: [],
    limits: { ...DEFAULT_LIMITS },
    smtpPort: null,
    functions: {
      dir: "supabase/functions",
      configFile: "supabase/config.toml",
      // hosted: a request idle for 150 s gets 504; the worker's own wall clock is 150-400 s
      wallClockLimitMs: 150_000,
      maxBodyBytes: 10 * 1024 * 1024,
    },
    latencyMs: 0,
    auth: {
      siteUrl: "http://localhost:5173",
      additionalRedirectUrls: ["http://localhost:*/**", "http://127.0.0.1:*/**"],
      jwtExpiry: 3600,
      refreshTokenRotation: true,
      refreshTokenReuseInterval: 10,
      autoconfirm: false,
      otpExpiry: 3600,
      otpLength: 6,
      flowStateExpiry: 300,
      emailSendInterval: 60,
      tokenRequestsPerMinute: 300,
      emailsPerHour: 1000,
      maxOtpAttempts: 5,
      maxPasswordFailures: 10,
      passwordFailureWindow: 900,
      passwordMinLength: 8,
      passwordRequiredCharacters: "letters_digits",
      bcryptCost: 10,
      disableSignup: false,
      mailerSenderName: "Teamboard",
      mailerSenderEmail: "no-reply@teamboard.local",
      templates: {},
      localProvider: null,
      externalProviders: {},
      smtp: null,
      jwtSecret: null,
      jwtKeys: [],
      signingKeysPath: null,
      anonymousSignIns: false,
      emailEnabled: true,
      secureEmailChange: true,
      mfa: { maxEnrolledFactors: 10, challengeExpiry: 300, totpEnroll: true, totpVerify: true, webauthnEnroll: false },
      oauthServer: { enabled: false, allowDynamicRegistration: false },
      passkey: { enabled: false, maxPerUser: 10 },
      webauthn: {
        rpId: "localhost",
        rpDisplayName: "Teamboard",
        rpOrigins: ["http://localhost:5173"],
        challengeExpiry: 300,
      },
    },
    rest: {
      schemas: ["public"],
      maxRows: 1000,
      statementTimeout: { anon: 3000, authenticated: 8000, service_role: 8000 },
    },
    storage: {
      fileSizeLimit: 50 * 1024 * 1024,
    },
    realtime: {
      maxConnections: 500,
      maxChannelsPerClient: 100,
      maxEventsPerSecond: 100,
      maxPayloadBytes: 256 * 1024,
      maxFrameBytes: 1024 * 1024,
      maxBufferedBytes: 4 * 1024 * 1024,
      heartbeatTimeoutMs: 60_000,
    },
  };
}

function merge(base: StackConfig, over: StackConfigOverrides): StackConfig {
  return {
    ...base,
    ...stripUndefined(over),
    auth: { ...base.auth, ...stripUndefined(over.auth ?? {}) },
    rest: { ...base.rest, ...stripUndefined(over.rest ?? {}) },
    limits: { ...base.limits, ...stripUndefined(over.limits ?? {}) },
    functions: { ...base.functions, ...stripUndefined(over.functions ?? {}) },
    storage: { ...base.storage, ...stripUndefined(over.storage ?? {}) },
    realtime: { ...base.realtime, ...stripUndefined(over.realtime ?? {}) },
  } as StackConfig;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
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
    realtime: {
      maxConnections: num(env.REALTIME_MAX_CONNECTIONS),
      maxChannelsPerClient: num(env.REALTIME_MAX_CHANNELS_PER_CLIENT),
      maxEventsPerSecond: num(env.REALTIME_MAX_EVENTS_PER_SECOND),
      maxPayloadBytes: num(env.REALTIME_MAX_PAYLOAD_BYTES),
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

export function loadConfig(
  options: { file?: string | null; env?: Record<string, string | undefined>; overrides?: StackConfigOverrides } = {},
) {
  let config = defaultConfig();
  const file = options.file ?? (fs.existsSync("supabase/local-stack.json") ? "supabase/local-stack.json" : null);
  if (file) config = merge(config, JSON.parse(fs.readFileSync(file, "utf8")) as StackConfigOverrides);
  config = merge(config, configFromEnv(options.env ?? process.env));
  if (options.overrides) config = merge(config, options.overrides);
  return config;
}

/** Whether the site URL names this machine: localhost (or a name under it), 127.0.0.0/8 or ::1. */
export function isLocalSiteUrl(siteUrl: string): boolean {
  let host: string;
  try {
    host = new URL(siteUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Whether the built-in `local` OAuth provider is on (see `auth.localProvider`). */
export function localProviderEnabled(auth: Pick<StackConfig["auth"], "localProvider" | "siteUrl">): boolean {
  return auth.localProvider ?? isLocalSiteUrl(auth.siteUrl);
}

export function resolveConfig(overrides: StackConfigOverrides = {}): StackConfig {
  return merge(defaultConfig(), overrides);
}
