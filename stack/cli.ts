/**
 * npm run stack [-- start|status|functions|reset] [--port N] [--data-dir DIR] [--config FILE] [--latency 20ms]
 *
 * start      serve the local Supabase-compatible API (default)
 * status     print API_URL, ANON_KEY, SERVICE_ROLE_KEY, INBOX_URL, SMTP_URL (and DB_URL) as KEY=value lines
 * functions  list the Edge Functions in supabase/functions, their URLs and whether they verify the JWT
 * reset      wipe the data folder, then start fresh
 * cron       list the scheduled jobs (cron.job) with their next and last run and last status
 * cron run J run job J (its name or id) now, in the running stack; exits 1 if it failed
 * gen types  write the database's TypeScript types (as `supabase gen types typescript`) to
 *            app/lib/database.types.ts (--out FILE); --check only says whether the file is up to date
 * gen schema write the schema's current text to supabase/schemas/ (--out DIR): one file per table,
 *            view, function and type; --check only says whether the folder is up to date
 * gen all    both of the above from one migrated database (--check: CI's check:generated)
 *
 * --latency delays every API request by this much (a hosted backend's round trip, for benchmarks)
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig, parseLatency } from "./config-load.ts";
import { MigrationError } from "./db/migrate.ts";
import { CliError, listJobsCommand, runJobCommand } from "./cron/cli.ts";
import { acquireLock, DataDirLockedError } from "./db/pglite.ts";
import { listFunctions } from "./functions/project.ts";
import { DEFAULT_TYPES_FILE, genTypesCommand, typesOf, writeTypesFile } from "./gen/index.ts";
import { DEFAULT_SCHEMA_DIR, generateSchema, genSchemaCommand, writeSchemaFiles } from "./gen/schema.ts";
import { readStoredKeys } from "./keys.ts";
import { startStack, wipeDataDir } from "./server.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    "data-dir": { type: "string" },
    config: { type: "string" },
    latency: { type: "string" },
    out: { type: "string" },
    check: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});

const command = positionals[0] ?? "start";
const config = loadConfig({
  file: values.config ?? null,
  overrides: {
    port: values.port ? Number(values.port) : undefined,
    host: values.host,
    dataDir: values["data-dir"],
    latencyMs: values.latency ? parseLatency(values.latency) : undefined,
  },
});
const dataDir = path.resolve(config.dataDir ?? ".data/stack");
const apiUrl = config.apiUrl ?? `http://${config.host}:${config.port}`;
const smtpUrl = `smtp://${config.host}:${config.smtpPort ?? config.port + 4}`;

function usage() {
  console.log(
    `Usage: npm run stack -- [start|status|functions|cron [run <job>]|reset|gen types|gen schema|gen all] [--port ${config.port}] [--data-dir .data/stack] [--config file.json] [--latency 20ms]`,
  );
}

async function start() {
  // files the stack writes (database, storage, keys) are its user's alone
  process.umask(0o077);
  try {
    const stack = await startStack({ ...config, dataDir });
    console.log(
      `\nLocal stack ready on ${stack.url} (${stack.db.kind === "pglite" ? `PGlite in ${dataDir}` : "native PostgreSQL"})`,
    );
    console.log(`  Inbox:    ${stack.inboxUrl}   SMTP: ${stack.smtpUrl}`);
    console.log(
      `  Functions: ${stack.url}/functions/v1/<name> (${
        stack.functions
          .list()
          .map((f) => f.name)
          .join(", ") || "none yet"
      })`,
    );
    console.log(`  Auth:     ${stack.url}/auth/v1   REST: ${stack.url}/rest/v1`);
    if (config.latencyMs > 0) console.log(`  Latency:  ${config.latencyMs} ms added to every API request`);
    console.log(`  Keys:     npm run stack -- status\n`);
    const stop = async (signal: string) => {
      console.log(`\n[stack] ${signal}: stopping`);
      await stack.close();
      process.exit(0);
    };
    process.once("SIGINT", () => void stop("SIGINT"));
    process.once("SIGTERM", () => void stop("SIGTERM"));
  } catch (error) {
    if (error instanceof DataDirLockedError || error instanceof MigrationError) {
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      console.error(`\nPort ${config.port} is already in use. Is a stack already running? Try --port <another>.\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function status() {
  const keys = readStoredKeys(dataDir);
  if (!keys) {
    console.error(`No local stack has been started with ${dataDir} yet. Start it with: npm run stack`);
    process.exit(1);
  }
  let running = false;
  try {
    const res = await fetch(`${apiUrl}/auth/v1/health`, { signal: AbortSignal.timeout(1500) });
    running = res.ok;
  } catch {
    running = false;
  }
  const lines = [
    `API_URL=${apiUrl}`,
    `ANON_KEY=${keys.anonKey}`,
    `SERVICE_ROLE_KEY=${keys.serviceRoleKey}`,
    `INBOX_URL=${apiUrl}/inbox`,
    `SMTP_URL=${smtpUrl}`,
  ];
  if (config.databaseUrl) lines.push(`DB_URL=${config.databaseUrl}`);
  console.log(lines.join("\n"));
  if (!running) console.error(`# the stack is not answering on ${apiUrl}; start it with: npm run stack`);
}

function functions() {
  const list = listFunctions(config.functions.dir, config.functions.configFile);
  if (list.length === 0) {
    console.log(`No functions in ${config.functions.dir} (each is a folder with an index.ts).`);
    return;
  }
  const width = Math.max(...list.map((f) => f.name.length));
  for (const f of list) {
    console.log(
      `${f.name.padEnd(width)}  ${apiUrl}/functions/v1/${f.name}  ${f.verifyJwt ? "verify_jwt" : "no JWT check (verify_jwt = false)"}`,
    );
  }
}

async function reset() {
  // refuses (naming the holder) while a stack runs on the folder
  try {
    acquireLock(dataDir)();
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  wipeDataDir(dataDir);
  console.log(`[stack] wiped ${dataDir}`);
  await start();
}

if (values.help) usage();
else if (command === "start") await start();
else if (command === "status") await status();
else if (command === "functions") functions();
else if (command === "reset") await reset();
else if (command === "cron" && (positionals[1] === undefined || (positionals[1] === "run" && positionals[2]))) {
  try {
    if (positionals[1] === "run") process.exitCode = await runJobCommand({ apiUrl, dataDir }, positionals[2]);
    else await listJobsCommand({ apiUrl, dataDir });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
} else if (command === "gen" && positionals[1] === "types") {
  process.exitCode = await genTypesCommand({
    migrationsDir: config.migrationsDir,
    schemas: config.rest.schemas,
    out: values.out ?? DEFAULT_TYPES_FILE,
    check: values.check ?? false,
  });
} else if (command === "gen" && positionals[1] === "all") {
  // both from one migrated database (CI's check:generated): half the time of the two commands
  let types = "";
  const check = values.check ?? false;
  const files = await generateSchema({
    migrationsDir: config.migrationsDir,
    whileMigrated: async (db) => {
      types = await typesOf(db, config.rest.schemas);
    },
  });
  const typesExit = writeTypesFile({ migrationsDir: config.migrationsDir, out: DEFAULT_TYPES_FILE, check }, types);
  const schemaExit = writeSchemaFiles({ migrationsDir: config.migrationsDir, out: DEFAULT_SCHEMA_DIR, check }, files);
  process.exitCode = typesExit || schemaExit;
} else if (command === "gen" && positionals[1] === "schema") {
  process.exitCode = await genSchemaCommand({
    migrationsDir: config.migrationsDir,
    out: values.out ?? DEFAULT_SCHEMA_DIR,
    check: values.check ?? false,
  });
} else {
  usage();
  process.exit(2);
}
