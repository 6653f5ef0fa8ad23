/**
 * postgres_changes through supabase-js's realtime client against the local
 * stack: event kinds, filters, the payload realtime-js hands to callbacks, and
 * row-level security per subscriber (a viewer, a member, a non-member and
 * anon subscribing to one table get exactly what they may read).
 */
import type { RealtimePostgresChangesPayload, SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, Inbox, makePerson, makeTeam, sleep, subscribed, type Person } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>;

describe("Realtime postgres_changes", () => {
  let stack: TestStack;
  let owner: Person, member: Person, viewer: Person, outsider: Person;
  let anon: SupabaseClient;
  let project: string;
  let team: string;
  const clients: SupabaseClient[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    [owner, member, viewer, outsider] = await Promise.all(
      ["owner", "member", "viewer", "outsider"].map((n) => makePerson(stack, n)),
    );
    ({ project, team } = await makeTeam(stack, [
      [owner, "owner"],
      [member, "member"],
      [viewer, "viewer"],
    ]));
    anon = clientFor(stack, null);
    clients.push(owner.client, member.client, viewer.client, outsider.client, anon);
  });
  afterAll(async () => {
    for (const c of clients) await c.removeAllChannels();
    await stack?.close();
  });

  function listen(
    client: SupabaseClient,
    name: string,
    params: { event: "*" | "INSERT" | "UPDATE" | "DELETE"; table?: string; filter?: string },
  ) {
    const inbox = new Inbox<Change>();
    const channel = client
      .channel(`${name}-${Math.random().toString(36).slice(2)}`)
      .on(
        "postgres_changes",
        { schema: "public", table: params.table ?? "tasks", event: params.event, filter: params.filter } as never,
        (p: Change) => inbox.push(p),
      );
    return { inbox, ready: subscribed(channel), channel };
  }

  async function addTask(as: Person, title: string, extra: Record<string, unknown> = {}) {
    const { data, error } = await as.client
      .from("tasks")
      .insert({ project_id: project, title, ...extra })
      .select()
      .single();
    expect(error).toBeNull();
    return data as { id: string; number: number };
  }

  it("delivers INSERT, UPDATE and DELETE made through REST with the payload shape realtime-js expects", async () => {
    const { inbox, ready } = listen(owner.client, "all", { event: "*" });
    await ready;
    const task = await addTask(member, "Write the release notes", { priority: "high" });
    await inbox.until(1);
    await member.client.from("tasks").update({ title: "Write the 2.0 release notes" }).eq("id", task.id);
    await inbox.until(2);
    await owner.client.from("tasks").delete().eq("id", task.id);
    const got = await inbox.until(
      (items) =>
        items.filter((i) => (i.new as { id?: string }).id === task.id || (i.old as { id?: string }).id === task.id)
          .length >= 3,
    );
    const mine = got.filter(
      (i) => (i.new as { id?: string }).id === task.id || (i.old as { id?: string }).id === task.id,
    );
    expect(mine.map((i) => i.eventType)).toEqual(["INSERT", "UPDATE", "DELETE"]);
    const [insert, update, del] = mine;
    expect(insert).toMatchObject({ schema: "public", table: "tasks", eventType: "INSERT", errors: null, old: {} });
    expect(insert.new).toMatchObject({
      id: task.id,
      title: "Write the release notes",
      project_id: project,
      priority: "high",
      number: task.number,
    });
    expect(insert.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(update.new).toMatchObject({ id: task.id, title: "Write the 2.0 release notes" });
    // the old record carries the primary key (default replica identity)
    expect(update.old).toEqual({ id: task.id });
    expect(del.new).toEqual({});
    expect(del.old).toEqual({ id: task.id });
  });

  it("sees changes made directly in the database (any client)", async () => {
    const { inbox, ready } = listen(member.client, "sql", { event: "INSERT" });
    await ready;
    await stack.db.query("insert into tasks (project_id, title) values ($1, 'Inserted with SQL')", [project]);
    const [first] = await inbox.until(1);
    expect(first.new).toMatchObject({ title: "Inserted with SQL" });
  });

  it("sends each subscriber only the event kinds it asked for", async () => {
    const inserts = listen(member.client, "ins", { event: "INSERT" });
    const updates = listen(member.client, "upd", { event: "UPDATE" });
    const deletes = listen(member.client, "del", { event: "DELETE" });
    await Promise.all([inserts.ready, updates.ready, deletes.ready]);
    // each step waits for the previous change to arrive: like hosted Realtime, the stack checks
    // RLS against the table when it sends a change, so a row deleted meanwhile is not seen
    const task = await addTask(member, "Kinds");
    await inserts.inbox.until(1);
    await member.client.from("tasks").update({ priority: "high" }).eq("id", task.id);
    await updates.inbox.until(1);
    await owner.client.from("tasks").delete().eq("id", task.id);
    await deletes.inbox.until((i) => i.some((c) => (c.old as { id?: string }).id === task.id));
    await sleep(200);
    const ids = (inbox: Inbox<Change>) =>
      inbox.items.map((c) => `${c.eventType}:${(c.new as { id?: string }).id ?? (c.old as { id?: string }).id}`);
    expect(ids(inserts.inbox)).toEqual([`INSERT:${task.id}`]);
    expect(ids(updates.inbox)).toEqual([`UPDATE:${task.id}`]);
    expect(ids(deletes.inbox)).toEqual([`DELETE:${task.id}`]);
  });

  it("applies eq, neq, lt, lte, gt, gte and in filters", async () => {
    const a = await addTask(member, "Filter A", { priority: "low" });
    const b = await addTask(member, "Filter B", { priority: "high" });
    const c = await addTask(member, "Filter C", { priority: "urgent" });
    // task numbers count up per project: a < b < c (compared as numbers, 9 < 10)
    const n = b.number;
    const cases: [string, string[]][] = [
      [`id=eq.${b.id}`, [b.id]],
      [`number=neq.${n}`, [a.id, c.id]],
      [`number=lt.${n}`, [a.id]],
      [`number=lte.${n}`, [a.id, b.id]],
      [`number=gt.${n}`, [c.id]],
      [`number=gte.${n}`, [b.id, c.id]],
      [`priority=in.(low,urgent)`, [a.id, c.id]],
    ];
    const listeners = cases.map(([filter]) => listen(member.client, "flt", { event: "UPDATE", filter }));
    await Promise.all(listeners.map((l) => l.ready));
    for (const t of [a, b, c]) await member.client.from("tasks").update({ description: "touched" }).eq("id", t.id);
    for (const [i, [filter, expected]] of cases.entries()) {
      await listeners[i].inbox.until(expected.length);
      await sleep(100);
      const got = listeners[i].inbox.items
        .map((x) => (x.new as { id: string }).id)
        .filter((id) => [a.id, b.id, c.id].includes(id));
      expect(got, filter).toEqual(expected);
    }
  });

  it("checks each change against each subscriber's own RLS: viewer and member see it, a non-member and anon do not", async () => {
    const who = { owner, member, viewer, outsider };
    const listeners = Object.fromEntries(
      Object.entries(who).map(([name, p]) => [name, listen(p.client, `rls-${name}`, { event: "*" })]),
    ) as Record<keyof typeof who | "anon", ReturnType<typeof listen>>;
    listeners.anon = listen(anon, "rls-anon", { event: "*" });
    await Promise.all(Object.values(listeners).map((l) => l.ready));
    const task = await addTask(member, "Secret plans");
    await member.client.from("tasks").update({ title: "Secret plans v2" }).eq("id", task.id);
    for (const name of ["owner", "member", "viewer"] as const) {
      await listeners[name].inbox.until((i) => i.filter((c) => (c.new as { id?: string }).id === task.id).length === 2);
    }
    await sleep(300);
    expect(listeners.outsider.inbox.items).toEqual([]);
    expect(listeners.anon.inbox.items).toEqual([]);
  });

  it("sends a DELETE (primary key only) to subscribers whose role can select the table, not to anon", async () => {
    const task = await addTask(member, "To be deleted");
    const viewerL = listen(viewer.client, "del-viewer", { event: "DELETE" });
    const anonL = listen(anon, "del-anon", { event: "DELETE" });
    await Promise.all([viewerL.ready, anonL.ready]);
    await owner.client.from("tasks").delete().eq("id", task.id);
    const [got] = await viewerL.inbox.until(1);
    expect(got.old).toEqual({ id: task.id });
    await sleep(300);
    expect(anonL.inbox.items).toEqual([]);
  });

  it("speaks the JSON protocol (vsn 1.0.0) too", async () => {
    const v1 = clientFor(stack, member.token, { vsn: "1.0.0" });
    clients.push(v1);
    const { inbox, ready } = listen(v1, "v1", { event: "INSERT" });
    await ready;
    const task = await addTask(member, "Over vsn 1");
    const [got] = await inbox.until(1);
    expect(got.new).toMatchObject({ id: task.id, title: "Over vsn 1" });
  });

  it("refuses a table outside the publication and a filter on a missing column with Realtime's system error", async () => {
    const errors = new Inbox<{ extension: string; status: string; message: string }>();
    const channel = member.client
      .channel("not-published")
      .on("postgres_changes", { event: "*", schema: "public", table: "team_members" }, () => {})
      .on("system", {}, (p: { extension: string; status: string; message: string }) => errors.push(p));
    await subscribed(channel).catch(() => {});
    const [error] = await errors.until(1);
    expect(error).toMatchObject({ extension: "postgres_changes", status: "error" });
    expect(error.message).toContain("Unable to subscribe to changes with given parameters");

    const errors2 = new Inbox<{ status: string; message: string }>();
    const c2 = member.client
      .channel("bad-column")
      .on("postgres_changes", { event: "*", schema: "public", table: "tasks", filter: "nope=eq.1" }, () => {})
      .on("system", {}, (p: { status: string; message: string }) => errors2.push(p));
    await subscribed(c2).catch(() => {});
    const [e2] = await errors2.until(1);
    expect(e2.status).toBe("error");
    expect(e2.message).toContain("invalid column for filter nope");
  });

  it("a task's checklist, labels and relations reach its project's subscribers as a change of the task (issue 24)", async () => {
    const board = listen(viewer.client, "board", { event: "UPDATE", filter: `project_id=eq.${project}` });
    await board.ready;
    const task = await addTask(member, "Break it down");
    const other = await addTask(member, "Related work");
    const changesOf = (id: string) => (items: Change[]) => items.filter((i) => (i.new as { id?: string }).id === id);
    const { data: item } = await member.client
      .from("checklist_items")
      .insert({ task_id: task.id, title: "First step" } as never)
      .select("id")
      .single<{ id: string }>();
    await board.inbox.until((items) => changesOf(task.id)(items).length >= 1);
    await member.client.from("checklist_items").update({ done: true }).eq("id", item!.id);
    await board.inbox.until((items) => changesOf(task.id)(items).length >= 2);
    // a delete, whose old record Realtime can't filter by project, still reaches the board through the task
    await member.client.from("checklist_items").delete().eq("id", item!.id);
    await board.inbox.until((items) => changesOf(task.id)(items).length >= 3);
    await member.client.rpc("set_task_labels", { task_id: task.id, names: ["live"] });
    await board.inbox.until((items) => changesOf(task.id)(items).length >= 4);
    await member.client
      .from("task_relations")
      .insert({ from_task_id: other.id, to_task_id: task.id, kind: "blocks" } as never);
    await board.inbox.until((items) => changesOf(task.id)(items).length >= 5 && changesOf(other.id)(items).length >= 1);
  });

  it("a project's statuses and its team's labels reach the board's subscribers, removals included", async () => {
    const statuses = listen(viewer.client, "statuses", {
      event: "*",
      table: "project_statuses",
      filter: `project_id=eq.${project}`,
    });
    const labels = listen(viewer.client, "labels", { event: "*", table: "labels", filter: `team_id=eq.${team}` });
    await Promise.all([statuses.ready, labels.ready]);
    const { data: added, error } = await owner.client
      .from("project_statuses")
      .insert({ project_id: project, name: "Review", category: "started", color: "purple" } as never)
      .select("id")
      .single<{ id: string }>();
    expect(error).toBeNull();
    await statuses.inbox.until((items) => items.some((i) => i.eventType === "INSERT"));
    const before = statuses.inbox.items.length;
    // the last status removed: no neighbour moves, the renumbering still writes every remaining one
    await owner.client.rpc("remove_status", { status_id: added!.id });
    await statuses.inbox.until((items) => items.length > before);
    await owner.client.from("labels").insert({ team_id: team, name: "Fresh", color: "green" } as never);
    await labels.inbox.until(1);
  });
});
