/**
 * Realtime follows who sees a project (issue 41; docs/product.md §20): postgres_changes are checked
 * against the subscriber's row-level security at each change (as hosted Realtime's apply_rls),
 * and a private channel's access is checked again while it is open (accessRecheckMs here; hosted
 * re-checks its policies on the channel too), so a project turning private, or a person removed
 * from it, stops what they hear at once — without a token refresh or a reconnect.
 */
import type { RealtimeChannel, SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Inbox, makePerson, makeTeam, sleep, subscribed, type Person } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

type Change = { eventType: string; new: { id?: string; title?: string } };

describe("Realtime and private projects", () => {
  let stack: TestStack;
  let owner: Person, inside: Person, outside: Person;
  let project: string;
  const clients: SupabaseClient[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ realtime: { accessRecheckMs: 300 } });
    [owner, inside, outside] = await Promise.all(["owner", "inside", "outside"].map((n) => makePerson(stack, n)));
    ({ project } = await makeTeam(stack, [
      [owner, "owner"],
      [inside, "member"],
      [outside, "member"],
    ]));
    await stack.db.query("insert into project_members (project_id, user_id) values ($1, $2)", [project, inside.id]);
    clients.push(owner.client, inside.client, outside.client);
  });
  afterAll(async () => {
    for (const c of clients) await c.removeAllChannels();
    await stack?.close();
  });

  function listen(person: Person) {
    const inbox = new Inbox<Change>();
    const channel: RealtimeChannel = person.client
      .channel(`tasks-${Math.random().toString(36).slice(2)}`)
      .on(
        "postgres_changes",
        { schema: "public", table: "tasks", event: "INSERT", filter: `project_id=eq.${project}` } as never,
        (p: Change) => inbox.push(p),
      );
    return { inbox, ready: subscribed(channel) };
  }

  const addTask = async (title: string) =>
    (
      await stack.db.query<{ id: string }>("insert into tasks (project_id, title) values ($1, $2) returning id", [
        project,
        title,
      ])
    ).rows[0].id;

  it("a board's live changes stop for those not chosen once the project turns private", async () => {
    const mine = listen(inside);
    const theirs = listen(outside);
    await Promise.all([mine.ready, theirs.ready]);
    await addTask("Before");
    await mine.inbox.until(1);
    await theirs.inbox.until(1);

    await stack.db.query("update projects set visibility = 'private' where id = $1", [project]);
    await addTask("After: salaries");
    await mine.inbox.until((items) => items.some((c) => c.new.title === "After: salaries"));
    await sleep(300); // the same change, already delivered to the member inside
    expect(theirs.inbox.items.map((c) => c.new.title)).toEqual(["Before"]);

    // the person removed from the project hears nothing more either; added back, they do
    await stack.db.query("delete from project_members where project_id = $1 and user_id = $2", [project, inside.id]);
    const ownerSees = listen(owner);
    await ownerSees.ready;
    await addTask("While removed");
    await ownerSees.inbox.until(1);
    await sleep(300);
    expect(mine.inbox.items.map((c) => c.new.title)).not.toContain("While removed");
    await stack.db.query("insert into project_members (project_id, user_id) values ($1, $2)", [project, inside.id]);
    await addTask("Back again");
    await mine.inbox.until((items) => items.some((c) => c.new.title === "Back again"));
    await stack.db.query("update projects set visibility = 'team' where id = $1", [project]);
  });

  it("an open task's presence channel closes for someone the project no longer shows to", async () => {
    const task = await addTask("Watched live");
    const topic = `task:${task}`;
    const system = new Inbox<{ status: string; message: string }>();
    const channel = outside.client
      .channel(topic, { config: { private: true, presence: { key: outside.id } } })
      .on("system", {}, (m) => system.push(m as { status: string; message: string }));
    await subscribed(channel);
    expect(await channel.track({ name: "Outside" })).toBe("ok");

    await stack.db.query("update projects set visibility = 'private' where id = $1", [project]);
    await system.until((m) => m.some((x) => x.status === "error"), 3000);
    expect(system.items.find((x) => x.status === "error")?.message).toBe(
      `You no longer have permission to read from this Channel topic: ${topic}`,
    );
    // and joining again is refused
    const again = outside.client.channel(topic, { config: { private: true } });
    await expect(subscribed(again, 3000)).rejects.toThrow();
  });
});
