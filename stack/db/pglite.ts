import fs from "node:fs";
import path from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { uuid_ossp } from "@electric-sql/pglite/contrib/uuid_ossp";
import { acquireLock } from "./lock.ts";
import { parsers } from "./parsers.ts";
import { applyRequestContext } from "./request.ts";
import type { Database, Queryable, QueryResult, RequestContext } from "./types.ts";

/** PGlite needs its extensions registered when the instance is created. */
const extensions = { citext, pg_trgm, pgcrypto, uuid_ossp };

export { acquireLock, DataDirLockedError } from "./lock.ts";

/**
 * Raised when PGlite misbehaves instead of failing cleanly: a statement that
 * came back with neither a result nor an error (V8's stack ran out inside the
 * WebAssembly Postgres and PGlite swallowed the RangeError), or a JavaScript
 * exception out of the engine. Reported as native PostgreSQL reports the same
 * input (54001), and the instance is replaced before the next statement.
 */
export class DatabaseWedgedError extends Error {
  readonly code = "54001";
  readonly hint = "The statement was too complex for the embedded database; the database was reopened.";
  constructor(readonly cause?: unknown) {
    super("stack depth limit exceeded");
    this.name = "DatabaseWedgedError";
  }
}

/** statement_timeout as PostgreSQL reports it (57014). */
export class StatementTimeoutError extends Error {
  readonly code = "57014";
  constructor() {
    super("canceling statement due to statement timeout");
    this.name = "StatementTimeoutError";
  }
}

/** An error Postgres reported (it carries a SQLSTATE), as opposed to one from the engine's JavaScript. */
const isDatabaseError = (e: unknown) => {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Error && typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
};

interface Health {
  /** set when the instance can no longer be trusted with a failing statement */
  wedged: unknown;
}

function wrap(q: PGlite | Transaction, health: Health, timeoutMs = 0): Queryable {
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    if (health.wedged) throw new DatabaseWedgedError(health.wedged);
    const started = performance.now();
    let result: T;
    try {
      result = await run();
    } catch (error) {
      if (isDatabaseError(error)) throw error;
      // "PGlite is closed" and the like are ours to report as they are
      if (error instanceof Error && /^PGlite is clos/.test(error.message)) throw error;
      health.wedged = error;
      throw new DatabaseWedgedError(error);
    }
    // PGlite cannot interrupt a running statement (the engine runs
    // synchronously on this thread, its timers never fire), so a statement
    // that overran its request's statement_timeout fails when it returns.
    if (timeoutMs > 0 && performance.now() - started > timeoutMs) throw new StatementTimeoutError();
    return result;
  };
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await guard(() => q.query<T>(sql, params));
      // Every statement ends in CommandComplete; a result without a command tag never finished.
      if ((result as { command?: string }).command === undefined) {
        health.wedged = new Error(`statement returned neither rows nor an error: ${sql.slice(0, 200)}`);
        throw new DatabaseWedgedError(health.wedged);
      }
      return {
        rows: result.rows,
        rowCount: result.affectedRows ?? result.rows.length,
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        command: result.command,
      };
    },
    async exec(sql: string) {
      await guard(() => q.exec(sql));
    },
  };
}

export interface PgliteOptions {
  /** folder for the database files; null keeps everything in memory */
  dataDir: string | null;
  /** a dump (from dumpDataDir) to start from instead of initialising */
  loadDataDir?: Blob;
  /** session settings every connection gets (set_config, not stored in the database) */
  settings?: Record<string, string>;
}

async function createInstance(
  pgDir: string | undefined,
  loadDataDir: Blob | undefined,
  settings: Record<string, string> = {},
): Promise<PGlite> {
  const pg = await PGlite.create({ dataDir: pgDir, extensions, parsers, loadDataDir });
  await pg.exec("set timezone to 'UTC'");
  for (const [name, value] of Object.entries(settings))
    await pg.query("select set_config($1, $2, false)", [name, value]);
  return pg;
}

/**
 * The embedded database. Every call goes through one queue (PGlite is one
 * connection anyway), so that when an instance is found wedged it can be
 * replaced before anything else touches it: a folder-backed database is
 * closed and reopened from its files (committed work is in the WAL), an
 * in-memory one is reopened from a dump of its files.
 */
export async function openPglite(
  options: PgliteOptions,
): Promise<Database & { dump(): Promise<Blob>; readonly recoveries: number }> {
  const release = options.dataDir ? acquireLock(options.dataDir) : () => {};
  const pgDir = options.dataDir ? path.join(options.dataDir, "pgdata") : undefined;
  let pg: PGlite;
  try {
    const fresh = pgDir ? !fs.existsSync(path.join(pgDir, "PG_VERSION")) : true;
    pg = await createInstance(pgDir, fresh ? options.loadDataDir : undefined, options.settings);
  } catch (error) {
    release();
    throw error;
  }
  let health: Health = { wedged: null };
  let recoveries = 0;
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const unlistens = new Map<string, () => Promise<void>>();

  async function listenOn(instance: PGlite, channel: string) {
    const unlisten = await instance.listen(channel, (payload) => {
      for (const cb of listeners.get(channel) ?? []) cb(payload);
    });
    unlistens.set(channel, unlisten);
  }

  async function recover() {
    const broken = pg;
    console.error(
      `[db] the embedded database stopped answering properly (${String(health.wedged).slice(0, 300)}); reopening it`,
    );
    const dump = pgDir ? undefined : await broken.dumpDataDir("none");
    await broken.close().catch(() => {});
    pg = await createInstance(pgDir, dump, options.settings);
    health = { wedged: null };
    recoveries++;
    unlistens.clear();
    for (const channel of listeners.keys()) await listenOn(pg, channel);
  }

  // One queue in front of PGlite's own, so recovery happens between calls.
  let tail: Promise<unknown> = Promise.resolve();
  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(async () => {
      try {
        return await fn();
      } finally {
        if (health.wedged && !pg.closed) await recover();
      }
    });
    tail = run.catch(() => {});
    return run;
  }

  const inTransaction = <T>(fn: (tx: Queryable) => Promise<T>, ctx?: RequestContext) =>
    serial(() =>
      pg.transaction(async (tx) => {
        const q = wrap(tx, health, ctx?.statementTimeoutMs ?? 0);
        if (ctx) await applyRequestContext(q, ctx);
        return fn(q);
      }),
    );

  return {
    kind: "pglite",
    url: null,
    get recoveries() {
      return recoveries;
    },
    query: (sql, params) => serial(() => wrap(pg, health).query(sql, params)),
    exec: (sql) => serial(() => wrap(pg, health).exec(sql)),
    transaction: (fn) => inTransaction(fn),
    asRequest: (ctx, fn) => inTransaction(fn, ctx),
    async listen(channel, onNotify) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await serial(() => listenOn(pg, channel));
      }
      set.add(onNotify);
      return async () => {
        set!.delete(onNotify);
      };
    },
    dump: () => serial(() => pg.dumpDataDir("gzip")),
    async close() {
      try {
        await serial(async () => {
          if (!pg.closed) await pg.close();
        });
      } finally {
        release();
      }
    },
  };
}
