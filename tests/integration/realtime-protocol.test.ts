/**
 * The Realtime WebSocket at the frame level (what a misbehaving or outdated
 * client can send): Phoenix's replies to heartbeats and unknown topics, the
 * HTTP errors of a refused handshake, malformed and oversized frames, limits
 * and the heartbeat timeout. The stack keeps serving other clients after each.
 */
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Inbox } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

type Reply = [string | null, string | null, string, string, Record<string, unknown>];

function open(stack: TestStack, query = `apikey=${stack.anonKey}&vsn=2.0.0`) {
  const url = `${stack.url.replace(/^http/, "ws")}/realtime/v1/websocket?${query}`;
  const socket = new WebSocket(url);
  const frames = new Inbox<Reply>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  socket.on("message", (data, binary) => {
    if (!binary) frames.push(JSON.parse(data.toString()) as Reply);
  });
  const ready = new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return { socket, frames, closed, ready, send: (f: unknown[]) => socket.send(JSON.stringify(f)) };
}

async function handshakeStatus(stack: TestStack, query: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${stack.url.replace(/^http/, "ws")}/realtime/v1/websocket?${query}`);
    socket.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) }));
    });
    socket.on("error", () => {});
  });
}

describe("Realtime WebSocket protocol", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      realtime: {
        heartbeatTimeoutMs: 800,
        maxChannelsPerClient: 3,
        maxFrameBytes: 64 * 1024,
        maxBufferedBytes: 256 * 1024,
      },
    });
  });
  afterAll(() => stack?.close());

  async function stillServes() {
    const c = open(stack);
    await c.ready;
    c.send([null, "1", "phoenix", "heartbeat", {}]);
    const [reply] = await c.frames.until(1);
    expect(reply).toEqual([null, "1", "phoenix", "phx_reply", { status: "ok", response: {} }]);
    c.socket.close();
  }

  it("answers heartbeats, and 'unmatched topic' for topics that were not joined", async () => {
    const c = open(stack);
    await c.ready;
    c.send([null, "1", "phoenix", "heartbeat", {}]);
    c.send(["1", "2", "realtime:nobody-joined", "broadcast", { type: "broadcast", event: "x", payload: {} }]);
    c.send(["3", "3", "elsewhere", "phx_join", {}]);
    const replies = await c.frames.until(3);
    expect(replies).toEqual([
      [null, "1", "phoenix", "phx_reply", { status: "ok", response: {} }],
      ["1", "2", "realtime:nobody-joined", "phx_reply", { status: "error", response: { reason: "unmatched topic" } }],
      ["3", "3", "elsewhere", "phx_reply", { status: "error", response: { reason: "unmatched topic" } }],
    ]);
    c.socket.close();
  });

  it("refuses a handshake without an apikey, with a bad one, or with an unknown serializer version", async () => {
    expect(await handshakeStatus(stack, "vsn=2.0.0")).toEqual({ status: 401, body: { error: "API key is missing" } });
    expect(await handshakeStatus(stack, "apikey=not-a-jwt&vsn=2.0.0")).toEqual({
      status: 401,
      body: { error: "The token provided is not a valid JWT" },
    });
    expect((await handshakeStatus(stack, `apikey=${stack.anonKey}&vsn=9.9.9`)).status).toBe(400);
  });

  it("refuses joins with a bad token or no topic name, with Realtime's reasons", async () => {
    const c = open(stack);
    await c.ready;
    c.send(["1", "1", "realtime:", "phx_join", { config: {} }]);
    c.send(["2", "2", "realtime:room", "phx_join", { config: {}, access_token: "garbage" }]);
    const expired = await stack.keys.sign({ role: "authenticated", sub: "x", exp: Math.floor(Date.now() / 1000) - 30 });
    c.send(["3", "3", "realtime:room", "phx_join", { config: {}, access_token: expired }]);
    const replies = await c.frames.until(3);
    expect(replies.map((r) => (r[4].response as { reason: string }).reason)).toEqual([
      "TopicNameRequired: You must provide a topic name",
      "MalformedJWT: The token provided is not a valid JWT",
      expect.stringMatching(/^InvalidJWTToken: Token has expired (29|30|31|32) seconds ago$/),
    ]);
    c.socket.close();
  });

  it("closes the socket on a malformed frame and keeps serving others", async () => {
    for (const bad of ["this is not json", JSON.stringify({ not: "an array" }), JSON.stringify([1, 2])]) {
      const c = open(stack);
      await c.ready;
      c.socket.send(bad);
      expect((await c.closed).code).toBe(1007);
    }
    const c = open(stack);
    await c.ready;
    c.socket.send(Buffer.from([9, 9, 9]), { binary: true });
    expect((await c.closed).code).toBe(1007);
    await stillServes();
  });

  it("closes the socket on a frame over the size limit (1009)", async () => {
    const c = open(stack);
    await c.ready;
    c.send(["1", "1", "realtime:big", "phx_join", { config: {} }]);
    await c.frames.until(1);
    c.send([
      "1",
      "2",
      "realtime:big",
      "broadcast",
      { type: "broadcast", event: "x", payload: { blob: "x".repeat(100 * 1024) } },
    ]);
    expect((await c.closed).code).toBe(1009);
    await stillServes();
  });

  it("limits channels per connection", async () => {
    const c = open(stack);
    await c.ready;
    for (let i = 1; i <= 4; i++) c.send([String(i), String(i), `realtime:room-${i}`, "phx_join", { config: {} }]);
    const replies = await c.frames.until((f) => f.filter((x) => x[3] === "phx_reply").length === 4);
    const statuses = replies
      .filter((x) => x[3] === "phx_reply")
      .map((r) => [r[2], r[4].status, (r[4].response as { reason?: string }).reason]);
    expect(statuses).toEqual([
      ["realtime:room-1", "ok", undefined],
      ["realtime:room-2", "ok", undefined],
      ["realtime:room-3", "ok", undefined],
      ["realtime:room-4", "error", "ChannelRateLimitReached: Too many channels"],
    ]);
    c.socket.close();
  });

  it("cuts off a client that does not read what it is sent, instead of queueing without bound ", async () => {
    const c = open(stack);
    await c.ready;
    c.send(["1", "1", "realtime:firehose", "phx_join", { config: {} }]);
    await c.frames.until(1);
    // this client stops reading its socket; the server keeps sending 60 KB broadcasts
    (c.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const blob = "x".repeat(60 * 1024);
    let closedCode: number | null = null;
    void c.closed.then((x) => (closedCode = x.code));
    for (let i = 0; i < 400 && closedCode === null; i++) {
      c.send([null, String(i), "phoenix", "heartbeat", {}]); // it still sends, so it isn't dropped for silence
      const res = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
        method: "POST",
        headers: { apikey: stack.anonKey, "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ topic: "firehose", event: "blob", payload: { blob } }] }),
      });
      expect(res.status).toBe(202);
    }
    (c.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    // 1013 when the close frame gets through the backlog; 1006 when the server had to cut the TCP connection
    expect([1013, 1006]).toContain((await c.closed).code);
    await expect.poll(() => stack.realtime.stats().connections, { timeout: 3000 }).toBe(0);
    await stillServes();
  });

  it("drops a client that stops sending heartbeats", async () => {
    const c = open(stack);
    await c.ready;
    const t0 = Date.now();
    await c.closed;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(700);
    await stillServes();
  });
});
