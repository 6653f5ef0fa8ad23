import crypto from "node:crypto";
import { expiredMessage, isAuthFailure, verifyChannelToken, type ChannelAuth } from "./auth.ts";
import type { PgBinding } from "./changes.ts";
import { Hub } from "./hub.ts";
import { broadcastFromJson, reply, type Frame, type UserBroadcast } from "./protocol.ts";
import type { Connection, RealtimeCore } from "./types.ts";

export type Policies = Record<"broadcast" | "presence", { read: boolean; write: boolean }>;

const CONFIRM_TOKEN_MS = 5 * 60 * 1000;

/** One joined topic of one connection (a Phoenix channel process on hosted Realtime). */
export class Channel {
  readonly subTopic: string;
  selfBroadcast = false;
  ackBroadcast = false;
  presenceKey = "";
  presenceEnabled = false;
  tracked: Record<string, unknown> | null = null;
  policies: Policies | null = null;
  bindings: PgBinding[] = [];
  closed = false;
  private expiryTimer: NodeJS.Timeout | null = null;
  private events = { windowStart: 0, count: 0 };

  constructor(
    readonly core: RealtimeCore,
    readonly conn: Connection,
    readonly topic: string,
    readonly joinRef: string | null,
    readonly isPrivate: boolean,
    public auth: ChannelAuth,
  ) {
    this.subTopic = topic.slice("realtime:".length);
  }

  push(event: string, payload: unknown, ref: string | null = null) {
    if (this.closed) return;
    this.conn.send({ join_ref: this.joinRef, ref, topic: this.topic, event, payload });
  }

  reply(ref: string | null, status: "ok" | "error", response: unknown = {}) {
    this.conn.send(
      reply({ join_ref: this.joinRef, ref, topic: this.topic, event: "", payload: null }, status, response),
    );
  }

  system(extension: string, status: "ok" | "error", message: string) {
    this.push("system", { extension, status, message, channel: this.subTopic });
  }

  canRead(extension: "broadcast" | "presence"): boolean {
    if (this.auth.exp <= Date.now() / 1000) return false; // an expired token receives nothing
    return !this.isPrivate || this.policies?.[extension].read === true;
  }

  canReadChanges(): boolean {
    return !this.closed && this.auth.exp > Date.now() / 1000;
  }

  /** Checks the token again when it expires (at least every five minutes), as Realtime does. */
  scheduleTokenCheck() {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    const inMs = Math.max(0, Math.min(CONFIRM_TOKEN_MS, this.auth.exp * 1000 - Date.now()));
    this.expiryTimer = setTimeout(() => {
      if (this.auth.exp <= Date.now() / 1000) this.shutdown(expiredMessage(this.auth.exp));
      else this.scheduleTokenCheck();
    }, inMs + 50);
    this.expiryTimer.unref?.();
  }

  /** Realtime's shutdown: a system error, then the channel closes. */
  shutdown(message: string) {
    if (this.closed) return;
    this.system("system", "error", message);
    this.push("phx_close", {});
    this.close();
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.untrack();
    this.core.hub.remove(this);
    this.core.changes.unsubscribe(this);
    if (this.conn.channels.get(this.topic) === this) this.conn.channels.delete(this.topic);
  }

  /** Counts a client event; over the limit the channel shuts down. */
  private overRate(): boolean {
    const now = Date.now();
    if (now - this.events.windowStart >= 1000) this.events = { windowStart: now, count: 0 };
    this.events.count++;
    if (this.events.count > this.core.limits.maxEventsPerSecond) {
      this.shutdown("Too many messages per second");
      return true;
    }
    return false;
  }

  async handle(frame: Frame & { broadcast?: UserBroadcast }) {
    switch (frame.event) {
      case "phx_leave":
        this.reply(frame.ref, "ok");
        this.close();
        return;
      case "access_token":
        return this.refreshToken((frame.payload as { access_token?: unknown })?.access_token);
      case "broadcast":
        if (this.overRate()) return;
        return this.handleBroadcast(frame);
      case "presence":
        if (this.overRate()) return;
        return this.handlePresence(frame);
      default:
        if (this.overRate()) return;
      // Realtime ignores other events from clients
    }
  }

  private handleBroadcast(frame: Frame & { broadcast?: UserBroadcast }) {
    const b = frame.broadcast ?? broadcastFromJson(frame.payload);
    if (!b) return;
    if (this.isPrivate && !this.policies?.broadcast.write) return; // hosted drops these silently
    if (b.data.length > this.core.limits.maxPayloadBytes) {
      if (this.ackBroadcast) this.reply(frame.ref, "error", "payload_size_exceeded");
      return;
    }
    this.core.hub.broadcast(Hub.roomOf(this), b, this);
    if (this.ackBroadcast) this.reply(frame.ref, "ok");
  }

  private handlePresence(frame: Frame) {
    const p = (frame.payload ?? {}) as { event?: unknown; payload?: unknown };
    const event = typeof p.event === "string" ? p.event.toLowerCase() : "";
    if (event === "untrack") {
      this.untrack();
      this.reply(frame.ref, "ok");
      return;
    }
    if (event !== "track") {
      this.reply(frame.ref, "error");
      return;
    }
    const payload = p.payload ?? {};
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
      this.reply(frame.ref, "error", { reason: "Presence track payload must be a map" });
      return;
    }
    if (this.isPrivate && !this.policies?.presence.write) {
      this.reply(frame.ref, "error");
      return;
    }
    if (Buffer.byteLength(JSON.stringify(payload)) > this.core.limits.maxPayloadBytes) {
      this.shutdown("Track message size exceeded");
      return;
    }
    if (!this.presenceEnabled) {
      this.presenceEnabled = true;
      this.push("presence_state", this.core.hub.state(Hub.roomOf(this)));
    }
    if (this.tracked === null) {
      // one client cannot fill the rooms with presences (counted over all its sockets)
      if (this.core.clients.presences(this.conn.client) >= this.core.limits.maxPresencesPerClient) {
        this.reply(frame.ref, "error", { reason: "Too many presences tracked by this client" });
        return;
      }
      this.core.clients.tracked(this.conn.client, 1);
    }
    if (JSON.stringify(payload) !== JSON.stringify(this.tracked)) {
      this.tracked = payload as Record<string, unknown>;
      this.core.hub.track(this, this.tracked);
    }
    this.reply(frame.ref, "ok");
  }

  private async refreshToken(token: unknown) {
    if (token === null || token === undefined || token === this.auth.token) return;
    if (typeof token === "string" && token.startsWith("sb_")) return;
    const auth = await verifyChannelToken(this.core.keys, token);
    if (isAuthFailure(auth)) return this.shutdown(auth.message);
    this.auth = auth;
    await this.recheckAccess();
    if (!this.closed) this.scheduleTokenCheck();
  }

  /**
   * Reads a private channel's policies again (a new token; membership may have
   * changed meanwhile): read access gone → the channel shuts down, as hosted
   * does on a token refresh; presence write gone → its presence is untracked.
   */
  async recheckAccess(): Promise<void> {
    if (!this.isPrivate || this.closed) return;
    const previous = this.policies;
    const policies = await this.core.dbSlots.run(() => this.core.channelAccess(this.subTopic, this.auth, true));
    if (this.closed) return;
    this.policies = policies;
    const revoked = (e: "broadcast" | "presence") => previous?.[e].read && !policies[e].read;
    if (revoked("broadcast") || revoked("presence")) {
      return this.shutdown(`You no longer have permission to read from this Channel topic: ${this.subTopic}`);
    }
    if (!policies.presence.write) this.untrack();
  }

  private untrack() {
    if (this.tracked === null) return;
    this.core.hub.untrack(this);
    this.core.clients.tracked(this.conn.client, -1);
    this.tracked = null;
  }
}

/** A random presence key when the client gives none (as Realtime does). */
export function randomPresenceKey(): string {
  return crypto.randomUUID();
}
