import crypto from "node:crypto";
import { encodeBroadcast, type UserBroadcast } from "./protocol.ts";
import type { Channel } from "./channel.ts";

type Meta = Record<string, unknown> & { phx_ref: string };
type PresenceMap = Record<string, { metas: Meta[] }>;

/**
 * Who is on which topic, for broadcast and presence. Public and private
 * channels of one name are separate rooms, as on hosted Realtime.
 */
export class Hub {
  private rooms = new Map<string, Set<Channel>>();
  /** room → presence key → tracking channel → its meta */
  private presences = new Map<string, Map<string, Map<Channel, Meta>>>();

  static roomOf(ch: Pick<Channel, "isPrivate" | "subTopic">): string {
    return `${ch.isPrivate ? "private" : "public"}:${ch.subTopic}`;
  }

  add(ch: Channel) {
    const room = Hub.roomOf(ch);
    let set = this.rooms.get(room);
    if (!set) this.rooms.set(room, (set = new Set()));
    set.add(ch);
  }

  remove(ch: Channel) {
    const room = Hub.roomOf(ch);
    this.untrack(ch);
    const set = this.rooms.get(room);
    set?.delete(ch);
    if (set && set.size === 0) this.rooms.delete(room);
  }

  members(room: string): Set<Channel> {
    return this.rooms.get(room) ?? new Set();
  }

  /** Sends a broadcast to the room's readers (the sender too when `self`). */
  broadcast(room: string, b: UserBroadcast, from: Channel | null) {
    const cache = new Map<string, string | Buffer | null>();
    for (const ch of this.members(room)) {
      if (ch === from && !ch.selfBroadcast) continue;
      if (!ch.canRead("broadcast")) continue;
      const key = ch.conn.vsn;
      if (!cache.has(key)) cache.set(key, encodeBroadcast(ch.conn.vsn, ch.topic, b));
      const data = cache.get(key);
      if (data !== null && data !== undefined) ch.conn.sendRaw(data);
    }
  }

  state(room: string): PresenceMap {
    const out: PresenceMap = {};
    for (const [key, byChannel] of this.presences.get(room) ?? []) out[key] = { metas: [...byChannel.values()] };
    return out;
  }

  /** Tracks (or updates) the channel's presence; sends the diff to the room. */
  track(ch: Channel, payload: Record<string, unknown>) {
    const room = Hub.roomOf(ch);
    let byKey = this.presences.get(room);
    if (!byKey) this.presences.set(room, (byKey = new Map()));
    let byChannel = byKey.get(ch.presenceKey);
    if (!byChannel) byKey.set(ch.presenceKey, (byChannel = new Map()));
    const previous = byChannel.get(ch);
    const meta: Meta = { ...payload, phx_ref: crypto.randomBytes(8).toString("base64url") };
    if (previous) meta.phx_ref_prev = previous.phx_ref;
    byChannel.set(ch, meta);
    this.diff(
      room,
      { [ch.presenceKey]: { metas: [meta] } },
      previous ? { [ch.presenceKey]: { metas: [previous] } } : {},
    );
  }

  untrack(ch: Channel) {
    const room = Hub.roomOf(ch);
    const byKey = this.presences.get(room);
    const byChannel = byKey?.get(ch.presenceKey);
    const meta = byChannel?.get(ch);
    if (!byKey || !byChannel || !meta) return;
    byChannel.delete(ch);
    if (byChannel.size === 0) byKey.delete(ch.presenceKey);
    if (byKey.size === 0) this.presences.delete(room);
    this.diff(room, {}, { [ch.presenceKey]: { metas: [meta] } });
  }

  private diff(room: string, joins: PresenceMap, leaves: PresenceMap) {
    for (const ch of this.members(room)) {
      if (ch.presenceEnabled && ch.canRead("presence")) ch.push("presence_diff", { joins, leaves });
    }
  }

  get roomCount() {
    return this.rooms.size;
  }
}
