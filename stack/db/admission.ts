/**
 * Admission for the embedded database (issue 35, H1). PGlite is one
 * connection: a statement that runs to its role's statement_timeout holds
 * every other caller for that long, and ending it costs a reopening of the
 * engine on top (pglite.ts). Issue 22 bounded one such statement; a caller
 * who sends them in a loop still held everyone else as long as they liked.
 * Native PostgreSQL serves the others on other connections meanwhile, so
 * isolation here has to come from who is let in:
 *
 *  - a caller whose statement was ended at its deadline ("a strike") is
 *    refused for a while (CallerRefusedError: 503 with Retry-After, as a
 *    rate limit answers), and the while doubles with each strike (up to
 *    `maxCooldownMs`); strikes are forgotten after `forgetMs` without one;
 *  - the refusal is checked again when a waiting request's turn comes, so
 *    what the caller queued before its strike never runs either;
 *  - a caller has at most `perCaller` requests in the database's queue;
 *    more wait in the caller's own line (up to `maxWaiting`, then refused),
 *    so one caller's burst never stands in front of everyone else. On one
 *    connection this costs the caller nothing: its requests ran one at a
 *    time anyway.
 *
 * A caller is the token's `sub`, else the client's address (stack/rest
 * decides; the service role is never held back: it holds the key).
 */

export interface AdmissionOptions {
  /** how long a caller is refused after its first strike, in ms (0: never refused) */
  cooldownMs: number;
  /** the longest refusal, however many strikes */
  maxCooldownMs: number;
  /** strikes are forgotten this long after the last one */
  forgetMs: number;
  /** a caller's requests in the database's queue at once */
  perCaller: number;
  /** a caller's requests waiting for one of those places; more are refused */
  maxWaiting: number;
}

export const DEFAULT_ADMISSION: AdmissionOptions = {
  cooldownMs: 30_000,
  maxCooldownMs: 10 * 60_000,
  forgetMs: 60 * 60_000,
  perCaller: 2,
  maxWaiting: 64,
};

/**
 * A request refused before it reached the database. SQLSTATE class 53
 * (insufficient resources), which PostgREST answers with 503.
 */
export class CallerRefusedError extends Error {
  readonly code = "53000";
  readonly hint: string;
  constructor(
    readonly retryAfterSeconds: number,
    readonly detail: string,
  ) {
    super("Too many of this caller's statements ran past their statement_timeout on the embedded database");
    this.name = "CallerRefusedError";
    this.hint = `Try again in ${retryAfterSeconds} s. The local stack's embedded database (PGlite) has one connection; see docs/deploy.md.`;
  }
}

interface Caller {
  strikes: number;
  lastStrike: number;
  refusedUntil: number;
  /** requests of this caller in the database's queue */
  active: number;
  /** requests waiting for a place */
  line: (() => void)[];
}

export class Admission {
  private readonly callers = new Map<string, Caller>();

  constructor(
    private readonly options: AdmissionOptions,
    private readonly now: () => number = Date.now,
  ) {}

  private get(key: string): Caller {
    let c = this.callers.get(key);
    if (!c) {
      c = { strikes: 0, lastStrike: 0, refusedUntil: 0, active: 0, line: [] };
      this.callers.set(key, c);
    }
    return c;
  }

  /** Throws CallerRefusedError while the caller is refused. */
  check(key: string): void {
    const c = this.callers.get(key);
    if (!c) return;
    const wait = c.refusedUntil - this.now();
    if (wait > 0) {
      throw new CallerRefusedError(
        Math.ceil(wait / 1000),
        `${c.strikes} of this caller's statements ran past the statement_timeout; it is refused until ${new Date(c.refusedUntil).toISOString()}`,
      );
    }
  }

  /**
   * Lets a request in: refused now, or once it has a place in the database's
   * queue; `run` gets `turn`, to call when its first statement is about to
   * run (the caller may have been struck while it waited).
   */
  async admit<T>(key: string, run: (turn: () => void) => Promise<T>): Promise<T> {
    this.check(key);
    const c = this.get(key);
    if (c.active >= this.options.perCaller) {
      if (c.line.length >= this.options.maxWaiting) {
        throw new CallerRefusedError(1, `this caller already has ${c.line.length} requests waiting for the database`);
      }
      await new Promise<void>((resolve) => c.line.push(resolve));
    } else c.active++;
    try {
      return await run(() => this.check(key));
    } finally {
      // hand the place to the next in the caller's line, or give it back
      const next = c.line.shift();
      if (next) next();
      else {
        c.active--;
        this.tidy(key, c);
      }
    }
  }

  /** The caller's statement was ended at its deadline. */
  strike(key: string): void {
    const c = this.get(key);
    const now = this.now();
    if (now - c.lastStrike > this.options.forgetMs) c.strikes = 0;
    c.strikes++;
    c.lastStrike = now;
    if (this.options.cooldownMs > 0) {
      const cooldown = Math.min(this.options.cooldownMs * 2 ** (c.strikes - 1), this.options.maxCooldownMs);
      c.refusedUntil = Math.max(c.refusedUntil, now + cooldown);
    }
  }

  /** callers known right now (for tests) */
  get size(): number {
    return this.callers.size;
  }

  private tidy(key: string, c: Caller) {
    if (c.active === 0 && c.line.length === 0 && this.now() - c.lastStrike > this.options.forgetMs) {
      this.callers.delete(key);
    }
  }
}
