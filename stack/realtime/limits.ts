/**
 * Per-client bounds of the Realtime service. Hosted Realtime counts joins,
 * connections and presence per tenant (a project); the local stack is one
 * tenant shared by everyone who can reach it, so the same bounds are counted
 * per socket and per client (its remote address) instead, and one client
 * cannot lock the others out.
 */

/** A token bucket: `burst` at once, refilled at `perSecond`. */
export class RateBucket {
  private tokens: number;
  private at = Date.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Takes one token; false when there is none (over the rate). */
  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Full again (nothing taken for as long as a refill takes): can be forgotten. */
  get idle(): boolean {
    return this.tokens + ((Date.now() - this.at) / 1000) * this.perSecond >= this.burst;
  }
}

interface ClientState {
  connections: number;
  presences: number;
  joins: RateBucket;
}

/** What each client (remote address) holds: open sockets, tracked presences, its join rate. */
export class ClientBook {
  private clients = new Map<string, ClientState>();

  constructor(private readonly joinsPerSecond: number) {
    // buckets of clients that went quiet are forgotten, so the map stays as small as the active set
    const sweep = setInterval(() => {
      for (const [key, c] of this.clients)
        if (c.connections === 0 && c.presences === 0 && c.joins.idle) this.clients.delete(key);
    }, 10_000);
    sweep.unref();
    this.stop = () => clearInterval(sweep);
  }

  readonly stop: () => void;

  private get(client: string): ClientState {
    let c = this.clients.get(client);
    if (!c) {
      c = { connections: 0, presences: 0, joins: new RateBucket(this.joinsPerSecond, this.joinsPerSecond) };
      this.clients.set(client, c);
    }
    return c;
  }

  connections(client: string): number {
    return this.clients.get(client)?.connections ?? 0;
  }

  connected(client: string, delta: 1 | -1) {
    this.get(client).connections += delta;
  }

  presences(client: string): number {
    return this.clients.get(client)?.presences ?? 0;
  }

  tracked(client: string, delta: 1 | -1) {
    this.get(client).presences += delta;
  }

  /** Counts one join of this client; false when it is over its rate. */
  join(client: string): boolean {
    return this.get(client).joins.take();
  }
}

/**
 * At most `size` tasks at once, the rest wait in arrival order: bounds the
 * database work joins put in front of everyone else's queries.
 */
export class Slots {
  private running = 0;
  private waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
