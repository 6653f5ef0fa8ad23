import type { Server } from "node:http";
import type { StackService } from "./context.ts";

/**
 * What the stack has opened, in the order it was opened: the database, the
 * HTTP server, the SMTP listener, then the services. Starting runs through
 * them in that order; closing runs backwards, each once, also when starting
 * failed halfway, so shutdown follows construction without being written
 * out by hand.
 */
export class Lifecycle {
  private readonly opened: StackService[] = [];

  /** Takes `service` into the life cycle (it closes before everything added earlier) and hands it back. */
  add<T extends StackService>(service: T): T {
    this.opened.push(service);
    return service;
  }

  get services(): readonly StackService[] {
    return this.opened;
  }

  async start(server: Server): Promise<void> {
    for (const service of this.opened) await service.start?.(server);
  }

  /** Closes everything, newest first; a failure does not stop the rest from closing (the first is thrown after). */
  async close(): Promise<void> {
    const closing = this.opened.splice(0).reverse();
    let failure: unknown = null;
    for (const service of closing) {
      try {
        await service.close?.();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure) throw failure;
  }
}
