import type { Database } from "../db/types.ts";
import type { Keys } from "../keys.ts";
import type { ChannelAuth } from "./auth.ts";
import type { Channel, Policies } from "./channel.ts";
import type { ChangeFeed } from "./changes.ts";
import type { Hub } from "./hub.ts";
import type { ClientBook, Slots } from "./limits.ts";
import type { Frame, Vsn } from "./protocol.ts";

/** Bounds of the Realtime service (StackConfig.realtime). */
export interface RealtimeLimits {
  /** open WebSockets at once, all clients together (a memory guard) */
  maxConnections: number;
  /** open WebSockets of one client (remote address); hosted counts these per project */
  maxConnectionsPerClient: number;
  /** joins per second of one socket; over it the join is refused and the socket closed, as hosted */
  maxJoinsPerSecond: number;
  /** joins per second of one client over all its sockets (same refusal) */
  maxJoinsPerSecondPerClient: number;
  /** presences one client may have tracked at once, over all its sockets and channels */
  maxPresencesPerClient: number;
  /** how often private channels' access is checked again (membership changes), in ms */
  accessRecheckMs: number;
  /** joined channels per connection (Realtime's max_channels_per_client) */
  maxChannelsPerClient: number;
  /** client events per second per channel (broadcast, presence, …); over it the channel shuts down */
  maxEventsPerSecond: number;
  /** largest broadcast / presence payload in bytes (Realtime's max_payload_size_in_kb) */
  maxPayloadBytes: number;
  /** largest WebSocket frame; bigger frames close the connection (1009) */
  maxFrameBytes: number;
  /** outgoing bytes a slow client may have queued before it is disconnected */
  maxBufferedBytes: number;
  /** a connection that sends nothing (not even a heartbeat) this long is dropped */
  heartbeatTimeoutMs: number;
}

export interface Connection {
  readonly id: number;
  readonly vsn: Vsn;
  readonly channels: Map<string, Channel>;
  /** the apikey the socket connected with (used when a join carries no access_token) */
  readonly apikey: string;
  /** who is connected (the remote address): per-client bounds count by it */
  readonly client: string;
  readonly closed: boolean;
  send(frame: Frame): void;
  sendRaw(data: string | Buffer): void;
}

/** What channels need from the service. */
export interface RealtimeCore {
  db: Database;
  keys: Keys;
  hub: Hub;
  changes: ChangeFeed;
  limits: RealtimeLimits;
  /** per-client counts (connections, presences, join rate) */
  clients: ClientBook;
  /** the database work of joins and access re-checks runs here, a few at once */
  dbSlots: Slots;
  channelAccess(subTopic: string, auth: ChannelAuth, presence: boolean): Promise<Policies>;
}
