import type WebSocket from "ws";
import type { Channel } from "./channel.ts";
import { join } from "./join.ts";
import { RateBucket } from "./limits.ts";
import { decodeFrame, encodeFrame, errorReply, FrameError, reply, type Frame, type Vsn } from "./protocol.ts";
import type { Connection, RealtimeCore } from "./types.ts";

/** Frames a client may have waiting to be handled before it is disconnected. */
const MAX_PENDING_FRAMES = 1000;

/** Close codes the stack uses (the client reconnects after any of them). */
export const CLOSE = { invalid: 1007, policy: 1008, tooBig: 1009, overloaded: 1013 } as const;

let nextId = 1;

/**
 * One WebSocket (a Phoenix socket): frames are handled one after another in
 * arrival order; heartbeats on the `phoenix` topic; anything for a topic that
 * was not joined gets Phoenix's "unmatched topic" error.
 */
export class WsConnection implements Connection {
  readonly id = nextId++;
  readonly channels = new Map<string, Channel>();
  closed = false;
  lastSeen = Date.now();
  private pending = 0;
  private queue: Promise<void> = Promise.resolve();
  private joins: RateBucket;

  constructor(
    private core: RealtimeCore,
    private ws: WebSocket,
    readonly vsn: Vsn,
    readonly apikey: string,
    readonly client: string,
    private log: (message: string) => void,
  ) {
    this.joins = new RateBucket(core.limits.maxJoinsPerSecond, core.limits.maxJoinsPerSecond);
    ws.on("message", (data, isBinary) => this.receive(toBuffer(data), isBinary));
    ws.on("close", () => this.teardown());
    ws.on("error", () => this.teardown());
  }

  send(frame: Frame) {
    this.sendRaw(encodeFrame(this.vsn, frame));
  }

  sendRaw(data: string | Buffer) {
    if (this.closed) return;
    // a client that does not read what it is sent is cut off instead of growing our memory
    if (this.ws.bufferedAmount > this.core.limits.maxBufferedBytes) {
      this.drop(CLOSE.overloaded, "Client is not reading its messages");
      return;
    }
    this.ws.send(data);
  }

  drop(code: number, reason: string) {
    if (this.closed) return;
    this.ws.close(code, reason);
    this.teardown();
    // a peer that never completes the closing handshake is cut after a second
    setTimeout(() => this.ws.terminate(), 1000).unref?.();
  }

  private receive(data: Buffer, isBinary: boolean) {
    this.lastSeen = Date.now();
    if (++this.pending > MAX_PENDING_FRAMES) {
      this.drop(CLOSE.policy, "Too many messages");
      return;
    }
    this.queue = this.queue
      // a turn of the event loop between frames: on PGlite a join's queries run on this thread
      // and resolve as microtasks, so a socket's backlog would otherwise keep everyone else's
      // requests waiting until it is all handled
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => this.handle(data, isBinary))
      .catch((error) => this.log(`connection ${this.id}: ${(error as Error).stack ?? error}`))
      .finally(() => this.pending--);
  }

  private async handle(data: Buffer, isBinary: boolean) {
    if (this.closed) return;
    let frame: ReturnType<typeof decodeFrame>;
    try {
      frame = decodeFrame(this.vsn, data, isBinary);
    } catch (error) {
      if (!(error instanceof FrameError)) throw error;
      // Phoenix cannot decode it either and closes the socket
      this.drop(CLOSE.invalid, `Invalid message: ${error.message}`);
      return;
    }
    if (frame.topic === "phoenix" && frame.event === "heartbeat") {
      this.send(reply({ ...frame, join_ref: null }, "ok", {}));
      return;
    }
    if (frame.event === "phx_join") {
      if (!frame.topic.startsWith("realtime:")) return this.unmatched(frame);
      // over the socket's or the client's join rate: refused, and the socket is closed (hosted disconnects it)
      if (!this.joins.take() || !this.core.clients.join(this.client)) {
        this.send(errorReply(frame, "ClientJoinRateLimitReached: Too many joins per second"));
        this.drop(CLOSE.policy, "Too many joins per second");
        return;
      }
      return join(this.core, this, frame);
    }
    const channel = this.channels.get(frame.topic);
    if (!channel || (frame.join_ref !== null && channel.joinRef !== null && frame.join_ref !== channel.joinRef)) {
      if (frame.event === "phx_leave") {
        this.send(reply(frame, "ok", {}));
        return;
      }
      return this.unmatched(frame);
    }
    await channel.handle(frame);
  }

  private unmatched(frame: Frame) {
    this.send(errorReply(frame, "unmatched topic"));
  }

  private teardown() {
    if (this.closed) return;
    this.closed = true;
    for (const channel of [...this.channels.values()]) channel.close();
  }
}

function toBuffer(data: WebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
