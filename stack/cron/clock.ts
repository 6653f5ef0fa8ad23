/**
 * What the scheduler reads the time from and waits on. The stack uses the
 * system's; tests give it a ManualClock and move it forward, so a schedule of
 * "every day at 08:00" is checked without waiting for 08:00.
 */
export interface Clock {
  now(): number;
  /** calls `fn` once the clock reads `time` (ms) or later; returns a function that cancels it */
  at(time: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  at(time, fn) {
    const timer = setTimeout(fn, Math.max(0, time - Date.now()));
    return () => clearTimeout(timer);
  },
};

interface Timer {
  time: number;
  fn: () => void;
}

/** A clock that moves only when told to; its timers fire, in order, as it passes them. */
export class ManualClock implements Clock {
  private current: number;
  private timers: Timer[] = [];

  constructor(start: number | Date) {
    this.current = typeof start === "number" ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  at(time: number, fn: () => void): () => void {
    const timer = { time, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves the clock forward by `ms`, firing each timer due on the way at its own time. */
  async advance(ms: number): Promise<void> {
    await this.set(this.current + ms);
  }

  /** Moves the clock to `time` (never backwards), firing the timers due on the way. */
  async set(time: number | Date): Promise<void> {
    const target = typeof time === "number" ? time : time.getTime();
    for (;;) {
      const due = this.timers.filter((t) => t.time <= target).sort((a, b) => a.time - b.time)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.time);
      due.fn();
      // let what the timer started run up to its first wait (it may set the next timer)
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.current = Math.max(this.current, target);
  }
}
