/**
 * The Phoenix channel wire formats Realtime speaks, as realtime-js 2.109 uses them:
 *
 * - vsn 1.0.0: each text frame is a JSON object {join_ref, ref, topic, event, payload}.
 * - vsn 2.0.0: each text frame is a JSON array [join_ref, ref, topic, event, payload];
 *   binary frames carry broadcasts: the client sends "user broadcast push" (kind 3),
 *   the server sends "user broadcast" (kind 4), as Realtime's V2Serializer does.
 */
export type Vsn = "1.0.0" | "2.0.0";

export interface Frame {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast as it travels between connections: the user's event and its payload bytes. */
export interface UserBroadcast {
  event: string;
  /** JSON text or raw bytes */
  encoding: "json" | "binary";
  data: Buffer;
}

export class FrameError extends Error {}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;

export function parseVsn(value: string | null): Vsn | null {
  if (value === null || value === "" || value === "1.0.0") return "1.0.0";
  if (value === "2.0.0") return "2.0.0";
  return null;
}

/** Decodes one incoming frame; broadcasts sent as binary come back with a UserBroadcast payload. */
export function decodeFrame(vsn: Vsn, data: Buffer, isBinary: boolean): Frame & { broadcast?: UserBroadcast } {
  if (isBinary) {
    if (vsn !== "2.0.0") throw new FrameError("binary frames need vsn 2.0.0");
    return decodeUserBroadcastPush(data);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString("utf8"));
  } catch {
    throw new FrameError("frame is not valid JSON");
  }
  if (vsn === "2.0.0") {
    if (!Array.isArray(parsed) || parsed.length < 5) throw new FrameError("expected V2 array");
    const [join_ref, ref, topic, event, payload] = parsed as unknown[];
    return checkFrame({ join_ref, ref, topic, event, payload });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new FrameError("expected a message object");
  const m = parsed as Record<string, unknown>;
  return checkFrame({ join_ref: m.join_ref, ref: m.ref, topic: m.topic, event: m.event, payload: m.payload });
}

function checkFrame(m: Record<string, unknown>): Frame {
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  if (typeof m.topic !== "string" || typeof m.event !== "string")
    throw new FrameError("topic and event must be strings");
  return { join_ref: str(m.join_ref), ref: str(m.ref), topic: m.topic, event: m.event, payload: m.payload ?? {} };
}

function decodeUserBroadcastPush(buf: Buffer): Frame & { broadcast: UserBroadcast } {
  if (buf.length < 7 || buf[0] !== KIND_USER_BROADCAST_PUSH) throw new FrameError("unknown binary message kind");
  const [joinRefSize, refSize, topicSize, eventSize, metaSize, encoding] = [
    buf[1],
    buf[2],
    buf[3],
    buf[4],
    buf[5],
    buf[6],
  ];
  let offset = 7;
  const take = (n: number) => {
    if (offset + n > buf.length) throw new FrameError("binary message is truncated");
    const s = buf.subarray(offset, offset + n).toString("utf8");
    offset += n;
    return s;
  };
  const join_ref = take(joinRefSize);
  const ref = take(refSize);
  const topic = take(topicSize);
  const event = take(eventSize);
  take(metaSize); // metadata: unused, as in Realtime
  const data = Buffer.from(buf.subarray(offset));
  const broadcast: UserBroadcast = { event, encoding: encoding === 0 ? "binary" : "json", data };
  if (broadcast.encoding === "json") {
    try {
      JSON.parse(data.toString("utf8"));
    } catch {
      throw new FrameError("broadcast payload is not valid JSON");
    }
  }
  return { join_ref: join_ref || null, ref: ref || null, topic, event: "broadcast", payload: {}, broadcast };
}

/** Phoenix's reply to a client's message (same join_ref, ref and topic). */
export function reply(to: Frame, status: "ok" | "error", response: unknown): Frame {
  return { join_ref: to.join_ref, ref: to.ref, topic: to.topic, event: "phx_reply", payload: { status, response } };
}

/** An error reply with Realtime's `reason`. */
export function errorReply(to: Frame, reason: string): Frame {
  return reply(to, "error", { reason });
}

/** Encodes one outgoing message for a connection of the given version. */
export function encodeFrame(vsn: Vsn, frame: Frame): string {
  return encodeWithPayloadJson(vsn, frame, JSON.stringify(frame.payload));
}

/**
 * The same with the payload already as JSON text: one change goes to many
 * channels, and its payload is written once for all of them.
 */
export function encodeWithPayloadJson(vsn: Vsn, frame: Omit<Frame, "payload">, payloadJson: string): string {
  const [joinRef, ref, topic, event] = [frame.join_ref, frame.ref, frame.topic, frame.event].map((v) =>
    JSON.stringify(v),
  );
  if (vsn === "2.0.0") return `[${joinRef},${ref},${topic},${event},${payloadJson}]`;
  return `{"join_ref":${joinRef},"ref":${ref},"topic":${topic},"event":${event},"payload":${payloadJson}}`;
}

/**
 * A broadcast for one connection: kind 4 binary on vsn 2.0.0; on 1.0.0 a JSON
 * broadcast event (binary payloads cannot be represented there: null, skipped).
 */
export function encodeBroadcast(vsn: Vsn, topic: string, b: UserBroadcast): string | Buffer | null {
  if (vsn === "2.0.0") {
    const t = Buffer.from(topic, "utf8");
    const e = Buffer.from(b.event, "utf8");
    if (t.length > 255 || e.length > 255) return null;
    const header = Buffer.from([KIND_USER_BROADCAST, t.length, e.length, 0, b.encoding === "json" ? 1 : 0]);
    return Buffer.concat([header, t, e, b.data]);
  }
  if (b.encoding === "binary") return null;
  const payload = { type: "broadcast", event: b.event, payload: JSON.parse(b.data.toString("utf8")) as unknown };
  return encodeFrame(vsn, { join_ref: null, ref: null, topic, event: "broadcast", payload });
}

/** A broadcast that arrived as JSON ({type, event, payload}) in the internal form. */
export function broadcastFromJson(payload: unknown): UserBroadcast | null {
  if (typeof payload !== "object" || payload === null) return null;
  const p = payload as Record<string, unknown>;
  if (typeof p.event !== "string") return null;
  return { event: p.event, encoding: "json", data: Buffer.from(JSON.stringify(p.payload ?? {}), "utf8") };
}
