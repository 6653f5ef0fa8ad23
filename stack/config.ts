import { type AdmissionOptions, DEFAULT_ADMISSION } from "./db/admission.ts";
import { DEFAULT_LIMITS, type InputLimits } from "./http/limits.ts";
import type { RealtimeLimits } from "./realtime/types.ts";

/**
 * The local stack's configuration. Defaults mirror a hosted project's
 * defaults (and docs/product.md §9); a JSON file (`supabase/local-stack.json`, or
 * `--config <file>`) and then environment variables override them
 * (config-load.ts); tests pass overrides in code.
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
    /**
     * Deno's cache of remote and jsr: modules; null: `deno` in the data folder
     * (node_modules/.cache/deno without one)
     */
    cacheDir: string | null;
    /** load only what is cached (Deno's --cached-only): CI, machines without network */
    offline: boolean;
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
    /**
     * MFA challenge and verify requests per IP per minute, each endpoint its
     * own, after a burst of 30 (GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY,
     * hosted: 15); 0: no limit
     */
    mfaRequestsPerMinute: number;
    /** codes checked against one MFA challenge before it is void (a new challenge is needed); 0: no limit */
    maxMfaAttemptsPerChallenge: number;
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
    /**
     * the embedded database's admission (stack/db/admission.ts): a caller whose
     * statement ran past its timeout is refused for a while, and one caller's
     * requests in the queue are capped; native PostgreSQL needs none
     */
    admission: AdmissionOptions;
  };
  storage: {
    /** largest object any upload may write, in bytes (hosted's free tier: 50 MB); a bucket's own limit can only be lower */
    fileSizeLimit: number;
    /** an image transformation is stopped past this many ms (imgproxy's IMGPROXY_TIMEOUT default: 10 s) */
    renderDeadlineMs: number;
  };
  /** the Realtime service's bounds (stack/realtime/types.ts) */
  realtime: RealtimeLimits;
  /** Supabase Cron (pg_cron) as the stack runs it (stack/cron) */
  cron: {
    /** runs going at once at most (pg_cron's cron.max_running_jobs; Supabase advises no more than 8) */
    maxRunningJobs: number;
    /** print every run as `[cron] job succeeded in N ms` (STACK_CRON_LOG=1); failed runs are always printed */
    logRuns: boolean;
  };
  /** pg_net's requests as the stack sends them (stack/net) */
  net: {
    /**
     * hosts requests may go to besides loopback and the stack itself: `name`,
     * `name:port`, `*.domain` or `*` (stack/net/allow-list.ts); others are refused and recorded
     */
    allowedHosts: string[];
    /** requests under way at once */
    concurrency: number;
    /** rows read from the queue at a time (pg_net.batch_size) */
    batchSize: number;
    /** answers kept this long in net._http_response (pg_net.ttl, 6 hours) */
    ttlSeconds: number;
  };
}

export type StackConfigOverrides = Partial<
  Omit<StackConfig, "auth" | "rest" | "functions" | "storage" | "limits" | "realtime" | "cron" | "net">
> & {
  cron?: Partial<StackConfig["cron"]>;
  net?: Partial<StackConfig["net"]>;
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
      cacheDir: null,
      offline: false,
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
      mfaRequestsPerMinute: 15,
      maxMfaAttemptsPerChallenge: 5,
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
      admission: { ...DEFAULT_ADMISSION },
    },
    storage: {
      fileSizeLimit: 50 * 1024 * 1024,
      renderDeadlineMs: 10_000,
    },
    realtime: {
      maxConnections: 5000,
      maxConnectionsPerClient: 200,
      maxJoinsPerSecond: 100,
      maxJoinsPerSecondPerClient: 200,
      maxPresencesPerClient: 200,
      accessRecheckMs: 10_000,
      maxChannelsPerClient: 100,
      maxEventsPerSecond: 100,
      maxPayloadBytes: 256 * 1024,
      maxFrameBytes: 1024 * 1024,
      maxBufferedBytes: 4 * 1024 * 1024,
      heartbeatTimeoutMs: 60_000,
    },
    cron: { maxRunningJobs: 5, logRuns: false },
    net: { allowedHosts: [], concurrency: 32, batchSize: 200, ttlSeconds: 6 * 3600 },
  };
}

/** `over` on top of `base`, section by section; undefined values leave the base's. */
export function mergeConfig(base: StackConfig, over: StackConfigOverrides): StackConfig {
  return {
    ...base,
    ...stripUndefined(over),
    auth: { ...base.auth, ...stripUndefined(over.auth ?? {}) },
    rest: { ...base.rest, ...stripUndefined(over.rest ?? {}) },
    limits: { ...base.limits, ...stripUndefined(over.limits ?? {}) },
    functions: { ...base.functions, ...stripUndefined(over.functions ?? {}) },
    storage: { ...base.storage, ...stripUndefined(over.storage ?? {}) },
    realtime: { ...base.realtime, ...stripUndefined(over.realtime ?? {}) },
    cron: { ...base.cron, ...stripUndefined(over.cron ?? {}) },
    net: { ...base.net, ...stripUndefined(over.net ?? {}) },
  } as StackConfig;
}

export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
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
  return mergeConfig(defaultConfig(), overrides);
}
