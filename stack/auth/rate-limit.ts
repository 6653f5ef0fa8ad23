/**
 * At most `limit` events per key in any window of `windowMs` (a sliding log,
 * kept in memory: the local stack is one process). Used for token requests
 * per client IP, as GoTrue limits /token and /verify.
 */
export class SlidingWindowLimiter {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records an event for `key`; false when it would exceed the limit. */
  allow(key: string): boolean {
    const now = this.now();
    const since = now - this.windowMs;
    const list = (this.events.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.limit) {
      this.events.set(key, list);
      return false;
    }
    list.push(now);
    this.events.set(key, list);
    if (this.events.size > 10_000) this.prune(since);
    return true;
  }

  private prune(since: number) {
    for (const [key, list] of this.events) {
      if (list.every((t) => t <= since)) this.events.delete(key);
    }
  }
}
