import pg from "pg";
import { parsers } from "./parsers.ts";
import { applyRequestContext } from "./request.ts";
import type { Database, Queryable, QueryResult } from "./types.ts";

const types = {
  getTypeParser(oid: number, format?: string) {
    const parse = parsers[oid];
    if (parse && format !== "binary") return parse;
    return pg.types.getTypeParser(oid, format as "text");
  },
};

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await client.query({ text: sql, values: params, types } as pg.QueryConfig);
      return {
        rows: result.rows as T[],
        rowCount: result.rowCount ?? result.rows.length,
        fields: (result.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        command: result.command ?? undefined,
      };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

/**
 * A native PostgreSQL behind a connection pool (DATABASE_URL). `settings` are
 * given to every connection at its start (not stored in the database).
 */
export async function openPostgres(url: string, max = 10, settings: Record<string, string> = {}): Promise<Database> {
  const startup = Object.entries({ timezone: "UTC", ...settings }).map(([name, value]) => `-c ${name}=${value}`);
  const pool = new pg.Pool({ connectionString: url, max, options: startup.join(" ") });
  pool.on("error", (error) => console.error("[db] idle client error:", error.message));
  await pool.query("select 1");
  const root = wrap(pool);
  let listener: pg.PoolClient | null = null;
  const channels = new Map<string, Set<(payload: string) => void>>();

  async function transaction<T>(fn: (tx: Queryable) => Promise<T>, before?: (tx: Queryable) => Promise<void>) {
    const client = await pool.connect();
    const tx = wrap(client);
    try {
      await client.query("begin");
      if (before) await before(tx);
      const result = await fn(tx);
      await client.query("commit");
      return result;
    } catch (error) {
      await client.query("rollback").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  return {
    kind: "postgres",
    url,
    query: root.query,
    exec: root.exec,
    transaction: (fn) => transaction(fn),
    asRequest: (ctx, fn) => transaction(fn, (tx) => applyRequestContext(tx, ctx)),
    async listen(channel, onNotify) {
      if (!listener) {
        listener = await pool.connect();
        listener.on("notification", (msg) => {
          for (const cb of channels.get(msg.channel) ?? []) cb(msg.payload ?? "");
        });
      }
      let set = channels.get(channel);
      if (!set) {
        set = new Set();
        channels.set(channel, set);
        await listener.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onNotify);
      return async () => {
        set!.delete(onNotify);
      };
    },
    async close() {
      listener?.release();
      await pool.end();
    },
  };
}
