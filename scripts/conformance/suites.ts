/**
 * What each supabase-js suite expects of the servers it talks to. Settings are
 * given as the environment variables a GoTrue / PostgREST would get, and read
 * by the stack's own configFromEnv, so the stacks are configured as the
 * suite's servers are: the auth-js "docker" servers straight from the suite's
 * infra/docker-compose.yml, the "cli" server from its supabase/config.toml as
 * the Supabase CLI translates it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { configFromEnv } from "../../stack/config-load.ts";
import type { StackConfigOverrides } from "../../stack/config.ts";

export interface StackSpec {
  /** the address the test files use for this server */
  url: string;
  /** the stack's path that answers there (GoTrue serves at the root, the stack under /auth/v1) */
  path?: string;
  migrationsDir?: string;
  seedFile?: string;
  /** settings, computed from the prepared package folder */
  settings(pkgDir: string): StackConfigOverrides;
}

export interface Run {
  /** jest config file, relative to the package */
  config: string;
  /** folders (relative to the package) whose files get the stacks' addresses */
  rewrite: string[];
  stacks: StackSpec[];
}

export interface Suite {
  prepare?(pkgDir: string): void;
  runs: Run[];
}

/** The environment blocks of a docker-compose file's services (flat YAML only). */
export function composeEnvironments(file: string): Record<string, Record<string, string>> {
  const services: Record<string, Record<string, string>> = {};
  let service: string | null = null;
  let inEnv = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const svc = /^ {2}([\w-]+):/.exec(line);
    if (svc) {
      service = svc[1];
      inEnv = false;
      continue;
    }
    if (/^ {4}environment:/.test(line)) {
      inEnv = true;
      continue;
    }
    if (/^ {4}\S/.test(line)) inEnv = false;
    const kv = /^ {6}([A-Z0-9_]+):\s*(.*)$/.exec(line);
    if (inEnv && service && kv) {
      let value = kv[2].trim();
      if (/^'.*'$/.test(value) || /^".*"$/.test(value)) value = value.slice(1, -1);
      (services[service] ??= {})[kv[1]] = value;
    }
  }
  return services;
}

/** Settings from GoTrue environment variables, without the parts that point at docker-only hosts. */
function fromGotrueEnv(env: Record<string, string>): StackConfigOverrides {
  const clean = Object.fromEntries(
    Object.entries(env).filter(([k]) => !/^(DATABASE_URL|GOTRUE_SMTP_|GOTRUE_SMS_TWILIO_)/.test(k)),
  );
  const over = configFromEnv(clean);
  return { ...over, databaseUrl: undefined, apiUrl: undefined };
}

const CLI_URL = "http://127.0.0.1:54321";

export const SUITES: Record<"postgrest-js" | "auth-js" | "storage-js", Suite> = {
  "postgrest-js": {
    runs: [
      {
        config: "jest.config.ts",
        rewrite: ["test"],
        stacks: [
          {
            url: "http://localhost:54321",
            migrationsDir: "test/supabase/migrations",
            seedFile: "test/supabase/seed.sql",
            // [api] schemas in test/supabase/config.toml (graphql_public is pg_graphql's, not served here)
            settings: () => configFromEnv({ PGRST_DB_SCHEMAS: "public,personal", PGRST_DB_MAX_ROWS: "1000" }),
          },
        ],
      },
    ],
  },
  "auth-js": {
    prepare(pkgDir) {
      // the suite's own key generator (the CLI's signing_keys_path)
      execNode(pkgDir, "test/generate-signing-keys.js");
    },
    runs: [
      {
        config: "jest.config.cli.js",
        rewrite: ["test/lib"],
        stacks: [
          {
            url: CLI_URL,
            // test/supabase/config.toml [auth], as the CLI passes it to GoTrue
            settings: (pkgDir) =>
              fromGotrueEnv({
                GOTRUE_SITE_URL: "http://127.0.0.1:3000",
                GOTRUE_URI_ALLOW_LIST: "https://127.0.0.1:3000,http://localhost:5173",
                GOTRUE_JWT_EXP: "3600",
                GOTRUE_JWT_SECRET: "super-secret-jwt-token-with-at-least-32-characters-long",
                GOTRUE_JWT_KEYS: fs.readFileSync(path.join(pkgDir, "test/supabase/signing_keys.json"), "utf8"),
                GOTRUE_SECURITY_REFRESH_TOKEN_ROTATION_ENABLED: "true",
                GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: "10",
                GOTRUE_DISABLE_SIGNUP: "false",
                GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
                GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "false",
                GOTRUE_PASSWORD_MIN_LENGTH: "6",
                GOTRUE_PASSWORD_REQUIRED_CHARACTERS: "",
                GOTRUE_RATE_LIMIT_EMAIL_SENT: "100",
                GOTRUE_RATE_LIMIT_EMAIL_INTERVAL: "1",
                // [auth.rate_limit] token_refresh = 300 / 5 minutes
                GOTRUE_RATE_LIMIT_TOKEN_PER_MINUTE: "60",
                GOTRUE_EXTERNAL_EMAIL_ENABLED: "true",
                GOTRUE_MAILER_AUTOCONFIRM: "true",
                GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED: "true",
                GOTRUE_MAILER_OTP_LENGTH: "6",
                GOTRUE_MAILER_OTP_EXP: "3600",
                GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
                GOTRUE_SMS_AUTOCONFIRM: "true",
                GOTRUE_MFA_MAX_ENROLLED_FACTORS: "10",
                GOTRUE_MFA_TOTP_ENROLL_ENABLED: "true",
                GOTRUE_MFA_TOTP_VERIFY_ENABLED: "true",
                GOTRUE_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
                GOTRUE_EXTERNAL_GOOGLE_ENABLED: "true",
                GOTRUE_EXTERNAL_GOOGLE_CLIENT_ID:
                  "53566906701-bmhc1ndue7hild39575gkpimhs06b7ds.apps.googleusercontent.com",
                GOTRUE_EXTERNAL_GOOGLE_SECRET: "unset",
                GOTRUE_OAUTH_SERVER_ENABLED: "true",
                GOTRUE_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
                // [auth.passkey] and [auth.webauthn]
                GOTRUE_PASSKEY_ENABLED: "true",
                GOTRUE_WEBAUTHN_RP_DISPLAY_NAME: "auth-js tests",
                GOTRUE_WEBAUTHN_RP_ID: "localhost",
                GOTRUE_WEBAUTHN_RP_ORIGINS: "http://localhost:5173",
              }),
          },
        ],
      },
      {
        config: "jest.config.docker.js",
        rewrite: ["test/docker-tests"],
        stacks: (["gotrue", "autoconfirm", "disabled", "autoconfirm_with_asymmetric_keys"] as const).map((service) => {
          const port = { gotrue: 9999, autoconfirm: 9998, disabled: 9997, autoconfirm_with_asymmetric_keys: 9996 }[
            service
          ];
          return {
            url: `http://localhost:${port}`,
            path: "/auth/v1",
            settings: (pkgDir: string) => {
              const env = composeEnvironments(path.join(pkgDir, "infra/docker-compose.yml"))[service] ?? {};
              // GoTrue's own defaults where the compose file is silent
              return fromGotrueEnv({
                GOTRUE_PASSWORD_MIN_LENGTH: "6",
                GOTRUE_PASSWORD_REQUIRED_CHARACTERS: "",
                ...env,
              });
            },
          };
        }),
      },
    ],
  },
  "storage-js": {
    runs: [
      {
        config: "jest.config.js",
        rewrite: ["test"],
        stacks: [
          {
            url: CLI_URL,
            seedFile: "test/supabase/seed.sql",
            // test/supabase/config.toml: the CLI's JWT secret (the suite's service_role key is
            // signed with it) and [storage] file_size_limit = "50MiB"
            settings: () =>
              configFromEnv({
                GOTRUE_JWT_SECRET: "super-secret-jwt-token-with-at-least-32-characters-long",
                FILE_SIZE_LIMIT: String(50 * 1024 * 1024),
              }),
          },
        ],
      },
    ],
  },
};

function execNode(cwd: string, script: string) {
  execFileSync(process.execPath, [script], { cwd, stdio: "pipe" });
}
