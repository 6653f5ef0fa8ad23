import fs from "node:fs";
import path from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { uuid_ossp } from "@electric-sql/pglite/contrib/uuid_ossp";
import { parsers } from "./parsers.ts";
import { applyRequestContext } from "./request.ts";
import type { Database, Queryable, QueryResult, RequestContext } from "./types.ts";

/** PGlite needs its extensions registered when the instance is created. */
const extensions = { citext, pg_trgm, pgcrypto, uuid_ossp };

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by another local stack (pid ${pid}). ` +
        `Stop that process first, or start this one with --data-dir <another folder>. ` +
        `Two embedded databases on one folder would silently lose data.`,
    );
    this.name = "DataDirLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the folder's lock file (created exclusively, holding our pid).
 * A lock left by a process that no longer exists is taken over.
 */
export function acquireLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "stack.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(lockPath, "utf8").trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(dataDir, holder);
      }
      fs.unlinkSync(lockPath); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}

function wrap(q: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await q.query<T>(sql, params);
      return {
        rows: result.rows,
        rowCount: result.affectedRows ?? result.rows.length,
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  };
}

export interface PgliteOptions {
  /** folder for the database files; null keeps everything in memory */
  dataDir: string | null;
  /** a dump (from dumpDataDir) to start from instead of initialising */
  loadDataDir?: Blob;
}

export async function openPglite(options: PgliteOptions): Promise<Database & { dump(): Promise<Blob> }> {
  const release = options.dataDir ? acquireLock(options.dataDir) : () => {};
  let pg: PGlite;
  try {
    const pgDir = options.dataDir ? path.join(options.dataDir, "pgdata") : undefined;
    const fresh = pgDir ? !fs.existsSync(path.join(pgDir, "PG_VERSION")) : true;
    pg = await PGlite.create({
      dataDir: pgDir,
      extensions,
      parsers,
      loadDataDir: fresh ? options.loadDataDir : undefined,
    });
    await pg.exec("set timezone to 'UTC'");
  } catch (error) {
    release();
    throw error;
  }
  const root = wrap(pg);
  return {
    kind: "pglite",
    url: null,
    query: root.query,
    exec: root.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    asRequest: (ctx: RequestContext, fn) =>
      pg.transaction(async (tx) => {
        const q = wrap(tx);
        await applyRequestContext(q, ctx);
        return fn(q);
      }),
    async listen(channel, onNotify) {
      const unlisten = await pg.listen(channel, onNotify);
      return () => unlisten();
    },
    dump: () => pg.dumpDataDir("gzip"),
    async close() {
      try {
        if (!pg.closed) await pg.close();
      } finally {
        release();
      }
    },
  };
}
