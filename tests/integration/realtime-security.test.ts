/**
 * Realtime's bounds per client and who presence says is there (issue 22: M6,
 * L5, L6, L7). Two clients are told apart by their address: the second
 * connects from 127.0.0.2, which is loopback too.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Inbox, makePerson, makeTeam, sleep, subscribed, type Person } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

type Reply = [string | null, string | null, string, string, Record<string, unknown>];

const OTHER_CLIENT = "127.0.0.2";

describe("Realtime per-client bounds and presence identity", () => {
  let stack: TestStack;
  let alice: Person, bob: Person;
  let team: string, project: string;
  const clients: SupabaseClient[] = [];

  beforeAll(async () => {
    stack = await startTestStack({
      realtime: {
        maxJoinsPerSecond: 5,
        maxJoinsPerSecondPerClient: 4,
        maxConnectionsPerClient: 4,
        maxPresencesPerClient: 2,
        accessRecheckMs: 300,
      },
    });
    [alice, bob] = await Promise.all(["alice", "bob"].map((n) => makePerson(stack, n)));
    ({ team, project } = await makeTeam(stack, [
      [alice, "owner"],
      [bob, "member"],
    ]));
    clients.push(alice.client, bob.client);
  });
  afterAll(async () => {
    for (const c of clients) await c.removeAllChannels();
    await stack?.close();
  });

  function open(localAddress?: string) {
    const url = `${stack.url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${stack.anonKey}&vsn=2.0.0`;
    const socket = new WebSocket(url, localAddress ? { localAddress } : {});
    const frames = new Inbox<Reply>();
    socket.on("message", (data, binary) => {
      if (!binary) frames.push(JSON.parse(data.toString()) as Reply);
    });
    const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
    const ready = new Promise<number>((resolve) => {
      socket.once("open", () => resolve(101));
      socket.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      socket.on("error", () => {});
    });
    const send = (f: unknown[]) => socket.send(JSON.stringify(f));
    return { socket, frames, closed, ready, send };
  }

  const joinReplies = (frames: Reply[]) => frames.filter((f) => f[3] === "phx_reply");
  const reason = (f: Reply) => (f[4].response as { reason?: string }).reason;

  it("refuses a socket's join flood with hosted's reason and closes that socket; others keep joining", async () => {
    const flood = open();
    expect(await flood.ready).toBe(101);
    for (let i = 1; i <= 200; i++) flood.send([String(i), String(i), `realtime:flood-${i % 3}`, "phx_join", {}]);
    expect(await flood.closed).toBe(1008);
    const replies = joinReplies(flood.frames.items);
    // the burst the socket's bucket holds (5, and what refilled meanwhile at 5 a second) was served,
    // the next join refused, nothing of the 200 after it
    expect(replies.length).toBeLessThan(50);
    expect(reason(replies[replies.length - 1])).toBe("ClientJoinRateLimitReached: Too many joins per second");

    const other = open(OTHER_CLIENT);
    expect(await other.ready).toBe(101);
    other.send(["1", "1", "realtime:calm", "phx_join", {}]);
    const [ok] = await other.frames.until(1);
    expect(ok[4].status).toBe("ok");
    other.socket.close();
  });

  it("counts joins per client over all its sockets", async () => {
    await sleep(1200); // the first test's client bucket refills
    const sockets = [open(), open(), open()];
    for (const s of sockets) expect(await s.ready).toBe(101);
    // four joins a socket (under the socket's 5), twelve in all: over the client's 4 a second
    for (const [n, s] of sockets.entries())
      for (let i = 1; i <= 4; i++) s.send([String(i), String(i), `realtime:spread-${n}-${i}`, "phx_join", {}]);
    const outcomes = await Promise.all(
      sockets.map((s) =>
        Promise.race([s.closed, s.frames.until((f) => joinReplies(f).length === 4, 5000).then(() => "served")]),
      ),
    );
    const replies = sockets.flatMap((s) => joinReplies(s.frames.items));
    expect(replies.filter((r) => r[4].status === "ok").length).toBeLessThan(12);
    expect(replies.filter((r) => r[4].status === "error").map(reason)).toContain(
      "ClientJoinRateLimitReached: Too many joins per second",
    );
    expect(outcomes).toContain(1008);
    for (const s of sockets) s.socket.close();
  });

  it("bounds connections per client, so one client cannot lock the others out", async () => {
    await sleep(1200);
    const mine = [open(), open(), open(), open()];
    expect(await Promise.all(mine.map((s) => s.ready))).toEqual([101, 101, 101, 101]);
    const fifth = open();
    expect(await fifth.ready).toBe(429);
    const other = open(OTHER_CLIENT);
    expect(await other.ready).toBe(101);
    for (const s of [...mine, other]) s.socket.close();
    await Promise.all([...mine, other].map((s) => s.closed));
    // the client's sockets are given back when they close
    const again = open();
    expect(await again.ready).toBe(101);
    again.socket.close();
  });

  it("bounds the presences one client tracks", async () => {
    await sleep(1200);
    const s = open();
    expect(await s.ready).toBe(101);
    for (let i = 1; i <= 3; i++) s.send([String(i), String(i), `realtime:present-${i}`, "phx_join", {}]);
    await s.frames.until(3);
    for (let i = 1; i <= 3; i++)
      s.send([
        String(i),
        `t${i}`,
        `realtime:present-${i}`,
        "presence",
        { type: "presence", event: "track", payload: {} },
      ]);
    const replies = await s.frames.until((f) => f.filter((x) => String(x[1]).startsWith("t")).length === 3);
    const tracks = replies.filter((x) => String(x[1]).startsWith("t")).map((x) => x[4].status);
    expect(tracks).toEqual(["ok", "ok", "error"]);
    s.socket.close();
  });

  it("keys a signed-in person's presence by their user id, whatever key the client asks for", async () => {
    await sleep(1200); // the client's join bucket (4) refills after the tests above
    const topic = `who-${Math.random().toString(36).slice(2)}`;
    const a = alice.client.channel(topic, { config: { presence: { key: alice.id } } });
    const seen = new Inbox<string[]>();
    a.on("presence", { event: "sync" }, () => seen.push(Object.keys(a.presenceState())));
    await subscribed(a);
    expect(await a.track({ name: "Alice" })).toBe("ok");
    // bob asks to appear as alice
    const b = bob.client.channel(topic, { config: { presence: { key: alice.id } } });
    await subscribed(b);
    expect(await b.track({ name: "Alice" })).toBe("ok");
    const states = await seen.until((s) => s.some((keys) => keys.length === 2));
    expect(states[states.length - 1].sort()).toEqual([alice.id, bob.id].sort());
    await alice.client.removeChannel(a);
    await bob.client.removeChannel(b);
  });

  it("stops a removed member's presence on the team's task channel without a token refresh", async () => {
    await sleep(1200);
    const { rows } = await stack.db.query<{ id: string }>(
      "insert into tasks (project_id, title) values ($1, 'Watched') returning id",
      [project],
    );
    const topic = `task:${rows[0].id}`;
    const a = alice.client.channel(topic, { config: { private: true, presence: { key: alice.id } } });
    const seen = new Inbox<string[]>();
    a.on("presence", { event: "sync" }, () => seen.push(Object.keys(a.presenceState())));
    await subscribed(a);
    expect(await a.track({ name: "Alice" })).toBe("ok");
    const bobSystem = new Inbox<{ status: string; message: string }>();
    const b = bob.client
      .channel(topic, { config: { private: true, presence: { key: bob.id } } })
      .on("system", {}, (m) => bobSystem.push(m as { status: string; message: string }));
    const bobSeen = new Inbox<string[]>();
    b.on("presence", { event: "sync" }, () => bobSeen.push(Object.keys(b.presenceState())));
    await subscribed(b);
    expect(await b.track({ name: "Bob" })).toBe("ok");
    await seen.until((s) => s.some((keys) => keys.length === 2));

    await stack.db.query("delete from team_members where team_id = $1 and user_id = $2", [team, bob.id]);
    const [shut] = await bobSystem.until((m) => m.some((x) => x.status === "error"), 3000);
    expect(shut).toBeDefined();
    expect(bobSystem.items.find((x) => x.status === "error")?.message).toBe(
      `You no longer have permission to read from this Channel topic: ${topic}`,
    );
    // alice no longer sees him, and he hears nothing more of the room
    await seen.until((s) => s.length > 0 && s[s.length - 1].length === 1 && s[s.length - 1][0] === alice.id);
    const heard = bobSeen.items.length;
    await a.untrack();
    await a.track({ name: "Alice, again" });
    await sleep(300);
    expect(bobSeen.items.length).toBe(heard);
  });
});
