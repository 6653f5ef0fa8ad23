/**
 * Counts the requests the stack served, so tests and benchmarks can assert
 * how many backend calls a page view made (e.g. exactly one token refresh).
 * Read and cleared through GET/DELETE /_stack/requests with the service key.
 */
export interface LoggedRequest {
  at: number;
  method: string;
  path: string;
  search: string;
  status: number;
  ms: number;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  constructor(private readonly limit = 10_000) {}

  record(entry: LoggedRequest) {
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  list(since = 0): LoggedRequest[] {
    return this.entries.filter((e) => e.at >= since);
  }

  clear() {
    this.entries = [];
  }
}
