import { Hono, type Context } from "hono";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import type { Keys } from "../keys.ts";
import type { ChannelAuth } from "./auth.ts";
import type { Policies } from "./channel.ts";
import type { Hub } from "./hub.ts";
import type { RealtimeLimits } from "./types.ts";

interface Deps {
  keys: Keys;
  hub: Hub;
  limits: RealtimeLimits;
  channelAccess(subTopic: string, auth: ChannelAuth, presence: boolean): Promise<Policies>;
}

interface Message {
  topic: string;
  event: string;
  payload: unknown;
  private: boolean;
}

/**
 * Realtime's REST broadcast: `POST /api/broadcast` with {messages: [...]} and
 * `POST /api/broadcast/:topic/events/:event` (one message; JSON or bytes).
 * 202 when accepted. Messages to private topics go out only if the caller may
 * write broadcast there (RLS on realtime.messages); others are skipped, as hosted.
 */
export function broadcastRoutes(deps: Deps): Hono {
  const app = new Hono();

  async function send(c: Context, messages: Message[], binary?: Buffer) {
    const who = await resolveIdentity(c, deps.keys);
    if (isIdentityError(who)) return c.json({ message: who.message }, 401);
    const auth: ChannelAuth = {
      token: who.token ?? "",
      claims: who.claims,
      role: who.role,
      exp: Number(who.claims.exp ?? Infinity),
    };
    const allowed = new Map<string, boolean>();
    for (const m of messages) {
      if (m.private) {
        if (!allowed.has(m.topic))
          allowed.set(m.topic, (await deps.channelAccess(m.topic, auth, false)).broadcast.write);
        if (!allowed.get(m.topic)) continue;
      }
      const data = binary ?? Buffer.from(JSON.stringify(m.payload), "utf8");
      deps.hub.broadcast(
        `${m.private ? "private" : "public"}:${m.topic}`,
        { event: m.event, encoding: binary ? "binary" : "json", data },
        null,
      );
    }
    return c.body(null, 202);
  }

  app.post("/api/broadcast", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ message: "Request body must be JSON" }, 400);
    }
    const list = (body as { messages?: unknown })?.messages;
    if (!Array.isArray(list)) return c.json({ errors: { messages: ["can't be blank"] } }, 422);
    const messages: Message[] = [];
    const errors: Record<string, string[]>[] = [];
    for (const raw of list) {
      const m = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
      const e: Record<string, string[]> = {};
      for (const field of ["topic", "event", "payload"])
        if (m[field] === undefined || m[field] === null) e[field] = ["can't be blank"];
      if (m.payload !== undefined && (typeof m.payload !== "object" || Array.isArray(m.payload)))
        e.payload = ["is invalid"];
      if (!e.payload && Buffer.byteLength(JSON.stringify(m.payload ?? {})) > deps.limits.maxPayloadBytes) {
        e.payload = ["Payload size exceeds tenant limit"];
      }
      errors.push(e);
      messages.push({
        topic: String(m.topic),
        event: String(m.event),
        payload: m.payload,
        private: m.private === true,
      });
    }
    if (errors.some((e) => Object.keys(e).length > 0)) return c.json({ errors: { messages: errors } }, 422);
    return send(c, messages);
  });

  app.post("/api/broadcast/:topic/events/:event", async (c) => {
    const topic = c.req.param("topic");
    const event = c.req.param("event");
    const isPrivate = c.req.query("private") === "true";
    const type = c.req.header("content-type") ?? "";
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (bytes.length > deps.limits.maxPayloadBytes) return c.json({ error: "Payload size exceeds tenant limit" }, 413);
    if (type.startsWith("application/octet-stream"))
      return send(c, [{ topic, event, payload: null, private: isPrivate }], bytes);
    let payload: unknown;
    try {
      payload = JSON.parse(bytes.toString("utf8"));
    } catch {
      return c.json({ error: "Request body must be JSON or application/octet-stream" }, 415);
    }
    return send(c, [{ topic, event, payload, private: isPrivate }]);
  });

  return app;
}
