/**
 * Broadcast, presence, private channels and token handling through
 * supabase-js's realtime client against the local stack.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clientFor,
  Inbox,
  makePerson,
  makeTeam,
  sleep,
  subscribed,
  tokenFor,
  type Person,
} from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

type Msg = { type: string; event: string; payload: Record<string, unknown> };

describe("Realtime broadcast, presence and tokens", () => {
  let stack: TestStack;
  let alice: Person, bob: Person, carol: Person;
  let project: string;
  const clients: SupabaseClient[] = [];
  const room = () => `room-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    stack = await startTestStack();
    [alice, bob, carol] = await Promise.all(["alice", "bob", "carol"].map((n) => makePerson(stack, n)));
    ({ project } = await makeTeam(stack, [
      [alice, "owner"],
      [bob, "member"],
    ]));
    clients.push(alice.client, bob.client, carol.client);
    // private channels: only team owners may use the topic "secret-alice" (RLS on realtime.messages, as on hosted)
    await stack.db.exec(`
      create policy "team topics: members read" on realtime.messages for select to authenticated
        using (realtime.topic() = 'secret-alice' and exists (select 1 from public.team_members where user_id = auth.uid() and role = 'owner'));
      create policy "team topics: members write" on realtime.messages for insert to authenticated
        with check (realtime.topic() = 'secret-alice' and exists (select 1 from public.team_members where user_id = auth.uid() and role = 'owner'));
    `);
  });
  afterAll(async () => {
    for (const c of clients) await c.removeAllChannels();
    await stack?.close();
  });

  it("broadcasts to the others on the topic, not to the sender unless `self`", async () => {
    const topic = room();
    const got = { alice: new Inbox<Msg>(), bob: new Inbox<Msg>() };
    const a = alice.client.channel(topic).on("broadcast", { event: "cursor" }, (m) => got.alice.push(m as Msg));
    const b = bob.client.channel(topic).on("broadcast", { event: "cursor" }, (m) => got.bob.push(m as Msg));
    await Promise.all([subscribed(a), subscribed(b)]);
    expect(await a.send({ type: "broadcast", event: "cursor", payload: { x: 1, y: 2 } })).toBe("ok");
    const [m] = await got.bob.until(1);
    expect(m).toMatchObject({ type: "broadcast", event: "cursor", payload: { x: 1, y: 2 } });
    await sleep(200);
    expect(got.alice.items).toEqual([]);

    const selfTopic = room();
    const mine = new Inbox<Msg>();
    const s = alice.client
      .channel(selfTopic, { config: { broadcast: { self: true } } })
      .on("broadcast", { event: "ping" }, (x) => mine.push(x as Msg));
    await subscribed(s);
    await s.send({ type: "broadcast", event: "ping", payload: { n: 1 } });
    expect((await mine.until(1))[0].payload).toEqual({ n: 1 });
  });

  it("acknowledges a broadcast when `ack` is set, and refuses an oversized one", async () => {
    const c = alice.client.channel(room(), { config: { broadcast: { ack: true } } });
    await subscribed(c);
    expect(await c.send({ type: "broadcast", event: "note", payload: { text: "hi" } })).toBe("ok");
    expect(await c.send({ type: "broadcast", event: "note", payload: { text: "x".repeat(300 * 1024) } })).toBe("error");
  });

  it("accepts POST /realtime/v1/api/broadcast and httpSend()", async () => {
    const topic = room();
    const got = new Inbox<Msg>();
    const c = bob.client.channel(topic).on("broadcast", { event: "*" }, (m) => got.push(m as Msg));
    await subscribed(c);
    const res = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ topic, event: "from-rest", payload: { ok: true } }] }),
    });
    expect(res.status).toBe(202);
    const sender = alice.client.channel(topic);
    await expect(sender.httpSend("from-http-send", { n: 2 })).resolves.toEqual({ success: true });
    await got.until(2);
    expect(got.items.map((m) => [m.event, m.payload])).toEqual([
      ["from-rest", { ok: true }],
      ["from-http-send", { n: 2 }],
    ]);
    const bad = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ topic }] }),
    });
    expect(bad.status).toBe(422);
  });

  it("syncs presence and sends join and leave diffs", async () => {
    const topic = room();
    const joins = new Inbox<{ key: string }>();
    const leaves = new Inbox<{ key: string }>();
    const a = alice.client
      .channel(topic, { config: { presence: { key: alice.id } } })
      .on("presence", { event: "join" }, (p) => joins.push(p as { key: string }))
      .on("presence", { event: "leave" }, (p) => leaves.push(p as { key: string }));
    await subscribed(a);
    await a.track({ name: "Alice" });
    const b = bob.client
      .channel(topic, { config: { presence: { key: bob.id } } })
      .on("presence", { event: "sync" }, () => {});
    await subscribed(b);
    expect(await b.track({ name: "Bob" })).toBe("ok");
    await joins.until((j) => j.some((x) => x.key === bob.id));
    await sleep(100);
    const state = a.presenceState<{ name: string }>();
    expect(Object.keys(state).sort()).toEqual([alice.id, bob.id].sort());
    expect(state[bob.id][0]).toMatchObject({ name: "Bob" });
    expect(Object.keys(b.presenceState()).sort()).toEqual([alice.id, bob.id].sort());

    await b.untrack();
    await leaves.until((l) => l.some((x) => x.key === bob.id));
    expect(Object.keys(a.presenceState())).toEqual([alice.id]);
    await b.track({ name: "Bob again" });
    await joins.until((j) => j.filter((x) => x.key === bob.id).length === 2);
    await bob.client.removeChannel(b); // leaving the channel drops its presence
    await leaves.until((l) => l.filter((x) => x.key === bob.id).length === 2);
    expect(Object.keys(a.presenceState())).toEqual([alice.id]);
  });

  it("authorizes private channels with RLS on realtime.messages (broadcast and presence)", async () => {
    const topic = "secret-alice";
    const got = new Inbox<Msg>();
    const a = alice.client
      .channel(topic, { config: { private: true } })
      .on("broadcast", { event: "*" }, (m) => got.push(m as Msg));
    await subscribed(a);
    // carol is not allowed by the policy: the join is refused with Realtime's reason
    const refused = carol.client.channel(topic, { config: { private: true } });
    await expect(subscribed(refused)).rejects.toThrow(
      `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
    );
    await carol.client.removeChannel(refused);
    // anyone may use the public channel of the same name, but it is another room
    const pub = carol.client.channel(topic);
    await subscribed(pub);
    await pub.send({ type: "broadcast", event: "leak", payload: {} });
    const rest = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: "POST",
      headers: { apikey: stack.anonKey, authorization: `Bearer ${carol.token}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ topic, event: "leak-rest", payload: {}, private: true }] }),
    });
    expect(rest.status).toBe(202); // accepted, but not delivered: carol may not write there
    const self = alice.client.channel(`${topic}`, { config: { private: true } });
    expect(self).toBe(a);
    const other = clientFor(stack, alice.token);
    clients.push(other);
    const a2 = other.channel(topic, { config: { private: true } });
    await subscribed(a2);
    await a2.send({ type: "broadcast", event: "allowed", payload: { from: "alice's other tab" } });
    expect(await a2.track({ tab: 2 })).toBe("ok"); // presence write allowed by the insert policy
    const [m] = await got.until(1);
    expect(m.event).toBe("allowed");
    await sleep(200);
    expect(got.items.map((x) => x.event)).toEqual(["allowed"]);
  });

  it("task presence channels (task:<id>) are open to those who can read the task only (migration's RLS on realtime.messages)", async () => {
    const { rows } = await stack.db.query<{ id: string }>(
      "insert into tasks (project_id, title) values ($1, 'Viewed') returning id",
      [project],
    );
    const topic = `task:${rows[0].id}`;
    const viewers = new Inbox<string[]>();
    const a = alice.client.channel(topic, { config: { private: true, presence: { key: alice.id } } });
    a.on("presence", { event: "sync" }, () => viewers.push(Object.keys(a.presenceState())));
    await subscribed(a);
    expect(await a.track({ name: "Alice" })).toBe("ok");
    const b = bob.client
      .channel(topic, { config: { private: true, presence: { key: bob.id } } })
      .on("presence", { event: "sync" }, () => {});
    await subscribed(b);
    expect(await b.track({ name: "Bob" })).toBe("ok");
    await viewers.until((v) => v.some((keys) => keys.length === 2));
    // carol is in no team: she may neither join nor see who is there
    await expect(
      subscribed(carol.client.channel(topic, { config: { private: true, presence: { key: carol.id } } })),
    ).rejects.toThrow("Unauthorized: You do not have permissions to read from this Channel topic");
    await expect(subscribed(carol.client.channel("task:not-a-uuid", { config: { private: true } }))).rejects.toThrow(
      "Unauthorized",
    );
  });

  it("stops delivery when the token expires (Realtime's error, channel closed) and a refreshed token resumes it", async () => {
    const dana = await makePerson(stack, "dana", { expiresIn: 2 });
    clients.push(dana.client);
    await makeTeam(stack, [[dana, "owner"]]);
    const system = new Inbox<{ status: string; message: string; extension: string }>();
    const statuses = new Inbox<string>();
    const ch = dana.client
      .channel(room())
      .on("postgres_changes", { event: "*", schema: "public", table: "tasks" }, () => {})
      .on("system", {}, (p) => system.push(p as never));
    ch.subscribe((s) => statuses.push(s));
    await statuses.until((s) => s.includes("SUBSCRIBED"));
    const [expired] = await system
      .until((s) => s.some((x) => x.status === "error"), 5000)
      .then((s) => s.filter((x) => x.status === "error"));
    expect(expired).toMatchObject({ extension: "system", status: "error" });
    expect(expired.message).toMatch(/^Token has expired \d+ seconds ago$/);
    await statuses.until((s) => s.includes("CLOSED"));

    // a fresh token, handed over with setAuth, lets the client subscribe and receive again
    const fresh = await tokenFor(stack, dana.id, dana.email, 3600);
    await dana.client.realtime.setAuth(fresh);
    const got = new Inbox<unknown>();
    const again = dana.client
      .channel(room())
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "tasks" }, (p) => got.push(p));
    await subscribed(again);
    const { project: danaProject } = await makeTeam(stack, [[dana, "owner"]]);
    await stack.db.query("insert into tasks (project_id, title) values ($1, 'after refresh')", [danaProject]);
    await got.until(1);
  });

  it("keeps delivering when the client refreshes its token before expiry (access_token)", async () => {
    const erin = await makePerson(stack, "erin", { expiresIn: 2 });
    clients.push(erin.client);
    const { project: erinProject } = await makeTeam(stack, [[erin, "owner"]]);
    const got = new Inbox<unknown>();
    const system = new Inbox<{ status: string }>();
    const ch = erin.client
      .channel(room())
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "tasks" }, (p) => got.push(p))
      .on("system", {}, (p) => system.push(p as never));
    await subscribed(ch);
    await erin.client.realtime.setAuth(await tokenFor(stack, erin.id, erin.email, 3600));
    await sleep(2600);
    await stack.db.query("insert into tasks (project_id, title) values ($1, 'still live')", [erinProject]);
    await got.until(1);
    expect(system.items.filter((s) => s.status === "error")).toEqual([]);
  });

  it("an unrelated project's changes reach only that project's people", async () => {
    const got = new Inbox<unknown>();
    const ch = carol.client
      .channel(room())
      .on("postgres_changes", { event: "*", schema: "public", table: "tasks" }, (p) => got.push(p));
    await subscribed(ch);
    await stack.db.query("insert into tasks (project_id, title) values ($1, 'not for carol')", [project]);
    await sleep(400);
    expect(got.items).toEqual([]);
  });
});
