import type { Database } from "../db/types.ts";
import type { Channel } from "./channel.ts";
import { matchesFilters, parseFilters, type Filter } from "./filters.ts";
import { encodeWithPayloadJson } from "./protocol.ts";

/**
 * postgres_changes: reads the change queue the capture triggers fill
 * (stack/db/schemas/realtime.sql), and sends each change to the subscribers
 * whose event, schema, table and filters match and whose own role and claims
 * may see the row (checked in the database, under RLS, as hosted Realtime's
 * apply_rls does). Deletes go to subscribers whose role can select from the
 * table; with RLS on, their old record carries only the primary key.
 */
export interface PgBinding {
  id: number;
  event: "*" | "INSERT" | "UPDATE" | "DELETE";
  schema: string;
  table: string;
  filters: Filter[];
  channel: Channel;
}

interface TableInfo {
  columns: { name: string; type: string }[];
  types: Map<string, string>;
  pk: string[];
  rls: boolean;
  replicaFull: boolean;
}

interface ChangeRow {
  id: number;
  schema_name: string;
  table_name: string;
  action: "INSERT" | "UPDATE" | "DELETE";
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  commit_timestamp: string;
}

const BATCH = 200;
const EVENTS = new Set(["*", "INSERT", "UPDATE", "DELETE"]);

export class ChangeFeed {
  private bindings = new Set<PgBinding>();
  private tables = new Map<string, TableInfo>();
  private published = new Set<string>();
  private draining = false;
  private again = false;
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;
  private refreshing: Promise<void> | null = null;
  private nextRefresh: Promise<void> | null = null;
  /** changes delivered, for the service's figures */
  delivered = 0;

  constructor(
    private db: Database,
    private log: (message: string) => void,
  ) {}

  async start() {
    await this.refreshPublication();
    await this.db.query("delete from realtime.changes"); // nobody was subscribed to these
    this.unlisten = await this.db.listen("realtime_changes", () => void this.drain());
  }

  async close() {
    this.closed = true;
    await this.unlisten?.();
  }

  /**
   * Keeps the capture triggers on exactly the publication's tables; reads the
   * list. Callers that arrive while a refresh runs share the next one (which
   * starts after theirs arrived, so it sees what they expect): a burst of joins
   * costs two refreshes, not one each.
   */
  refreshPublication(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.refreshNow().finally(() => (this.refreshing = null));
      return this.refreshing;
    }
    this.nextRefresh ??= this.refreshing
      .catch(() => {})
      .then(() => {
        this.nextRefresh = null; // who comes from now on waits for the one after
        return this.refreshPublication();
      });
    return this.nextRefresh;
  }

  /**
   * One catalog read; the capture triggers are made again (realtime.sync_capture_triggers)
   * only when they and the publication differ: a published table without one, or one left
   * on a table no longer published.
   */
  private async refreshNow() {
    const read = async () =>
      (
        await this.db.query<{ tables: { name: string; captured: boolean }[]; triggers: number }>(
          `select coalesce(json_agg(json_build_object(
                    'name', p.schemaname || '.' || p.tablename,
                    'captured', exists (select 1 from pg_trigger t
                                         where t.tgrelid = format('%I.%I', p.schemaname, p.tablename)::regclass
                                           and t.tgname = 'realtime_capture'))), '[]') as tables,
                  (select count(*)::int from pg_trigger where tgname = 'realtime_capture') as triggers
             from pg_publication_tables p where p.pubname = 'supabase_realtime'`,
        )
      ).rows[0];
    let state = await read();
    if (state.tables.some((t) => !t.captured) || state.triggers !== state.tables.length) {
      await this.db.query("select realtime.sync_capture_triggers()");
      state = await read();
    }
    this.published = new Set(state.tables.map((t) => t.name));
    this.tables.clear();
  }

  /** Validates one postgres_changes entry of a join; an error message as Realtime words it, or the binding. */
  async prepare(params: unknown, channel: Channel): Promise<{ binding: PgBinding } | { error: string }> {
    const p = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
    const event = typeof p.event === "string" ? p.event.toUpperCase() : "*";
    const schema = typeof p.schema === "string" ? p.schema : p.table !== undefined ? "public" : null;
    const table = typeof p.table === "string" ? p.table : "*";
    const describe = `event: ${event}, schema: ${schema}, table: ${table}, filters: ${JSON.stringify(p.filter ?? [])}`;
    if (schema === null) {
      return {
        error: `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${JSON.stringify(p)}`,
      };
    }
    if (!EVENTS.has(event))
      return { error: `Unable to subscribe to changes with given parameters. Invalid event: [${describe}]` };
    const parsed = parseFilters(typeof p.filter === "string" ? p.filter : null);
    if (!parsed.ok) return { error: `Error parsing \`filter\` params: ${parsed.error}` };
    const matching = [...this.published].filter((name) => {
      const [s, t] = name.split(".");
      return (schema === "*" || s === schema) && (table === "*" || t === table);
    });
    if (matching.length === 0) {
      return {
        error: `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${describe}]`,
      };
    }
    if (parsed.filters.length > 0 && table !== "*" && schema !== "*") {
      const info = await this.tableInfo(schema, table);
      const missing = parsed.filters.find((f) => !info.types.has(f.column));
      if (missing) {
        return {
          error: `Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [${describe}]. Exception: ERROR P0001 (raise_exception) invalid column for filter ${missing.column}`,
        };
      }
    }
    return {
      binding: {
        id: bindingId(p),
        event: event as PgBinding["event"],
        schema,
        table,
        filters: parsed.filters,
        channel,
      },
    };
  }

  subscribe(bindings: PgBinding[]) {
    for (const b of bindings) this.bindings.add(b);
    if (bindings.length > 0) void this.drain();
  }

  unsubscribe(channel: Channel) {
    for (const b of this.bindings) if (b.channel === channel) this.bindings.delete(b);
  }

  get subscriptionCount() {
    return this.bindings.size;
  }

  private async tableInfo(schema: string, table: string): Promise<TableInfo> {
    const key = `${schema}.${table}`;
    const cached = this.tables.get(key);
    if (cached) return cached;
    const { rows } = await this.db.query<{
      rls: boolean;
      ident: string;
      columns: TableInfo["columns"] | null;
      pk: string[] | null;
    }>(
      `select c.relrowsecurity as rls, c.relreplident::text as ident,
         (select json_agg(json_build_object('name', a.attname, 'type', t.typname) order by a.attnum)
            from pg_attribute a join pg_type t on t.oid = a.atttypid
           where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
         (select json_agg(a.attname order by a.attnum)
            from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
           where i.indrelid = c.oid and i.indisprimary) as pk
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relname = $2`,
      [schema, table],
    );
    const row = rows[0];
    const columns = row?.columns ?? [];
    const info: TableInfo = {
      columns,
      types: new Map(columns.map((c) => [c.name, c.type])),
      pk: row?.pk ?? [],
      rls: row?.rls ?? false,
      replicaFull: row?.ident === "f",
    };
    this.tables.set(key, info);
    return info;
  }

  /** Empties the queue in commit order, a batch at a time; one drain runs at once. */
  async drain() {
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = true;
    try {
      do {
        this.again = false;
        if (this.closed) return;
        const { rows } = await this.db.query<ChangeRow>(
          `delete from realtime.changes where id in (select id from realtime.changes order by id limit ${BATCH})
           returning id, schema_name, table_name, action, record, old_record,
             to_char(committed_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as commit_timestamp`,
        );
        rows.sort((a, b) => Number(a.id) - Number(b.id));
        if (this.bindings.size > 0) for (const row of rows) await this.dispatch(row);
        if (rows.length === BATCH) this.again = true;
      } while (this.again);
    } catch (error) {
      if (!this.closed) this.log(`postgres_changes: ${(error as Error).message}`);
    } finally {
      this.draining = false;
    }
  }

  private async dispatch(row: ChangeRow) {
    const candidates = [...this.bindings].filter(
      (b) =>
        (b.schema === "*" || b.schema === row.schema_name) &&
        (b.table === "*" || b.table === row.table_name) &&
        (b.event === "*" || b.event === row.action) &&
        b.channel.canReadChanges(),
    );
    if (candidates.length === 0) return;
    const info = await this.tableInfo(row.schema_name, row.table_name);
    const pick = (r: Record<string, unknown> | null, cols: string[]) =>
      Object.fromEntries(cols.filter((c) => r && c in r).map((c) => [c, r![c]]));
    const record = row.record ?? {};
    // the old record as logical replication gives it: the replica identity (the primary key
    // unless FULL); with RLS on, a delete's old record is cut to the primary key
    const old =
      info.replicaFull && !(info.rls && row.action === "DELETE")
        ? (row.old_record ?? {})
        : pick(row.old_record, info.pk);
    const matched = candidates.filter((b) =>
      matchesFilters(b.filters, row.action === "DELETE" ? old : record, info.types),
    );
    if (matched.length === 0) return;

    // RLS: one check per distinct (role, claims)
    const groups = new Map<string, PgBinding[]>();
    for (const b of matched) {
      const key = JSON.stringify(b.channel.auth.claims);
      groups.set(key, [...(groups.get(key) ?? []), b]);
    }
    const claimsList = [...groups.keys()];
    const pk = row.action === "DELETE" ? {} : pick(record, info.pk);
    const { rows: check } = await this.db.query<{ visible: boolean[] }>(
      "select realtime.visible_to($1::regclass, $2::jsonb, $3::jsonb) as visible",
      [
        `"${row.schema_name.replace(/"/g, '""')}"."${row.table_name.replace(/"/g, '""')}"`,
        JSON.stringify(pk),
        `[${claimsList.join(",")}]`,
      ],
    );
    const visible = check[0]?.visible ?? [];

    const data: Record<string, unknown> = {
      schema: row.schema_name,
      table: row.table_name,
      commit_timestamp: row.commit_timestamp,
      eventType: row.action,
      type: row.action,
      columns: info.columns,
      errors: null,
    };
    if (row.action !== "DELETE") data.record = record;
    if (row.action !== "INSERT") data.old_record = old;
    const dataJson = JSON.stringify(data);

    const perChannel = new Map<Channel, number[]>();
    claimsList.forEach((key, i) => {
      if (!visible[i]) return;
      for (const b of groups.get(key)!) perChannel.set(b.channel, [...(perChannel.get(b.channel) ?? []), b.id]);
    });
    for (const [channel, ids] of perChannel) {
      if (channel.closed) continue;
      const payload = `{"ids":${JSON.stringify(ids)},"data":${dataJson}}`;
      const frame = { join_ref: null, ref: null, topic: channel.topic, event: "postgres_changes" };
      channel.conn.sendRaw(encodeWithPayloadJson(channel.conn.vsn, frame, payload));
      this.delivered++;
    }
  }
}

/** A stable small integer for a subscription's params (hosted uses :erlang.phash2). */
export function bindingId(params: Record<string, unknown>): number {
  const text = JSON.stringify(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]]),
  );
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7ffffff;
}
