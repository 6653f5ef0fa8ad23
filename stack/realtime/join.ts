import { isAuthFailure, verifyChannelToken, type ChannelAuth } from "./auth.ts";
import { Channel, randomPresenceKey } from "./channel.ts";
import { bindingId, type PgBinding } from "./changes.ts";
import { Hub } from "./hub.ts";
import { errorReply, type Frame } from "./protocol.ts";
import type { Connection, RealtimeCore } from "./types.ts";

interface JoinConfig {
  broadcast?: { self?: unknown; ack?: unknown };
  presence?: { key?: unknown; enabled?: unknown };
  postgres_changes?: unknown[];
  private?: unknown;
}

const truthy = (v: unknown) => v === true || v === "true";

function replyError(conn: Connection, frame: Frame, reason: string) {
  conn.send(errorReply(frame, reason));
}

/**
 * A signed-in person's presence is keyed by their user id (the token's `sub`),
 * whatever key the client asked for, so nobody can appear as someone else;
 * hosted takes the client's key (docs/decisions/0018-realtime.md). Tokens
 * without a subject (the anon key) keep the client's key, or a random one.
 */
function presenceKey(auth: ChannelAuth, requested: unknown): string {
  if (typeof auth.claims.sub === "string" && auth.claims.sub !== "") return auth.claims.sub;
  return typeof requested === "string" && requested !== "" ? requested : randomPresenceKey();
}

/** phx_join on a `realtime:*` topic, step by step as RealtimeChannel.join/3 does it. */
export async function join(core: RealtimeCore, conn: Connection, frame: Frame): Promise<void> {
  const { topic } = frame;
  if (topic === "realtime:") return replyError(conn, frame, "TopicNameRequired: You must provide a topic name");
  const payload = (typeof frame.payload === "object" && frame.payload !== null ? frame.payload : {}) as {
    config?: JoinConfig;
    access_token?: unknown;
    user_token?: unknown;
  };
  const config: JoinConfig = typeof payload.config === "object" && payload.config !== null ? payload.config : {};

  // a second join of a topic replaces the first (Phoenix closes the old channel)
  const existing = conn.channels.get(topic);
  if (existing) {
    existing.push("phx_close", {});
    existing.close();
  }
  if (conn.channels.size >= core.limits.maxChannelsPerClient) {
    return replyError(conn, frame, "ChannelRateLimitReached: Too many channels");
  }

  const rawToken = payload.access_token ?? payload.user_token;
  const token = typeof rawToken === "string" && !rawToken.startsWith("sb_") ? rawToken : conn.apikey;
  const auth = await verifyChannelToken(core.keys, token);
  if (isAuthFailure(auth)) return replyError(conn, frame, `${auth.code}: ${auth.message}`);

  const isPrivate = truthy(config.private);
  const channel = new Channel(core, conn, topic, frame.join_ref, isPrivate, auth);
  channel.selfBroadcast = truthy(config.broadcast?.self);
  channel.ackBroadcast = truthy(config.broadcast?.ack);
  channel.presenceKey = presenceKey(auth, config.presence?.key);
  channel.presenceEnabled = truthy(config.presence?.enabled);

  if (isPrivate) {
    try {
      channel.policies = await core.dbSlots.run(() => core.channelAccess(channel.subTopic, auth, true));
    } catch (error) {
      return replyError(conn, frame, `RlsPolicyError: ${(error as Error).message}`);
    }
    if (!channel.policies.broadcast.read && !channel.policies.presence.read) {
      return replyError(
        conn,
        frame,
        `Unauthorized: You do not have permissions to read from this Channel topic: ${channel.subTopic}`,
      );
    }
  }

  const requested = Array.isArray(config.postgres_changes) ? config.postgres_changes.filter((p) => p !== null) : [];
  const bindings: PgBinding[] = [];
  const errors: string[] = [];
  if (requested.length > 0) {
    await core.dbSlots.run(async () => {
      await core.changes.refreshPublication();
      for (const params of requested) {
        const prepared = await core.changes.prepare(params, channel);
        if ("error" in prepared) errors.push(prepared.error);
        else bindings.push(prepared.binding);
      }
    });
  }
  if (conn.closed) return; // the socket went away while we waited

  conn.channels.set(topic, channel);
  core.hub.add(channel);
  const response = {
    postgres_changes: requested.map((p) => ({
      ...(p as Record<string, unknown>),
      id: bindingId(p as Record<string, unknown>),
    })),
  };
  channel.reply(frame.ref, "ok", response);
  channel.scheduleTokenCheck();
  if (requested.length > 0) {
    if (errors.length > 0) {
      channel.system("postgres_changes", "error", errors[0]);
    } else {
      core.changes.subscribe(bindings);
      channel.bindings = bindings;
      channel.system("postgres_changes", "ok", "Subscribed to PostgreSQL");
    }
  }
  if (channel.presenceEnabled && channel.canRead("presence"))
    channel.push("presence_state", core.hub.state(Hub.roomOf(channel)));
}
