import fs from "node:fs";
import type { AddressInfo } from "node:net";
import type { IncomingMessage, Server } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { JWK } from "jose";
import { createAuthService } from "./auth/index.ts";
import { resolveConfig, type StackConfig, type StackConfigOverrides } from "./config.ts";
import { createSchedulerService, type SchedulerService, type SchedulerServiceOptions } from "./cron/index.ts";
import type { ServiceContext } from "./context.ts";
import { migrate, type MigrationReport } from "./db/migrate.ts";
import { ensurePrivateDir, makePrivate } from "./db/lock.ts";
import { openPglite } from "./db/pglite.ts";
import { openPostgres } from "./db/postgres.ts";
import type { Database } from "./db/types.ts";
import { isIdentityError, resolveIdentity } from "./http/identity.ts";
import { crossSiteRefusal, isLocalOnlyPath } from "./http/same-origin.ts";
import { loadOrCreateKeys, type Keys } from "./keys.ts";
import { createInbox } from "./mail/inbox.ts";
import { createMailer } from "./mail/mailer.ts";
import { createRealtimeService, type RealtimeService } from "./realtime/index.ts";
import { startSmtpListener, type SmtpListener } from "./mail/smtp.ts";
import { createFunctionsService, type FunctionsService } from "./functions/index.ts";
import { preciseNow, RequestLog } from "./request-log.ts";
import { createRestService } from "./rest/index.ts";
import { createStorageService } from "./storage/index.ts";
import { loadOrCreateVaultKey, vaultSettings } from "./vault/key.ts";

export interface RunningStack {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  inboxUrl: string;
  /** the inbox's SMTP listener, smtp://host:port */
  smtpUrl: string;
  dbUrl: string | null;
  functions: FunctionsService;
  config: StackConfig;
  db: Database;
  keys: Keys;
  server: Server;
  requests: RequestLog;
  realtime: RealtimeService;
  /** changes the delay added to every API request (benchmarks measure with and without one) */
  setLatency(ms: number): void;
  migrations: MigrationReport;
  /** the folder holding the Storage API's files (inside the data folder, or a temporary one) */
  storageRoot: string;
  /** Supabase Cron's scheduler, pg_net's sender and the stack's Vault secrets (stack/cron/index.ts) */
  scheduler: SchedulerService;
  close(): Promise<void>;
}

export interface StartOptions extends StackConfigOverrides {
  /** a PGlite dump to start an empty data folder (or memory) from */
  template?: Blob;
  /** skip migrations (the template already has them) */
  skipMigrations?: boolean;
  quiet?: boolean;
  /** the scheduler's clock, and whether jobs run on their schedules and queued requests are sent */
  scheduler?: SchedulerServiceOptions;
}

const CORS_ALLOW_HEADERS =
  "authorization, x-client-info, apikey, content-type, accept, accept-profile, content-profile, prefer, range, " +
  "x-supabase-api-version, x-upsert, x-metadata, cache-control, if-none-match, x-retry-count, x-region";
const CORS_EXPOSE_HEADERS =
  "content-range, content-location, location, x-supabase-api-version, x-sb-error-code, preference-applied, retry-after, x-total-count, etag, content-disposition, accept-ranges";

/** Whether the request (as the node adapter hands it over) still has body bytes nobody read. */
function bodyUnread(env: unknown): boolean {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return !!incoming && incoming.method !== "GET" && incoming.method !== "HEAD" && !incoming.complete;
}

export async function startStack(options: StartOptions = {}): Promise<RunningStack> {
  const { template, skipMigrations, quiet, scheduler: schedulerOptions, ...overrides } = options;
  const config = resolveConfig(overrides);
  const log = (service: string, message: string) => {
    if (!quiet) console.log(`[${service}] ${message}`);
  };

  // the data folder holds password hashes, refresh tokens and signing keys: readable by its owner only
  if (config.dataDir) ensurePrivateDir(config.dataDir);
  // Vault's key lives in the data folder, never in the database; each session is handed it (stack/vault/key.ts)
  const settings = vaultSettings(loadOrCreateVaultKey(config.dataDir));
  const db: Database = config.databaseUrl
    ? await openPostgres(config.databaseUrl, 10, settings)
    : await openPglite({ dataDir: config.dataDir, loadDataDir: template, settings });

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

  const keys = await loadOrCreateKeys(config.dataDir, {
    jwtSecret: config.auth.jwtSecret,
    jwtKeys: [
      ...config.auth.jwtKeys,
      ...(config.auth.signingKeysPath
        ? (JSON.parse(fs.readFileSync(config.auth.signingKeysPath, "utf8")) as JWK[])
        : []),
    ],
  });
  const requests = new RequestLog();
  const app = new Hono();
  let apiUrl = config.apiUrl ?? "";

  // Every API response carries CORS headers, as Supabase's gateway adds them.
  // A configured latency delays every API request before it is handled, as a
  // hosted backend's network round trip would; /_stack (benchmark control) is exempt.
  let latencyMs = config.latencyMs;
  app.use("*", async (c, next) => {
    const start = preciseNow();
    const url = new URL(c.req.url);
    const measured = !url.pathname.startsWith("/_stack");
    if (measured && latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const origin = c.req.header("origin");
    // the inbox and /_stack: no CORS, nothing cross-site (stack/http/same-origin.ts)
    const localOnly = isLocalOnlyPath(url.pathname);
    // Edge Functions answer CORS themselves, preflights included, as on hosted
    const ownCors = url.pathname.startsWith("/functions/v1/");
    if (localOnly) {
      const refused = c.req.method === "OPTIONS" ? "cross-site preflight" : crossSiteRefusal(c, [config.host]);
      if (refused)
        return c.json(
          {
            message: `Refused: ${refused}. The local inbox and /_stack answer this machine's own tools and pages only.`,
          },
          403,
        );
    } else if (c.req.method === "OPTIONS" && !ownCors) {
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
    // An answer sent before the request's body was read whole (a refusal: 400, 401, 413…) closes the
    // connection and says so (RFC 9112 §9.6). The node adapter gives up on draining an unread body
    // after 500 ms and drops the socket; a client not told that would send its next request down it
    // and get a reset (seen in edge-fuzz on a busy machine: a 1.1 MB body refused early, then the
    // next request on that connection failed with "other side closed").
    if (c.res.status === 413 || bodyUnread(c.env)) c.res.headers.set("connection", "close");
    if (!localOnly && !ownCors) {
      c.res.headers.set("access-control-allow-origin", origin ?? "*");
      c.res.headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS);
      if (origin) c.res.headers.append("vary", "origin");
    }
    if (measured) {
      const end = preciseNow();
      const errorCode = c.res.headers.get("x-sb-error-code") ?? undefined;
      requests.record({
        at: Date.now(),
        start,
        end,
        method: c.req.method,
        path: url.pathname,
        search: url.search,
        status: c.res.status,
        ms: end - start,
        errorCode,
      });
    }
  });

  const mailer = createMailer(db, config);

  // Services are built once the address is known (their links use it).
  // Until every service is mounted, requests get a 503: Hono builds its router on the first request it
  // routes, and a route added after that throws (a readiness poll arriving while the REST service
  // introspected the database crashed the stack under bench:load).
  let mounted = false;
  const serveFetch: typeof app.fetch = (request, ...rest) =>
    mounted ? app.fetch(request, ...rest) : new Response("starting", { status: 503, headers: { "retry-after": "1" } });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: serveFetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
    (s as Server).once("error", reject);
  });
  const address = server.address() as AddressInfo;
  if (!apiUrl) apiUrl = `http://${config.host}:${address.port}`;
  const ctx: ServiceContext = { db, keys, config, mailer, apiUrl, requests, log };

  let smtp: SmtpListener;
  try {
    const smtpPort = config.smtpPort ?? (address.port === 0 || config.port === 0 ? 0 : address.port + 4);
    smtp = await startSmtpListener(db, { host: config.host, port: smtpPort, log: (m) => log("mail", m) });
  } catch (error) {
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close();
    throw error;
  }
  const functions = createFunctionsService(ctx, { smtp: { host: config.host, port: smtp.port } });

  app.get("/", (c) =>
    c.json({
      name: "Teamboard local stack",
      services: ["/auth/v1", "/rest/v1", "/storage/v1", "/realtime/v1", "/functions/v1", "/inbox"],
      api_url: apiUrl,
    }),
  );
  app.route("/auth/v1", createAuthService(ctx));
  const rest = await createRestService(ctx);
  app.route("/rest/v1", rest.app);
  const storage = createStorageService(ctx);
  app.route("/storage/v1", storage.app);
  app.route("/inbox", createInbox(ctx));
  app.route("/functions/v1", functions.app);
  const realtime = await createRealtimeService(ctx, server);
  app.route("/realtime/v1", realtime.app);
  // ── scheduler plug-in (issue 31): pg_cron, pg_net, Vault; started once the API answers ──
  const scheduler = createSchedulerService(ctx, schedulerOptions);
  app.route("/_stack/cron", scheduler.app);

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
  app.get("/_stack/requests/tally", async (c) => {
    const who = await resolveIdentity(c, keys);
    if (isIdentityError(who) || who.role !== "service_role") return c.json({ message: "service role required" }, 401);
    return c.json(requests.tally());
  });
  app.notFound((c) => c.json({ message: "no Route matched with those values" }, 404));
  app.onError((error, c) => {
    console.error("[stack] unhandled error:", error);
    return c.json({ message: "An unexpected error occurred" }, 500);
  });
  mounted = true;
  await scheduler.start();

  let closed = false;
  // what the database, the keys and storage created before umask or mode could reach them
  if (config.dataDir) makePrivate(config.dataDir);
  return {
    url: apiUrl,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    inboxUrl: `${apiUrl}/inbox`,
    smtpUrl: `smtp://${config.host}:${smtp.port}`,
    dbUrl: db.url,
    functions,
    config,
    db,
    keys,
    server,
    requests,
    realtime,
    migrations,
    storageRoot: storage.store.root,
    scheduler,
    setLatency(ms: number) {
      latencyMs = ms;
    },
    async close() {
      if (closed) return;
      closed = true;
      // first: jobs and requests under way may still use the API and the database
      await scheduler.close();
      await rest.close?.();
      await realtime.close();
      await functions.close();
      await smtp.close();
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      storage.close();
    },
  };
}

/** Removes a data folder (used by `stack reset`). */
export function wipeDataDir(dataDir: string) {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
