/**
 * Counts the requests the stack served, so tests and benchmarks can assert
 * how many backend calls a page view made (e.g. exactly one token refresh).
 * Read and cleared through GET/DELETE /_stack/requests with the service key.
 */

function tallyKey({ method, path, search, status, errorCode }: LoggedRequest) {
  const grant = new URLSearchParams(search).get("grant_type");
  return `${method} ${path}${grant ? `?grant_type=${grant}` : ""} ${status}${errorCode ? ` ${errorCode}` : ""}`;
}

/** Wall-clock time with sub-millisecond precision. */
export const preciseNow = () => performance.timeOrigin + performance.now();
export interface LoggedRequest {
  /** when the response was done (ms since the epoch) */
  at: number;
  /** when the request arrived and when its response was done, in ms since the epoch with sub-ms precision: benchmarks compute which requests ran one after another */
  start: number;
  end: number;
  method: string;
  path: string;
  search: string;
  status: number;
  ms: number;
  /** the error code an auth failure names (x-sb-error-code), e.g. refresh_token_already_used */
  errorCode?: string;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  /** running counts that outlive the bounded list: load tests read them after minutes of traffic */
  private counts = new Map<string, number>();
  constructor(private readonly limit = 10_000) {}

  record(entry: LoggedRequest) {
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    const key = tallyKey(entry);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** How many requests of each kind: "POST /auth/v1/token?grant_type=refresh_token 400 refresh_token_already_used" → n. */
  tally(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  list(since = 0): LoggedRequest[] {
    return this.entries.filter((e) => e.at >= since);
  }

  clear() {
    this.entries = [];
    this.counts.clear();
  }
}

/**
 * The longest chain of requests that ran one after another (each began after
 * the previous one's response was done): the round trips a page view waits
 * for in sequence. Requests that overlap count once. Measure with a latency
 * (`--latency 20ms`) so that parallel requests visibly overlap.
 */
export function sequentialDepth(entries: ReadonlyArray<Pick<LoggedRequest, "start" | "end">>): number {
  const byStart = [...entries].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  let deepest = 0;
  for (const [i, entry] of byStart.entries()) {
    let before = 0;
    for (let j = 0; j < i; j++) if (byStart[j].end <= entry.start) before = Math.max(before, depth[j]);
    depth.push(before + 1);
    deepest = Math.max(deepest, before + 1);
  }
  return deepest;
}
