/**
 * Notifications (docs/product.md §10): made by the database from events, once per
 * event per person, for the assignee, the mentioned, and (comments and status
 * changes) the watchers; never for the actor; never about a team one has
 * left. Each person reads and marks only their own; nobody makes or deletes
 * one through the API. All changes go through the REST API with a person's
 * own token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activityTeam,
  comment,
  createTask,
  notificationsOf,
  type ActivityTeam,
  type Teammate,
  statusId,
} from "../support/activity.ts";
import { mentionCandidates } from "../../app/lib/mentions.ts";
import { makePerson } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
let t: ActivityTeam;

beforeAll(async () => {
  stack = await startTestStack();
  t = await activityTeam(stack);
});
afterAll(() => stack?.close());

const who = (rows: { recipient_id: string; kind: string }[]) => {
  const names = new Map(
    [t.owner, t.member, t.other, t.viewer, t.outsider].map((p: Teammate) => [p.id, p.username.replace(/\d+$/, "")]),
  );
  return rows.map((r) => `${names.get(r.recipient_id) ?? r.recipient_id}:${r.kind}`).sort();
};

describe("fan-out", () => {
  it("assigning notifies the new assignee, not the person who assigned", async () => {
    const task = await createTask(t.owner, t.project, { assignee_id: t.member.id });
    expect(who(await notificationsOf(stack, task.id))).toEqual(["mika:assigned"]);
    await t.member.client.from("tasks").update({ assignee_id: t.other.id }).eq("id", task.id);
    expect(who(await notificationsOf(stack, task.id))).toEqual(["mika:assigned", "otto:assigned"]);
    // assigning oneself: nobody
    await t.member.client.from("tasks").update({ assignee_id: t.member.id }).eq("id", task.id);
    expect(who(await notificationsOf(stack, task.id))).toEqual(["mika:assigned", "otto:assigned"]);
  });

  it("a comment notifies the watchers and the assignee, never its author; the mentioned get 'mentioned' once", async () => {
    const task = await createTask(t.owner, t.project, { assignee_id: t.member.id });
    // the assignee stops watching: still notified as the assignee
    await t.member.client.from("task_watchers").delete().eq("task_id", task.id).eq("user_id", t.member.id);
    await stack.db.query("delete from notifications where task_id = $1", [task.id]);
    await comment(t.other, task.id, `@${t.viewer.username} and @${t.owner.username}, have a look`);
    expect(who(await notificationsOf(stack, task.id))).toEqual(["mika:comment", "olive:mentioned", "vera:mentioned"]);
    const rows = await notificationsOf(stack, task.id);
    expect(new Set(rows.map((r) => r.actor_id))).toEqual(new Set([t.other.id]));
  });

  it("a status change notifies watchers and the assignee; a title edit or a move within the column notifies nobody", async () => {
    const task = await createTask(t.owner, t.project, { assignee_id: t.member.id });
    await comment(t.other, task.id, "Watching this");
    await stack.db.query("delete from notifications where task_id = $1", [task.id]);
    await t.owner.client.from("tasks").update({ title: "Renamed", priority: "high" }).eq("id", task.id);
    await t.owner.client.rpc("move_task", {
      task_id: task.id,
      status_id: await statusId(stack, t.project, "Backlog"),
      position: 0,
    });
    expect(await notificationsOf(stack, task.id)).toEqual([]);
    await t.owner.client.rpc("move_task", { task_id: task.id, status_id: await statusId(stack, t.project, "To do") });
    expect(who(await notificationsOf(stack, task.id))).toEqual(["mika:status", "otto:status"]);
  });

  it("a save that assigns and mentions the same person makes one notification (assigned)", async () => {
    const task = await createTask(t.owner, t.project);
    await t.owner.client
      .from("tasks")
      .update({ assignee_id: t.member.id, description: `@${t.member.username} this one is yours` })
      .eq("id", task.id);
    expect(who(await notificationsOf(stack, task.id))).toEqual(["mika:assigned"]);
  });

  it("a description mention notifies once; editing the text again does not notify again", async () => {
    const task = await createTask(t.owner, t.project, { description: `cc @${t.other.username}` });
    await t.owner.client
      .from("tasks")
      .update({ description: `cc @${t.other.username}, and more words` })
      .eq("id", task.id);
    expect(who(await notificationsOf(stack, task.id))).toEqual(["otto:mentioned"]);
  });

  it("the service role's changes notify everyone concerned (there is no actor to leave out)", async () => {
    const task = await createTask(t.owner, t.project);
    await stack.adminClient().from("tasks").update({ assignee_id: t.owner.id }).eq("id", task.id);
    expect(who(await notificationsOf(stack, task.id))).toEqual(["olive:assigned"]);
  });
});

describe("mentions that notify nobody", () => {
  it("someone outside the team, an unknown name, code spans, an address, a longer name: no notification, no error", async () => {
    const task = await createTask(t.owner, t.project);
    const body = [
      `@${t.outsider.username} is not in the team`,
      "@nobody_by_that_name",
      `\`@${t.member.username}\` in code`,
      `\`\`\`\nfenced @${t.member.username}\n\`\`\``,
      `mail ${t.member.username}@example.com`,
      `@${t.member.username}x is someone else`,
    ].join("\n");
    await comment(t.other, task.id, body);
    // the task's creator hears of the comment as a watcher; nobody is mentioned
    expect(who(await notificationsOf(stack, task.id))).toEqual(["olive:comment"]);
  });

  it("200 mentions in one comment: at most one notification per person, and only the first 50 names count", async () => {
    const task = await createTask(t.owner, t.project);
    const filler = Array.from({ length: 60 }, (_, i) => `@ghost_${i}`).join(" ");
    const repeated = Array.from({ length: 140 }, () => `@${t.viewer.username}`).join(" ");
    // the member is the 62nd name: past the cap, so plain text
    await comment(t.other, task.id, `${repeated} ${filler} @${t.member.username}`);
    expect(who(await notificationsOf(stack, task.id))).toEqual(["olive:comment", "vera:mentioned"]);
    const { data } = await t.other.client.rpc("mention_candidates", { body: `${filler} @${t.member.username}` });
    expect(data).toHaveLength(50);
  });
});

describe("the app reads mentions as the database does", () => {
  it("finds the same names in tricky texts", async () => {
    const texts = [
      "@ann @bob,@cyd (@dee) @eve.",
      "`x`@ann and `@bob` and ``` @cyd ``` @dee",
      "```\n@ann\n",
      "a@bob.com @@cyd @dee_ @EVE @fay-x",
      "@ab @abc @abcdefghijklmnopqrstuvwxyz12345 @abcdefghijklmnopqrstuvwxyz1234",
      "é@ann ü @bob\n@cyd",
      Array.from({ length: 70 }, (_, i) => `@n_${i}`).join(" "),
    ];
    for (const body of texts) {
      const { data } = await t.member.client.rpc("mention_candidates", { body });
      expect(data, body).toEqual(mentionCandidates(body));
    }
  });
});

describe("leaving a team", () => {
  it("takes away its notifications and watching, and no new ones come", async () => {
    const leaver = await makePerson(stack, "Lea");
    await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [
      t.team,
      leaver.id,
    ]);
    const task = await createTask(t.owner, t.project, { assignee_id: leaver.id });
    expect((await leaver.client.from("notifications").select("kind")).data).toEqual([{ kind: "assigned" }]);
    expect((await leaver.client.rpc("leave_team", { team_id: t.team })).error).toBeNull();
    expect((await leaver.client.from("notifications").select("kind")).data).toEqual([]);
    expect((await stack.db.query("select 1 from task_watchers where user_id = $1", [leaver.id])).rows).toEqual([]);
    await comment(t.owner, task.id, "Anyone?");
    await t.owner.client.rpc("move_task", { task_id: task.id, status_id: await statusId(stack, t.project, "To do") });
    expect((await stack.db.query("select 1 from notifications where recipient_id = $1", [leaver.id])).rows).toEqual([]);
  });
});

describe("who can see and touch notifications", () => {
  it("each person reads only their own; nobody inserts or deletes one; only their own can be marked read", async () => {
    const task = await createTask(t.owner, t.project, { assignee_id: t.member.id });
    const mine = await t.member.client.from("notifications").select("id, kind, read_at").eq("task_id", task.id);
    expect(mine.data).toEqual([{ id: expect.any(String), kind: "assigned", read_at: null }]);
    const id = mine.data![0].id as string;
    for (const client of [t.owner.client, t.other.client, t.outsider.client, stack.anonClient()]) {
      expect((await client.from("notifications").select("id").eq("id", id)).data ?? []).toEqual([]);
      await client.from("notifications").update({ read_at: new Date().toISOString() }).eq("id", id);
    }
    expect((await stack.db.query("select read_at from notifications where id = $1", [id])).rows).toEqual([
      { read_at: null },
    ]);
    const forged = { recipient_id: t.member.id, team_id: t.team, task_id: task.id, kind: "mentioned" };
    for (const client of [t.owner.client, t.member.client, stack.adminClient()]) {
      expect((await client.from("notifications").insert(forged)).error?.code).toBe("42501");
      expect((await client.from("notifications").delete().eq("id", id)).error?.code).toBe("42501");
    }
    // the recipient may change read_at, and nothing else
    expect((await t.member.client.from("notifications").update({ kind: "status" }).eq("id", id)).error?.code).toBe(
      "42501",
    );
    const read = await t.member.client
      .from("notifications")
      .update({ read_at: new Date().toISOString() })
      .eq("id", id)
      .select("kind");
    expect(read.data).toEqual([{ kind: "assigned" }]);
    expect((await stack.db.query("select count(*)::int as n from notifications where id = $1", [id])).rows).toEqual([
      { n: 1 },
    ]);
  });

  it("the bell's count: unread only, capped at 100", async () => {
    const person = await makePerson(stack, "Bell");
    await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [
      t.team,
      person.id,
    ]);
    const count = async () => (await person.client.rpc("unread_notification_count")).data;
    expect(await count()).toBe(0);
    const task = await createTask(t.owner, t.project, { assignee_id: person.id });
    expect(await count()).toBe(1);
    await person.client.from("notifications").update({ read_at: new Date().toISOString() }).eq("task_id", task.id);
    expect(await count()).toBe(0);
    await stack.db.query(
      `insert into notifications (recipient_id, team_id, task_id, kind)
       select $1, $2, $3, 'comment' from generate_series(1, 130)`,
      [person.id, t.team, task.id],
    );
    expect(await count()).toBe(100);
    expect((await stack.anonClient().rpc("unread_notification_count")).error?.code).toBe("42501");
  });
});

describe("email settings", () => {
  it("are each person's own", async () => {
    const set = await t.member.client
      .from("notification_settings")
      .upsert({ user_id: t.member.id, kind: "comment", email: "daily" })
      .select("kind, email");
    expect(set.data).toEqual([{ kind: "comment", email: "daily" }]);
    expect((await t.owner.client.from("notification_settings").select("kind").eq("user_id", t.member.id)).data).toEqual(
      [],
    );
    const forged = await t.owner.client
      .from("notification_settings")
      .upsert({ user_id: t.member.id, kind: "comment", email: "never" });
    expect(forged.error?.code).toBe("42501");
    const bad = await t.member.client
      .from("notification_settings")
      .upsert({ user_id: t.member.id, kind: "comment", email: "hourly" });
    expect(bad.error?.code).toBe("23514");
  });

  it("decide whether a new notification waits for an email: assigned by default, comments not", async () => {
    const task = await createTask(t.owner, t.project, { assignee_id: t.other.id });
    await comment(t.member, task.id, "Hi");
    const rows = (await notificationsOf(stack, task.id)).filter((r) => r.recipient_id === t.other.id);
    expect(rows.map((r) => [r.kind, r.email])).toEqual([
      ["assigned", "pending"],
      ["comment", "none"],
    ]);
  });
});
