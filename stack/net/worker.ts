import type { Database } from "../db/types.ts";
import type { AllowList } from "./allow-list.ts";
import { sendRequest, type NetResponse, type QueuedRequest } from "./send.ts";

/**
 * pg_net's background worker, in the stack's process. net.http_get/post/delete
 * put a row in net.http_request_queue and notify at commit, so a request is
 * seen only once its transaction has committed (a rolled-back one never is).
 * The worker takes rows off the queue in id order — deleting them as it takes
 * them, as pg_net does: at most once — sends them, `concurrency` at a time,
 * and writes each answer to net._http_response. What is still queued when the
 * stack stops is sent after it starts again. Answers older than `ttlSeconds`
 * are deleted, as pg_net's ttl (6 hours) does.
 */
export interface NetWorkerOptions {
  db: Database;
  allow: AllowList;
  log: (message: string) => void;
  concurrency: number;
  batchSize: number;
  ttlSeconds: number;
  /** how often the queue is read without a notification (rows inserted directly, a missed notify) */
  pollMs?: number;
}

export interface NetResult extends NetResponse {
  id: number;
  method: string;
  url: string;
  ms: number;
}

const TTL_SWEEP_MS = 60_000;

/** A URL for the log: no query string (parameters may carry secrets) and no credentials. */
function shown(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.origin}${u.pathname}`;
  } catch {
    return raw.slice(0, 80);
  }
}

export class NetWorker {
  private inFlight = new Set<Promise<void>>();
  private claiming: Promise<void> | null = null;
  private again = false;
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;
  private listeners = new Set<(result: NetResult) => void>();
  /** answers waiting to be written together */
  private batch: { results: NetResult[]; written: Promise<void> } | null = null;
  /** whether net.http_request_queue exists (looked up until it does, and again after an error) */
  private ready = false;

  constructor(private readonly options: NetWorkerOptions) {}

  async start(): Promise<void> {
    this.unlisten = await this.options.db.listen("stack_net", () => this.wake());
    this.timers.push(setInterval(() => this.wake(), this.options.pollMs ?? 2_000));
    this.timers.push(setInterval(() => void this.expire(), TTL_SWEEP_MS));
    for (const t of this.timers) t.unref();
    this.wake();
  }

  /** Called with each answer written (tests and benchmarks wait on it). */
  onResult(listener: (result: NetResult) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the queue now (more than once if asked while a read is under way). */
  wake(): void {
    if (this.closed) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claim()
      .catch((error) => {
        this.ready = false;
        this.options.log(`reading the queue failed: ${(error as Error).message}`);
      })
      .finally(() => {
        this.claiming = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves once the queue read and the requests under way have finished. */
  async settled(): Promise<void> {
    while (this.claiming || this.inFlight.size > 0) {
      await Promise.allSettled([this.claiming, ...this.inFlight]);
    }
  }

  /** Stops taking requests and waits for those under way (each ends by its timeout). */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    await this.unlisten?.();
    await this.settled();
  }

  private async claim(): Promise<void> {
    const { db, concurrency, batchSize } = this.options;
    const room = Math.min(batchSize, concurrency - this.inFlight.size);
    if (room <= 0) return;
    this.ready ||= await this.installed();
    if (!this.ready) return;
    const { rows } = await db.query<QueuedRequest>(
      `with taken as (
         select id from net.http_request_queue order by id limit $1 for update skip locked
       )
       delete from net.http_request_queue q using taken where q.id = taken.id
       returning q.id, q.method, q.url, q.timeout_milliseconds,
         (select jsonb_object_agg(key, value) from jsonb_each_text(q.headers)) as headers,
         encode(q.body, 'base64') as body`,
      [room],
    );
    for (const row of rows.sort((a, b) => a.id - b.id)) this.send(row);
    // a full batch: there may be more waiting
    if (rows.length === room) this.again = true;
  }

  private send(request: QueuedRequest): void {
    const run = (async () => {
      const started = performance.now();
      const response = await sendRequest(request, this.options.allow);
      await this.record({
        ...response,
        id: request.id,
        method: request.method,
        url: request.url,
        ms: Math.round(performance.now() - started),
      });
    })();
    this.inFlight.add(run);
    void run.finally(() => {
      this.inFlight.delete(run);
      this.wake();
    });
  }

  /** Answers that arrive together are written in one statement (on PGlite every statement holds the event loop). */
  private record(result: NetResult): Promise<void> {
    if (!this.batch) {
      const results: NetResult[] = [];
      const written = new Promise<void>((resolve) =>
        setImmediate(() => {
          this.batch = null;
          void this.write(results).finally(resolve);
        }),
      );
      this.batch = { results, written };
    }
    this.batch.results.push(result);
    return this.batch.written;
  }

  private async write(results: NetResult[]): Promise<void> {
    const rows = results.map((r) => ({
      id: r.id,
      status_code: r.status_code,
      content: r.content,
      headers: r.headers,
      content_type: r.content_type,
      timed_out: r.timed_out,
      error_msg: r.error_msg,
    }));
    try {
      await this.options.db.query(
        `insert into net._http_response (id, status_code, content, headers, content_type, timed_out, error_msg)
         select id, status_code, content, headers, content_type, timed_out, error_msg
         from jsonb_to_recordset($1::jsonb) as r(id bigint, status_code int, content text, headers jsonb,
           content_type text, timed_out boolean, error_msg text)`,
        [JSON.stringify(rows)],
      );
    } catch (error) {
      this.options.log(`could not record ${rows.length} answer(s): ${(error as Error).message}`);
    }
    for (const result of results) {
      const target = `${result.method} ${shown(result.url)}`;
      if (result.refused) this.options.log(`refused ${target}: ${result.error_msg}`);
      else if (result.error_msg) this.options.log(`${target} failed after ${result.ms} ms: ${result.error_msg}`);
      else this.options.log(`${target} → ${result.status_code} in ${result.ms} ms`);
      for (const listener of this.listeners) listener(result);
    }
  }

  private async installed(): Promise<boolean> {
    const { rows } = await this.options.db.query<{ ok: boolean }>(
      "select to_regclass('net.http_request_queue') is not null as ok",
    );
    return rows[0].ok;
  }

  /** Deletes the answers older than the TTL (every minute; tests call it). */
  async expire(): Promise<void> {
    if (this.closed || !(await this.installed())) return;
    await this.options.db
      .query("delete from net._http_response where created < now() - make_interval(secs => $1)", [
        this.options.ttlSeconds,
      ])
      .catch((error) => this.options.log(`expiring answers failed: ${(error as Error).message}`));
  }
}
