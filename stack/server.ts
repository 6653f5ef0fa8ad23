import fs from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createAuthService } from "./auth/index.ts";
import { resolveConfig, type StackConfig, type StackConfigOverrides } from "./config.ts";
import type { ServiceContext } from "./context.ts";
import { migrate, type MigrationReport } from "./db/migrate.ts";
import { openPglite } from "./db/pglite.ts";
import { openPostgres } from "./db/postgres.ts";
import type { Database } from "./db/types.ts";
import { isIdentityError, resolveIdentity } from "./http/identity.ts";
import { loadOrCreateKeys, type Keys } from "./keys.ts";
import { createInbox } from "./mail/inbox.ts";
import { createMailer } from "./mail/mailer.ts";
import { RequestLog } from "./request-log.ts";
import { createRestService } from "./rest/index.ts";

export interface RunningStack {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  inboxUrl: string;
  dbUrl: string | null;
  config: StackConfig;
  db: Database;
  keys: Keys;
  server: Server;
  requests: RequestLog;
  migrations: MigrationReport;
  close(): Promise<void>;
}

export interface StartOptions extends StackConfigOverrides {
  /** a PGlite dump to start an empty data folder (or memory) from */
  template?: Blob;
  /** skip migrations (the template already has them) */
  skipMigrations?: boolean;
  quiet?: boolean;
}

const CORS_ALLOW_HEADERS =
  "authorization, x-client-info, apikey, content-type, accept, accept-profile, content-profile, prefer, range, " +
  "x-supabase-api-version, x-upsert, cache-control, x-retry-count, x-region";
const CORS_EXPOSE_HEADERS =
  "content-range, content-location, location, x-supabase-api-version, x-sb-error-code, preference-applied, retry-after, x-total-count";

export async function startStack(options: StartOptions = {}): Promise<RunningStack> {
  const { template, skipMigrations, quiet, ...overrides } = options;
  const config = resolveConfig(overrides);
  const log = (service: string, message: string) => {
    if (!quiet) console.log(`[${service}] ${message}`);
  };

  const db: Database = config.databaseUrl
    ? await openPostgres(config.databaseUrl)
    : await openPglite({ dataDir: config.dataDir, loadDataDir: template });

  let migrations: MigrationReport = { applied: [], seeded: false };
  try {
    if (!skipMigrations) {
      migrations = await migrate(db, {
        migrationsDir: config.migrationsDir,
        seedFile: config.seedFile,
        log: (line) => log("db", line),
      });
    }
  } catch (error) {
    await db.close();
    throw error;
  }

  const keys = await loadOrCreateKeys(config.dataDir);
  const requests = new RequestLog();
  const app = new Hono();
  let apiUrl = config.apiUrl ?? "";

  // Every response carries CORS headers, as Supabase's gateway adds them.
  app.use("*", async (c, next) => {
    const started = performance.now();
    const origin = c.req.header("origin");
    if (c.req.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": origin ?? "*",
          "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
          "access-control-allow-headers": c.req.header("access-control-request-headers") ?? CORS_ALLOW_HEADERS,
          "access-control-max-age": "3600",
          vary: "origin",
        },
      });
    }
    await next();
    c.res.headers.set("access-control-allow-origin", origin ?? "*");
    c.res.headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS);
    if (origin) c.res.headers.append("vary", "origin");
    const url = new URL(c.req.url);
    if (!url.pathname.startsWith("/_stack")) {
      requests.record({
        at: Date.now(),
        method: c.req.method,
        path: url.pathname,
        search: url.search,
        status: c.res.status,
        ms: performance.now() - started,
      });
    }
  });

  const mailer = createMailer(db, config);

  // Services are built once the address is known (their links use it).
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
    (s as Server).once("error", reject);
  });
  const address = server.address() as AddressInfo;
  if (!apiUrl) apiUrl = `http://${config.host}:${address.port}`;
  const ctx: ServiceContext = { db, keys, config, mailer, apiUrl, requests, log };

  app.get("/", (c) =>
    c.json({ name: "Teamboard local stack", services: ["/auth/v1", "/rest/v1", "/inbox"], api_url: apiUrl }),
  );
  app.route("/auth/v1", createAuthService(ctx));
  const rest = await createRestService(ctx);
  app.route("/rest/v1", rest.app);
  app.route("/inbox", createInbox(ctx));

  // Request counts for tests and benchmarks (service role only).
  app.on(["GET", "DELETE"], "/_stack/requests", async (c) => {
    const who = await resolveIdentity(c, keys);
    if (isIdentityError(who) || who.role !== "service_role") return c.json({ message: "service role required" }, 401);
    if (c.req.method === "DELETE") {
      requests.clear();
      return c.body(null, 204);
    }
    return c.json(requests.list(Number(c.req.query("since") ?? 0)));
  });
  app.notFound((c) => c.json({ message: "no Route matched with those values" }, 404));
  app.onError((error, c) => {
    console.error("[stack] unhandled error:", error);
    return c.json({ message: "An unexpected error occurred" }, 500);
  });

  let closed = false;
  return {
    url: apiUrl,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    inboxUrl: `${apiUrl}/inbox`,
    dbUrl: db.url,
    config,
    db,
    keys,
    server,
    requests,
    migrations,
    async close() {
      if (closed) return;
      closed = true;
      await rest.close?.();
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

/** Removes a data folder (used by `stack reset`). */
export function wipeDataDir(dataDir: string) {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
