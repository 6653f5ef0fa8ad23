import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { ServiceContext, StackService } from "../context.ts";
import { upgradeClientIp } from "../http/client-ip.ts";
import type { ChannelAuth } from "./auth.ts";
import { isAuthFailure, verifyChannelToken } from "./auth.ts";
import type { Policies } from "./channel.ts";
import { ChangeFeed } from "./changes.ts";
import { WsConnection } from "./connection.ts";
import { broadcastRoutes } from "./http.ts";
import { Hub } from "./hub.ts";
import { ClientBook, Slots } from "./limits.ts";
import { parseVsn } from "./protocol.ts";
import type { RealtimeCore } from "./types.ts";

export const WEBSOCKET_PATH = "/realtime/v1/websocket";

/** Plug.Parsers' default length, which hosted Realtime keeps for its REST endpoints */
const MAX_BODY_BYTES = 8_000_000;
/** a REST broadcast's JSON goes to JSON.stringify (which fails near 5,000 levels), never to SQL */
const MAX_JSON_DEPTH = 1_000;

export interface RealtimeService extends StackService {
  stats(): { connections: number; channels: number; subscriptions: number; delivered: number };
}

/**
 * The local stack's Realtime service: Supabase Realtime's WebSocket (Phoenix
 * channels: postgres_changes, broadcast, presence) on the stack's own HTTP
 * server, and its REST broadcast endpoints.
 */
export function createRealtimeService(ctx: ServiceContext): RealtimeService {
  const limits = ctx.config.realtime;
  const log = (message: string) => ctx.log("realtime", message);
  const changes = new ChangeFeed(ctx.db, log);
  const hub = new Hub();

  async function channelAccess(subTopic: string, auth: ChannelAuth, presence: boolean): Promise<Policies> {
    const extensions = presence ? "{broadcast,presence}" : "{broadcast}";
    const { rows } = await ctx.db.query<{ access: Partial<Policies> }>(
      "select realtime.channel_access($1, $2::jsonb, $3::text[]) as access",
      [subTopic, JSON.stringify({ ...auth.claims, role: auth.role }), extensions],
    );
    const access = rows[0].access;
    const none = { read: false, write: false };
    return { broadcast: access.broadcast ?? none, presence: access.presence ?? none };
  }

  const clients = new ClientBook(limits.maxJoinsPerSecondPerClient);
  // at most a few joins' (and access re-checks') queries wait in the database's queue at once
  const dbSlots = new Slots(4);
  const core: RealtimeCore = { db: ctx.db, keys: ctx.keys, hub, changes, limits, clients, dbSlots, channelAccess };
  const connections = new Set<WsConnection>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes });

  function refuse(socket: Duplex, status: number, message: string) {
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : status === 429 ? "Too Many Requests" : "Bad Request"}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname.replace(/\/+$/, "") !== WEBSOCKET_PATH) return; // not ours
    const vsn = parseVsn(url.searchParams.get("vsn"));
    if (!vsn) return refuse(socket, 400, "Unsupported serializer version");
    const apikey = (req.headers["x-api-key"] as string | undefined) ?? url.searchParams.get("apikey");
    if (!apikey) return refuse(socket, 401, "API key is missing");
    const auth = await verifyChannelToken(ctx.keys, apikey);
    if (isAuthFailure(auth)) {
      return refuse(socket, 401, auth.message.startsWith("Token has expired") ? "Token has expired" : auth.message);
    }
    const client = upgradeClientIp(req, ctx.config.trustedProxies);
    if (connections.size >= limits.maxConnections || clients.connections(client) >= limits.maxConnectionsPerClient)
      return refuse(socket, 429, "Too many connected users");
    clients.connected(client, 1); // counted before the handshake completes, so a burst cannot overshoot
    let counted = true;
    const release = () => {
      if (counted) clients.connected(client, -1);
      counted = false;
    };
    socket.once("close", release);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = new WsConnection(core, ws, vsn, apikey, client, log);
      connections.add(conn);
      ws.on("close", () => {
        connections.delete(conn);
        release();
      });
    });
  }

  const upgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    onUpgrade(req, socket, head).catch((error) => {
      log(`upgrade failed: ${(error as Error).message}`);
      socket.destroy();
    });
  };
  let server: Server | null = null;
  let sweeper: NodeJS.Timeout | undefined;
  let rechecker: NodeJS.Timeout | undefined;
  let rechecking = false;

  return {
    name: "realtime",
    http: {
      mount: "/realtime/v1",
      app: broadcastRoutes({
        keys: ctx.keys,
        hub,
        limits,
        channelAccess,
        maxBodyBytes: MAX_BODY_BYTES,
        jsonDepth: MAX_JSON_DEPTH,
      }),
      access: "api",
      maxBodyBytes: MAX_BODY_BYTES,
    },
    async start(listening) {
      await changes.start();
      server = listening;
      server.on("upgrade", upgradeListener);
      // a client that stopped sending heartbeats is dropped
      sweeper = setInterval(
        () => {
          const cutoff = Date.now() - limits.heartbeatTimeoutMs;
          for (const conn of connections) if (conn.lastSeen < cutoff) conn.drop(1000, "heartbeat timeout");
        },
        Math.max(250, Math.min(5000, limits.heartbeatTimeoutMs / 4)),
      );
      sweeper.unref();
      // private channels' access is read again now and then: a person removed from a team stops
      // receiving (and being seen in) its channels without waiting for a token refresh
      // (a round still running when the next is due is not doubled up)
      rechecker = setInterval(() => {
        if (rechecking) return;
        rechecking = true;
        const checks = [...connections].flatMap((conn) =>
          [...conn.channels.values()]
            .filter((channel) => channel.isPrivate)
            .map((channel) =>
              channel.recheckAccess().catch((error) => log(`access re-check: ${(error as Error).message}`)),
            ),
        );
        void Promise.all(checks).finally(() => (rechecking = false));
      }, limits.accessRecheckMs);
      rechecker.unref();
    },
    stats: () => ({
      connections: connections.size,
      channels: [...connections].reduce((n, c) => n + c.channels.size, 0),
      subscriptions: changes.subscriptionCount,
      delivered: changes.delivered,
    }),
    async close() {
      clearInterval(sweeper);
      clearInterval(rechecker);
      clients.stop();
      server?.off("upgrade", upgradeListener);
      for (const conn of connections) conn.drop(1001, "server shutting down");
      await changes.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
