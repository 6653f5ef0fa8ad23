import { Hono, type Context } from "hono";
import { isIdentityError, resolveIdentity } from "../http/identity.ts";
import { BodyTooLargeError, jsonTextDepth, readBodyLimited } from "../http/limits.ts";
import type { Keys } from "../keys.ts";
import type { ChannelAuth } from "./auth.ts";
import type { Policies } from "./channel.ts";
import type { Hub } from "./hub.ts";
import type { RealtimeLimits } from "./types.ts";

interface Deps {
  keys: Keys;
  hub: Hub;
  limits: RealtimeLimits;
  /** the largest request body (the service's), and the deepest JSON nesting a body may have */
  maxBodyBytes: number;
  jsonDepth: number;
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

  /** Whether the caller may broadcast to a private topic; one Postgres can't hold as text (a NUL) has no policy letting it. */
  async function mayWrite(topic: string, auth: ChannelAuth): Promise<boolean> {
    try {
      return (await deps.channelAccess(topic, auth, false)).broadcast.write;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "22021" || code === "22P05") return false;
      throw error;
    }
  }

  /** The body, read no further than `limit`: null when it is longer (answered 413). */
  async function bodyOf(c: Context, limit: number): Promise<Buffer | null> {
    try {
      return Buffer.from(await readBodyLimited(c.req.raw, limit));
    } catch (error) {
      if (error instanceof BodyTooLargeError) return null;
      throw error;
    }
  }

  /** JSON whose nesting was bounded before parsing (payloads are stringified again to be sent). */
  function parseJson(bytes: Buffer): { value: unknown } | null {
    const text = bytes.toString("utf8");
    if (jsonTextDepth(text, deps.jsonDepth) > deps.jsonDepth) return null;
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return null;
    }
  }

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
        if (!allowed.has(m.topic)) allowed.set(m.topic, await mayWrite(m.topic, auth));
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
    const bytes = await bodyOf(c, deps.maxBodyBytes);
    if (!bytes) return c.json({ message: "Request Entity Too Large" }, 413);
    const parsed = parseJson(bytes);
    if (!parsed) return c.json({ message: "Request body must be JSON" }, 400);
    const list = (parsed.value as { messages?: unknown })?.messages;
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
    const bytes = await bodyOf(c, deps.limits.maxPayloadBytes);
    if (!bytes) return c.json({ error: "Payload size exceeds tenant limit" }, 413);
    if (type.startsWith("application/octet-stream"))
      return send(c, [{ topic, event, payload: null, private: isPrivate }], bytes);
    const parsed = parseJson(bytes);
    if (!parsed) return c.json({ error: "Request body must be JSON or application/octet-stream" }, 415);
    return send(c, [{ topic, event, payload: parsed.value, private: isPrivate }]);
  });

  return app;
}
