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

/**
 * A token bucket per key, as GoTrue's tollbooth limiters are: `burst`
 * requests at once, then one more each time `perMinute` a minute refills a
 * token. Used per client IP on MFA challenge and verify (hosted: 15 a
 * minute after a burst of 30). `perMinute` 0 turns it off.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token from `key`'s bucket; false when it is empty. */
  allow(key: string): boolean {
    if (this.perMinute <= 0) return true;
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = this.refilled(bucket, now);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.prune(now);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private refilled(bucket: { tokens: number; at: number }, now: number): number {
    return Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
  }

  /** A full bucket is as good as none. */
  private prune(now: number) {
    for (const [key, bucket] of this.buckets) {
      if (this.refilled(bucket, now) >= this.burst) this.buckets.delete(key);
    }
  }
}

/**
 * Failed attempts per account (a lowercased email address), in memory: how
 * many failures in the last `windowMs`. Rate limits per IP cannot stop a
 * guesser who changes address; these stop guessing one account's code or
 * password from anywhere.
 */
export class FailureCounter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  count(key: string): number {
    const since = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list.length;
  }

  /** true once `limit` failures are counted for `key` */
  reached(key: string): boolean {
    return this.limit > 0 && this.count(key) >= this.limit;
  }

  /** Records a failure; returns the count in the window, this one included. */
  record(key: string): number {
    const n = this.count(key) + 1;
    this.failures.set(key, [...(this.failures.get(key) ?? []), this.now()]);
    if (this.failures.size > 10_000) {
      for (const k of [...this.failures.keys()]) this.count(k);
    }
    return n;
  }

  reset(key: string) {
    this.failures.delete(key);
  }
}
