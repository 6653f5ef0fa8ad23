import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { Admission, type AdmissionOptions, DEFAULT_ADMISSION } from "./admission.ts";
import { acquireLock, isAlive } from "./lock.ts";
import { PARSE_AS } from "./parsers.ts";
import { applyRequestContext } from "./request.ts";
import type { Database, Queryable, QueryResult, RequestContext } from "./types.ts";

export { acquireLock, DataDirLockedError } from "./lock.ts";

/**
 * Raised when PGlite misbehaves instead of failing cleanly: a statement that
 * came back with neither a result nor an error (V8's stack ran out inside the
 * WebAssembly Postgres and PGlite swallowed the RangeError), or a JavaScript
 * exception out of the engine. Reported as native PostgreSQL reports the same
 * input (54001), and the engine is reopened before the next statement.
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

/**
 * PGlite's pgcrypto (OpenSSL built to WebAssembly) has, a few times across
 * many full test runs, failed a fresh engine's first pgp_sym_encrypt (the
 * stack's first Vault write) with "Unsupported digest algorithm", and trying
 * the same call again on the same engine failed too: that engine's OpenSSL
 * cannot find its digests. Native PostgreSQL never does this, and no loop of
 * fresh PGlite instances outside the stack reproduced it, so the cause is in
 * that build, out of our reach. Such an engine is replaced as a misbehaving
 * one is: the call fails with the database's error, the next one runs on a
 * fresh engine (stack/vault/secrets.ts tries its start-up write once more).
 */
const LOST_DIGESTS = /^Unsupported digest algorithm$/;

const ENGINE = new URL("./pglite-engine.mjs", import.meta.url);

/**
 * PGlite's WebAssembly, compiled once per process and handed to every engine
 * thread: a reopened engine neither compiles it again nor starts in V8's
 * baseline code (the compiled module, with its optimised code, is shared
 * between threads). Measured under load, a reopening took 5–10 s and the
 * next statements ran several times slower until the new thread's code was
 * optimised again; a statement queued behind an ended one could then run
 * past its own timeout (issue 35, H1).
 */
let compiled: Promise<WebAssembly.Module> | null = null;
function pgliteWasm(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    return WebAssembly.compile(await fs.promises.readFile(path.join(path.dirname(entry), "pglite.wasm")));
  })();
  return compiled;
}

/** how often a reopening is tried before the waiting call fails with its error */
const REOPEN_ATTEMPTS = 4;
/** a statement that reads the catalogs every request needs (relations, their policies, roles), once, on a new engine */
const WARM_UP =
  "select count(*) from pg_class c left join pg_policy p on p.polrelid = c.oid left join pg_namespace n on n.oid = c.relnamespace, pg_roles r where r.rolname = 'authenticated'";

type Reply = { id: number; result?: unknown; error?: Record<string, unknown>; wedged?: Record<string, unknown> };

/** A database error from the engine thread, with its fields (code, detail, hint, constraint …) as PGlite gave them. */
function databaseError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields);
}

/**
 * One PGlite on its own thread (pglite-engine.mjs). A call may carry a
 * deadline: when it passes, the thread is ended, whatever the engine is doing.
 */
class Engine {
  private next = 0;
  private readonly pending = new Map<number, { resolve(r: Reply): void; reject(e: unknown): void }>();
  /** why the engine can no longer answer (set once) */
  stopped: unknown = null;

  private constructor(
    private readonly worker: Worker,
    onNotify: (channel: string, payload: string) => void,
  ) {
    worker.on("message", (m: Reply & { notify?: string; payload?: string }) => {
      if (m.notify !== undefined) onNotify(m.notify, m.payload ?? "");
      else this.pending.get(m.id)?.resolve(m);
    });
    worker.on("error", (error) => this.fail(error));
    worker.on("exit", (code) => this.fail(new Error(`the embedded database's thread ended (exit code ${code})`)));
  }

  static async start(
    dataDir: string,
    loadDataDir: Blob | undefined,
    settings: Record<string, string>,
    onNotify: (channel: string, payload: string) => void,
  ): Promise<Engine> {
    const template = loadDataDir ? new Uint8Array(await loadDataDir.arrayBuffer()) : undefined;
    const wasmModule = await pgliteWasm();
    const worker = new Worker(ENGINE, {
      workerData: { dataDir, loadDataDir: template, parseAs: PARSE_AS, settings, wasmModule },
      transferList: template ? [template.buffer] : [],
      // the stack size of the stack's own thread, so input that ran V8's stack out there still does here
      resourceLimits: { stackSizeMb: 1 },
    });
    await new Promise<void>((resolve, reject) => {
      worker.once("message", (m: { ready?: true; fatal?: Record<string, unknown> }) =>
        m.ready ? resolve() : reject(databaseError(m.fatal ?? { message: "the embedded database did not start" })),
      );
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the embedded database's thread ended at start (${code})`)));
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    return new Engine(worker, onNotify);
  }

  /** Sends one operation; past `deadlineMs` (0: none) the thread is ended and the call fails with 57014. */
  call(op: string, args: Record<string, unknown> = {}, deadlineMs = 0): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = ++this.next;
    let timer: NodeJS.Timeout | undefined;
    const reply = new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, ...args });
      if (deadlineMs > 0) timer = setTimeout(() => this.end(new StatementTimeoutError()), deadlineMs);
    });
    return reply
      .finally(() => {
        clearTimeout(timer);
        this.pending.delete(id);
      })
      .then((r) => {
        if (r.error) {
          const error = databaseError(r.error);
          if (LOST_DIGESTS.test(String(r.error.message))) void this.end(error);
          throw error;
        }
        if (r.wedged) {
          this.fail(new DatabaseWedgedError(r.wedged.message));
          throw this.stopped;
        }
        return r.result;
      });
  }

  /** Ends the thread now: what it runs fails with `why`, and so does every later call. */
  end(why: unknown): Promise<number> {
    this.fail(why);
    return this.worker.terminate();
  }

  private fail(why: unknown) {
    this.stopped ??= why;
    for (const p of this.pending.values()) p.reject(this.stopped);
    this.pending.clear();
  }
}

export interface PgliteOptions {
  /** folder for the database files; null keeps them in a private scratch folder, removed at close */
  dataDir: string | null;
  /** a dump (from dump()) to start from instead of initialising */
  loadDataDir?: Blob;
  /** or the folder of a cleanly closed database to copy and start from (no unpacking: about half the start-up) */
  copyDataDir?: string;
  /** session settings every connection gets (set_config, not stored in the database) */
  settings?: Record<string, string>;
  /** who may queue how much, and who is refused after a runaway statement (admission.ts) */
  admission?: AdmissionOptions;
}

/** Where scratch databases live: memory-backed where the system offers it. */
const SCRATCH_ROOT = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
const SCRATCH_PREFIX = "teamboard-pglite-";

/**
 * A private (0700) folder for a database without a data folder. A thread that
 * is ended takes its memory with it, so even a throwaway database keeps its
 * files outside the engine: that is what it is reopened from. Folders left by
 * processes that are gone are removed here.
 */
function scratchFolder(): { dir: string; remove(): void } {
  for (const name of fs.readdirSync(SCRATCH_ROOT)) {
    const pid = Number(/^teamboard-pglite-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !isAlive(pid)) {
      fs.rmSync(path.join(SCRATCH_ROOT, name), { recursive: true, force: true });
    }
  }
  const dir = fs.mkdtempSync(path.join(SCRATCH_ROOT, `${SCRATCH_PREFIX}${process.pid}-`));
  const remove = () => {
    process.off("exit", remove);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", remove);
  return { dir, remove };
}

/**
 * The embedded database: PGlite on a thread of its own (pglite-engine.mjs).
 * Every call goes through one queue (PGlite is one connection anyway), so
 * the engine can be replaced between calls: when a request's statement runs
 * past its statement_timeout the thread is ended (the request gets 57014, as
 * native PostgreSQL cancels it), and when the engine misbehaves (54001); the
 * next call finds it reopened from its folder, where committed work is.
 */
export async function openPglite(
  options: PgliteOptions,
): Promise<Database & { dump(): Promise<Blob>; readonly recoveries: number; readonly admission: Admission }> {
  const release = options.dataDir ? acquireLock(options.dataDir) : () => {};
  const scratch = options.dataDir ? null : scratchFolder();
  const folder = scratch ? scratch.dir : path.join(options.dataDir!, "pgdata");
  const settings = options.settings ?? {};
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const onNotify = (channel: string, payload: string) => {
    for (const cb of listeners.get(channel) ?? []) cb(payload);
  };
  const leave = () => {
    scratch?.remove();
    release();
  };
  let engine: Engine;
  try {
    const fresh = !fs.existsSync(path.join(folder, "PG_VERSION"));
    if (fresh && options.copyDataDir) fs.cpSync(options.copyDataDir, folder, { recursive: true });
    engine = await Engine.start(folder, fresh ? options.loadDataDir : undefined, settings, onNotify);
  } catch (error) {
    leave();
    throw error;
  }
  let recoveries = 0;
  let closed = false;
  const admission = new Admission(options.admission ?? DEFAULT_ADMISSION);

  async function reopen() {
    const why = engine.stopped;
    console.error(
      why instanceof StatementTimeoutError
        ? "[db] a statement ran past its request's statement_timeout; the embedded database was stopped and is reopened"
        : `[db] the embedded database stopped answering properly (${String(why).slice(0, 300)}); reopening it`,
    );
    await engine.end(why);
    // What waited behind the ended statement runs next, on the new engine, and must not fail for
    // what happened before it: a start that fails (a loaded machine) is tried again, and the new
    // engine's first, cold statement (the module compiled again, the catalogs read from disk) is
    // paid here, with no deadline, not by the next request's statement_timeout.
    for (let attempt = 1; ; attempt++) {
      try {
        engine = await Engine.start(folder, undefined, settings, onNotify);
        break;
      } catch (error) {
        if (attempt === REOPEN_ATTEMPTS) throw error;
        console.error(`[db] reopening failed (${String(error).slice(0, 200)}); trying again`);
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
    recoveries++;
    for (const channel of listeners.keys()) await engine.call("listen", { channel });
    await engine.call("query", { sql: WARM_UP, params: [] });
  }

  // One queue in front of the engine, so it is replaced between calls.
  let tail: Promise<unknown> = Promise.resolve();
  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(async () => {
      if (engine.stopped && !closed) await reopen();
      try {
        return await fn();
      } finally {
        if (engine.stopped && !closed) await reopen().catch((e: unknown) => console.error("[db] reopening failed:", e));
      }
    });
    tail = run.catch(() => {});
    return run;
  }

  /** Statements on the current engine; each fails with 57014 once it runs past `timeoutMs` (0: never). */
  const queryable = (timeoutMs = 0): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const started = performance.now();
      const result = (await engine.call("query", { sql, params }, timeoutMs)) as QueryResult<T>;
      // the answer may have been on its way when the deadline passed
      if (timeoutMs > 0 && performance.now() - started > timeoutMs) throw new StatementTimeoutError();
      return result;
    },
    async exec(sql: string) {
      await engine.call("exec", { sql }, timeoutMs);
    },
  });

  const inTransaction = <T>(fn: (tx: Queryable) => Promise<T>, ctx?: RequestContext, turn?: () => void) =>
    serial(async () => {
      // the caller may have been refused while this waited (its earlier statement ran out of time)
      turn?.();
      const tx = queryable(ctx?.statementTimeoutMs ?? 0);
      await tx.exec("begin");
      try {
        if (ctx) await applyRequestContext(tx, ctx);
        const result = await fn(tx);
        await tx.exec("commit");
        return result;
      } catch (error) {
        // an ended engine took the transaction with it
        if (!engine.stopped) await tx.exec("rollback").catch(() => {});
        throw error;
      }
    });

  return {
    kind: "pglite",
    url: null,
    get recoveries() {
      return recoveries;
    },
    query: (sql, params) => serial(() => queryable().query(sql, params)),
    exec: (sql) => serial(() => queryable().exec(sql)),
    transaction: (fn) => inTransaction(fn),
    asRequest(ctx, fn) {
      const caller = ctx.caller;
      if (!caller) return inTransaction(fn, ctx);
      return admission.admit(caller, async (turn) => {
        try {
          return await inTransaction(fn, ctx, turn);
        } catch (error) {
          if (error instanceof StatementTimeoutError) admission.strike(caller);
          throw error;
        }
      });
    },
    admission,
    async listen(channel, onNotify) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await serial(() => engine.call("listen", { channel }));
      }
      set.add(onNotify);
      return async () => {
        set!.delete(onNotify);
      };
    },
    dump: () => serial(async () => new Blob([(await engine.call("dump")) as Uint8Array<ArrayBuffer>])),
    async close() {
      try {
        await serial(async () => {
          closed = true;
          await engine.call("close").catch(() => {});
          await engine.end(new Error("PGlite is closed"));
        });
      } finally {
        leave();
      }
    },
  };
}
