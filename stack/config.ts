import fs from "node:fs";

/**
 * The local stack's configuration. Defaults mirror a hosted project's
 * defaults (and PRODUCT.md §9); a JSON file (`supabase/local-stack.json`, or
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
    /** the built-in local OAuth provider (a consent page; offline) */
    localProvider: boolean;
    externalProviders: Record<string, OAuthProviderConfig>;
    smtp: { host: string; port: number; user?: string; pass?: string; secure?: boolean } | null;
  };
  rest: {
    schemas: string[];
    maxRows: number;
  };
}

export type StackConfigOverrides = Partial<Omit<StackConfig, "auth" | "rest">> & {
  auth?: Partial<StackConfig["auth"]>;
  rest?: Partial<StackConfig["rest"]>;
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
      passwordMinLength: 8,
      passwordRequiredCharacters: "letters_digits",
      bcryptCost: 10,
      disableSignup: false,
      mailerSenderName: "Teamboard",
      mailerSenderEmail: "no-reply@teamboard.local",
      templates: {},
      localProvider: true,
      externalProviders: {},
      smtp: null,
    },
    rest: {
      schemas: ["public"],
      maxRows: 1000,
    },
  };
}

function merge(base: StackConfig, over: StackConfigOverrides): StackConfig {
  return {
    ...base,
    ...stripUndefined(over),
    auth: { ...base.auth, ...stripUndefined(over.auth ?? {}) },
    rest: { ...base.rest, ...stripUndefined(over.rest ?? {}) },
  } as StackConfig;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
const bool = (v: string | undefined) => (v === undefined || v === "" ? undefined : v === "true" || v === "1");
const list = (v: string | undefined) => (v === undefined || v === "" ? undefined : v.split(",").map((s) => s.trim()));

/** Environment variables the stack reads (names follow GoTrue's where it has one). */
export function configFromEnv(env: Record<string, string | undefined> = process.env): StackConfigOverrides {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    apiUrl: env.STACK_API_URL || undefined,
    auth: {
      siteUrl: env.GOTRUE_SITE_URL || env.SITE_URL || undefined,
      additionalRedirectUrls: list(env.GOTRUE_URI_ALLOW_LIST),
      jwtExpiry: num(env.GOTRUE_JWT_EXP),
      autoconfirm: bool(env.GOTRUE_MAILER_AUTOCONFIRM),
      tokenRequestsPerMinute: num(env.GOTRUE_RATE_LIMIT_TOKEN_PER_MINUTE),
      emailSendInterval: num(env.GOTRUE_RATE_LIMIT_EMAIL_INTERVAL),
      emailsPerHour: num(env.GOTRUE_RATE_LIMIT_EMAIL_SENT),
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
  };
}

export function loadConfig(options: { file?: string | null; env?: Record<string, string | undefined>; overrides?: StackConfigOverrides } = {}) {
  let config = defaultConfig();
  const file = options.file ?? (fs.existsSync("supabase/local-stack.json") ? "supabase/local-stack.json" : null);
  if (file) config = merge(config, JSON.parse(fs.readFileSync(file, "utf8")) as StackConfigOverrides);
  config = merge(config, configFromEnv(options.env ?? process.env));
  if (options.overrides) config = merge(config, options.overrides);
  return config;
}

export function resolveConfig(overrides: StackConfigOverrides = {}): StackConfig {
  return merge(defaultConfig(), overrides);
}
