/**
 * The embedded Postgres on a thread of its own (started by pglite.ts).
 *
 * PGlite runs Postgres as WebAssembly on the thread that calls it, and cannot
 * interrupt a running statement: statement_timeout needs a timer, and timers
 * are JavaScript callbacks that never run while the engine holds the thread.
 * On the stack's own thread one endless statement (a regular expression with
 * back-references, say) stopped every service. Here it stops only this
 * thread, which the stack ends when the statement's deadline passes and then
 * reopens from the database's folder.
 *
 * Plain JavaScript: a worker thread starts without the TypeScript loader the
 * stack runs under (tsx, vitest).
 *
 * Protocol: the stack posts { id, op, ... } and gets { id, result } or
 * { id, error } (a database error: it carries a SQLSTATE), or { id, wedged }
 * (the engine misbehaved and can no longer be trusted); { notify, payload }
 * carries a NOTIFY; { ready } or { fatal } ends start-up.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { uuid_ossp } from "@electric-sql/pglite/contrib/uuid_ossp";

/** PGlite needs its extensions registered when the instance is created. */
const extensions = { citext, pg_trgm, pgcrypto, uuid_ossp };

/** The readers named by parsers.ts's PARSE_AS (functions cannot cross threads, their names can). */
const READ = {
  bool: (v) => v === "t" || v === "true",
  number: (v) => Number(v),
  json: (v) => JSON.parse(v),
  text: (v) => v,
};
const parsers = Object.fromEntries(Object.entries(workerData.parseAs).map(([oid, how]) => [Number(oid), READ[how]]));

/** An error Postgres reported carries a SQLSTATE; anything else came from the engine's JavaScript. */
const isDatabaseError = (e) => e instanceof Error && typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code);

/** An error's own scalar fields (message, code, detail, hint, constraint …), which survive the trip between threads. */
function fields(error) {
  const out = { name: error?.name ?? "Error", message: String(error?.message ?? error) };
  for (const [k, v] of Object.entries(error ?? {})) {
    if (v !== undefined && v !== null && typeof v !== "object" && typeof v !== "function") out[k] = v;
  }
  return out;
}

class Wedged extends Error {}

let pg;

const ops = {
  async query({ sql, params }) {
    const result = await pg.query(sql, params);
    // Every statement ends in CommandComplete; a result without a command tag never finished
    // (V8's stack ran out inside the engine and PGlite swallowed the RangeError).
    if (result.command === undefined) {
      throw new Wedged(`statement returned neither rows nor an error: ${sql.slice(0, 200)}`);
    }
    return {
      rows: result.rows,
      rowCount: result.affectedRows ?? result.rows.length,
      fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      command: result.command,
    };
  },
  async exec({ sql }) {
    await pg.exec(sql);
    return null;
  },
  async listen({ channel }) {
    await pg.listen(channel, (payload) => parentPort.postMessage({ notify: channel, payload }));
    return null;
  },
  async dump() {
    const file = await pg.dumpDataDir("gzip");
    return new Uint8Array(await file.arrayBuffer());
  },
  async close() {
    if (!pg.closed) await pg.close();
    return null;
  },
};

parentPort.on("message", async (message) => {
  try {
    const result = await ops[message.op](message);
    parentPort.postMessage({ id: message.id, result }, result instanceof Uint8Array ? [result.buffer] : []);
  } catch (error) {
    if (isDatabaseError(error) || /^PGlite is clos/.test(error?.message ?? "")) {
      parentPort.postMessage({ id: message.id, error: fields(error) });
    } else {
      parentPort.postMessage({ id: message.id, wedged: fields(error) });
    }
  }
});

try {
  const loadDataDir = workerData.loadDataDir ? new Blob([workerData.loadDataDir]) : undefined;
  pg = await PGlite.create({
    dataDir: workerData.dataDir,
    extensions,
    parsers,
    loadDataDir,
    // compiled once by the stack (pglite.ts) and shared, so a reopened engine starts warm
    pgliteWasmModule: workerData.wasmModule,
  });
  await pg.exec("set timezone to 'UTC'");
  // session settings the stack gives every connection (not stored in the database)
  for (const [name, value] of Object.entries(workerData.settings ?? {})) {
    await pg.query("select set_config($1, $2, false)", [name, value]);
  }
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ fatal: fields(error) });
}
