import fs from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import type { JWK } from "jose";
import { createAuthService } from "./auth/index.ts";
import { resolveConfig, type StackConfig, type StackConfigOverrides } from "./config.ts";
import { createSchedulerService, type SchedulerService, type SchedulerServiceOptions } from "./cron/index.ts";
import type { ServiceContext } from "./context.ts";
import { createControlService } from "./control.ts";
import { migrate, type MigrationReport } from "./db/migrate.ts";
import { ensurePrivateDir, makePrivate } from "./db/lock.ts";
import { openPglite } from "./db/pglite.ts";
import { openPostgres } from "./db/postgres.ts";
import type { Database } from "./db/types.ts";
import { createGateway, type Gateway } from "./http/gateway.ts";
import { loadOrCreateKeys, type Keys } from "./keys.ts";
import { Lifecycle } from "./lifecycle.ts";
import { createInboxService } from "./mail/inbox.ts";
import { createMailer } from "./mail/mailer.ts";
import { createRealtimeService, type RealtimeService } from "./realtime/index.ts";
import { startSmtpListener } from "./mail/smtp.ts";
import { createFunctionsService, type FunctionsService } from "./functions/index.ts";
import { RequestLog } from "./request-log.ts";
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
  /** a PGlite dump, or the folder of a cleanly closed PGlite database, to start an empty data folder (or memory) from */
  template?: Blob | string;
  /** skip migrations (the template already has them) */
  skipMigrations?: boolean;
  quiet?: boolean;
  /** the scheduler's clock, and whether jobs run on their schedules and queued requests are sent */
  scheduler?: SchedulerServiceOptions;
}

export async function startStack(options: StartOptions = {}): Promise<RunningStack> {
  const { template, skipMigrations, quiet, scheduler: schedulerOptions, ...overrides } = options;
  const config = resolveConfig(overrides);
  const log = (service: string, message: string) => {
    if (!quiet) console.log(`[${service}] ${message}`);
  };
  const lifecycle = new Lifecycle();
  try {
    // the data folder holds password hashes, refresh tokens and signing keys: readable by its owner only
    if (config.dataDir) ensurePrivateDir(config.dataDir);
    // Vault's key lives in the data folder, never in the database; each session is handed it (stack/vault/key.ts)
    const settings = vaultSettings(loadOrCreateVaultKey(config.dataDir));
    const db: Database = config.databaseUrl
      ? await openPostgres(config.databaseUrl, 10, settings)
      : await openPglite({
          dataDir: config.dataDir,
          ...(typeof template === "string" ? { copyDataDir: template } : { loadDataDir: template }),
          settings,
          admission: config.rest.admission,
        });
    lifecycle.add({ name: "database", close: () => db.close() });
    const migrations: MigrationReport = skipMigrations
      ? { applied: [], seeded: false }
      : await migrate(db, { migrationsDir: config.migrationsDir, seedFile: config.seedFile, log: (m) => log("db", m) });
    const keys = await loadKeys(config);
    const requests = new RequestLog();

    // The server listens first (with port 0 the services' links need its address) and answers 503
    // until the gateway is opened with every service built.
    const gateway = createGateway({ ownHosts: [config.host], latencyMs: config.latencyMs, requests });
    const server = await listen(gateway, config);
    lifecycle.add({ name: "http", close: () => closeServer(server) });
    const port = (server.address() as AddressInfo).port;
    const apiUrl = config.apiUrl ?? `http://${config.host}:${port}`;
    const smtp = lifecycle.add({
      name: "smtp",
      ...(await startSmtpListener(db, {
        host: config.host,
        port: config.smtpPort ?? (config.port === 0 ? 0 : port + 4),
        log: (m) => log("mail", m),
      })),
    });

    // The services, in the order they start; they close in the reverse order. A new piece of the
    // stack (a scheduler, an HTTP client in the database…) is one more line here: a factory that
    // returns a StackService (stack/context.ts), with `http` if it has an API.
    const ctx: ServiceContext = { db, keys, config, mailer: createMailer(db, config), apiUrl, requests, log };
    lifecycle.add(createAuthService(ctx));
    lifecycle.add(await createRestService(ctx));
    const storage = lifecycle.add(createStorageService(ctx));
    // a fresh database: the files config.toml names for its buckets, as `supabase start` seeds them
    if (migrations.seeded) await storage.seedObjects();
    const realtime = lifecycle.add(createRealtimeService(ctx));
    const functions = lifecycle.add(createFunctionsService(ctx, { smtp: { host: config.host, port: smtp.port } }));
    lifecycle.add(createInboxService(ctx));
    lifecycle.add(createControlService(ctx));
    // pg_cron, pg_net and Vault (issue 31); its jobs may call the API, so it starts after the gateway opens
    const scheduler = lifecycle.add(createSchedulerService(ctx, schedulerOptions));

    const mounts = lifecycle.services.flatMap((s) => (s.http ? [s.http.mount] : []));
    gateway.open(lifecycle.services, { name: "Teamboard local stack", services: mounts, api_url: apiUrl });
    await lifecycle.start(server);
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
      setLatency: (ms: number) => gateway.setLatency(ms),
      close: () => lifecycle.close(),
    };
  } catch (error) {
    await lifecycle.close().catch(() => {});
    throw error;
  }
}

function loadKeys(config: StackConfig): Promise<Keys> {
  const { jwtSecret, jwtKeys, signingKeysPath } = config.auth;
  const fromFile = signingKeysPath ? (JSON.parse(fs.readFileSync(signingKeysPath, "utf8")) as JWK[]) : [];
  return loadOrCreateKeys(config.dataDir, { jwtSecret, jwtKeys: [...jwtKeys, ...fromFile] });
}

function listen(gateway: Gateway, config: StackConfig): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: gateway.fetch, port: config.port, hostname: config.host }, () => resolve(s as Server));
    (s as Server).once("error", reject);
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections?.();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Removes a data folder (used by `stack reset`). */
export function wipeDataDir(dataDir: string) {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
