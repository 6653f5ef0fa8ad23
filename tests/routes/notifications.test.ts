/**
 * The pages of docs/product.md §10, called as Remix calls them with real requests
 * against a real stack: the header's unread count, /notifications (all /
 * unread, opening one, mark all read), watching, the timeline's paging,
 * /account/notifications, the unsubscribe link and /teams/:team/activity.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { call, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

let stack: TestStack;
let team: RouteTeam;
let root: typeof import("~/root");
let list: typeof import("~/routes/notifications._index");
let open: typeof import("~/routes/notifications.$id");
let count: typeof import("~/routes/notifications.count");
let settings: typeof import("~/routes/account.notifications");
let unsubscribe: typeof import("~/routes/unsubscribe.$token");
let activity: typeof import("~/routes/teams.$team.activity");
let task: typeof import("~/routes/teams.$team.projects.$key.tasks.$number");
let watching: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.watching");
let comments: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.comments");

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  root = await import("~/root");
  list = await import("~/routes/notifications._index");
  open = await import("~/routes/notifications.$id");
  count = await import("~/routes/notifications.count");
  settings = await import("~/routes/account.notifications");
  unsubscribe = await import("~/routes/unsubscribe.$token");
  activity = await import("~/routes/teams.$team.activity");
  task = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  watching = await import("~/routes/teams.$team.projects.$key.tasks.$number.watching");
  comments = await import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
});
afterAll(() => stack?.close());

const taskUrl = (n: number, extra = "") => `/teams/${team.slug}/projects/WEB/tasks/${n}${extra}`;
const taskParams = (n: number) => ({ team: team.slug, key: "WEB", number: String(n) });
type Listed = { notifications: Array<{ id: string; kind: string; read_at: string | null }>; next: string | null };

async function assignToMember(n: number) {
  const { error } = await stack
    .adminClient()
    .from("tasks")
    .update({ assignee_id: team.member.id })
    .eq("id", team.taskIds[n - 1]);
  if (error) throw error;
}

describe("the header's count and /notifications", () => {
  it("counts unread in the root loader, lists them, opens one (read, to its task) and marks all read", async () => {
    const unread = async () =>
      (
        (await call(root.loader, { url: "/teams", user: team.member, params: {} })).data as {
          unread: number;
        }
      ).unread;
    expect(await unread()).toBe(0);
    // the owner comments on a task assigned to the member; the member watches the other one
    await assignToMember(1);
    await call(comments.action, {
      url: taskUrl(1, "/comments"),
      user: team.owner,
      params: taskParams(1),
      form: { intent: "comment", body: `@${await username(team.admin.id)} and the member, have a look` },
    });
    expect(await unread()).toBe(2);
    const counted = await call(count.loader, { url: "/notifications/count", user: team.member, params: {} });
    expect(counted.data).toEqual({ unread: 2 });
    // signed out while the page was open: no count, and no redirect for the bell's fetcher to follow
    const signedOut = await call(count.loader, { url: "/notifications/count", user: null, params: {} });
    expect(signedOut).toMatchObject({ status: 401, data: { unread: null }, location: null });

    const page = (await call(list.loader, { url: "/notifications", user: team.member, params: {} })).data as Listed;
    expect(page.notifications.map((n) => n.kind)).toEqual(["comment", "assigned"]);

    // someone else's notification: a 404, and it stays unread
    const [first] = page.notifications;
    expect(
      (await call(open.loader, { url: `/notifications/${first.id}`, user: team.owner, params: { id: first.id } }))
        .status,
    ).toBe(404);
    expect((await call(open.loader, { url: "/notifications/x", user: team.member, params: { id: "x" } })).status).toBe(
      404,
    );
    const opened = await call(open.loader, {
      url: `/notifications/${first.id}`,
      user: team.member,
      params: { id: first.id },
    });
    expect(opened.location).toBe(taskUrl(1));
    expect(await unread()).toBe(1);
    const unreadOnly = (await call(list.loader, { url: "/notifications?show=unread", user: team.member, params: {} }))
      .data as Listed;
    expect(unreadOnly.notifications.map((n) => n.kind)).toEqual(["assigned"]);

    const all = await call(list.action, { url: "/notifications", user: team.member, params: {}, form: {} });
    expect(all.location).toBe("/notifications");
    expect(await unread()).toBe(0);
  });

  it("pages 50 at a time, newest first", async () => {
    await stack.db.query(
      `insert into notifications (recipient_id, team_id, task_id, kind, created_at)
       select $1, $2, $3, 'comment', now() - n * interval '1 minute' from generate_series(1, 60) n`,
      [team.viewer.id, team.id, team.taskIds[1]],
    );
    const first = (await call(list.loader, { url: "/notifications", user: team.viewer, params: {} })).data as Listed;
    expect(first.notifications).toHaveLength(50);
    expect(first.next).not.toBeNull();
    const second = (
      await call(list.loader, {
        url: `/notifications?before=${encodeURIComponent(first.next!)}`,
        user: team.viewer,
        params: {},
      })
    ).data as Listed;
    expect(second.notifications).toHaveLength(10);
    expect(second.next).toBeNull();
    expect(new Set([...first.notifications, ...second.notifications].map((n) => n.id)).size).toBe(60);
  });

  it("sends nobody signed in to the login page", async () => {
    expect((await call(list.loader, { url: "/notifications", user: null, params: {} })).location).toBe(
      "/login?next=%2Fnotifications",
    );
  });
});

async function username(id: string) {
  return (await stack.db.query<{ username: string }>("select username from profiles where id = $1", [id])).rows[0]
    .username;
}

describe("watching", () => {
  it("a viewer starts and stops watching; the panel shows the count and whether they watch", async () => {
    const panel = async () =>
      (await call(task.loader, { url: taskUrl(2), user: team.viewer, params: taskParams(2) })).data as {
        watchers: number;
        watching: boolean;
      };
    const before = await panel();
    expect(before.watching).toBe(false);
    const watched = await call(watching.action, {
      url: taskUrl(2, "/watching"),
      user: team.viewer,
      params: taskParams(2),
      form: { intent: "watch" },
    });
    expect(watched.location).toBe(taskUrl(2));
    expect(await panel()).toMatchObject({ watching: true, watchers: before.watchers + 1 });
    await call(watching.action, {
      url: taskUrl(2, "/watching"),
      user: team.viewer,
      params: taskParams(2),
      form: { intent: "unwatch" },
    });
    expect(await panel()).toMatchObject({ watching: false, watchers: before.watchers });
    const outsider = await call(watching.action, {
      url: taskUrl(2, "/watching"),
      user: team.outsider,
      params: taskParams(2),
      form: { intent: "watch" },
    });
    expect(outsider.status).toBe(404);
  });
});

describe("the timeline", () => {
  it("merges comments and events, 50 a page, with the way to earlier ones", async () => {
    const id = team.taskIds[1];
    await stack.db.query("update task_events set created_at = now() - interval '1 day' where task_id = $1", [id]);
    await stack.db.query(
      `insert into comments (task_id, author_id, body, created_at)
       select $1, $2, 'Comment ' || lpad(n::text, 3, '0'), now() - (100 - n) * interval '1 minute'
       from generate_series(1, 60) n`,
      [id, team.member.id],
    );
    type Panel = {
      timeline: Array<{ type: string; body?: string; kind?: string }>;
      hasEarlier: boolean;
      commentCount: number;
    };
    const latest = (await call(task.loader, { url: taskUrl(2), user: team.member, params: taskParams(2) }))
      .data as Panel;
    expect(latest.timeline).toHaveLength(50);
    expect(latest.hasEarlier).toBe(true);
    expect(latest.commentCount).toBe(60);
    expect(latest.timeline.at(-1)).toMatchObject({ type: "comment", body: "Comment 060" });
    const oldest = latest.timeline[0] as { type: string; id: string; created_at: string };
    const cursor = `${oldest.created_at}_${oldest.id}`;
    const earlier = (
      await call(task.loader, {
        url: taskUrl(2, `?timeline.before=${encodeURIComponent(cursor)}`),
        user: team.member,
        params: taskParams(2),
      })
    ).data as Panel;
    expect(earlier.hasEarlier).toBe(false);
    // the ten earliest comments, after the task's creation (an event)
    expect(earlier.timeline[0]).toMatchObject({ type: "event", kind: "task_created" });
    expect(earlier.timeline.filter((i) => i.type === "comment")).toHaveLength(10);
  });
});

describe("/account/notifications", () => {
  it("shows the defaults, saves a choice per kind, and refuses a value that isn't one", async () => {
    const load = async () =>
      (
        (await call(settings.loader, { url: "/account/notifications", user: team.admin, params: {} })).data as {
          settings: Record<string, string>;
        }
      ).settings;
    expect(await load()).toEqual({
      assigned: "instant",
      mentioned: "instant",
      comment: "never",
      status: "never",
      due_date: "never",
      webhook_off: "never",
    });
    const form = {
      assigned: "daily",
      mentioned: "instant",
      comment: "instant",
      status: "never",
      due_date: "daily",
      webhook_off: "instant",
    };
    const saved = await call(settings.action, { url: "/account/notifications", user: team.admin, params: {}, form });
    expect(saved.location).toBe("/account/notifications");
    expect(await load()).toEqual(form);
    const bad = await call(settings.action, {
      url: "/account/notifications",
      user: team.admin,
      params: {},
      form: { ...form, comment: "hourly" },
    });
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({
      errors: { comment: "Choose right away, daily digest or don't email." },
      values: { comment: "hourly", assigned: "daily" },
    });
    expect(await load()).toEqual(form);
  });
});

describe("the unsubscribe link", () => {
  it("works without signing in, changes nothing when opened, and says so when used twice", async () => {
    const token = "a".repeat(64);
    await stack.db.query(
      `insert into email_unsubscribe_tokens (token_hash, user_id, kinds)
       values (encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2, '{assigned,mentioned}')`,
      [token, team.viewer.id],
    );
    const params = { token };
    const opened = await call(unsubscribe.loader, { url: `/unsubscribe/${token}`, user: null, params });
    expect(opened).toMatchObject({ status: 200, data: { status: "subscribed" } });
    // RFC 8058's one-click POST, as a mail client sends it
    const first = await call(unsubscribe.action, {
      url: `/unsubscribe/${token}`,
      user: null,
      params,
      form: { "List-Unsubscribe": "One-Click" },
    });
    expect(first).toMatchObject({
      status: 200,
      data: { status: "unsubscribed", kinds: ["tasks assigned to you", "mentions of you"] },
    });
    const again = await call(unsubscribe.action, { url: `/unsubscribe/${token}`, user: null, params, form: {} });
    expect(again).toMatchObject({ status: 200, data: { status: "already" } });
    expect((await call(unsubscribe.loader, { url: `/unsubscribe/${token}`, user: null, params })).data).toMatchObject({
      status: "already",
    });
    const { rows } = await stack.db.query(
      "select kind, email from notification_settings where user_id = $1 order by kind",
      [team.viewer.id],
    );
    expect(rows).toEqual([
      { kind: "assigned", email: "never" },
      { kind: "mentioned", email: "never" },
    ]);
    const unknown = await call(unsubscribe.action, {
      url: "/unsubscribe/nope",
      user: null,
      params: { token: "nope" },
      form: {},
    });
    expect(unknown).toMatchObject({ status: 404, data: { status: "unknown" } });
  });
});

describe("/teams/:team/activity", () => {
  it("lists the team's events newest first, filtered by project and person; a 404 for outsiders", async () => {
    type Page = { events: Array<{ kind: string; actor_id: string | null; created_at: string }> };
    const load = async (search = "", user = team.viewer) =>
      call(activity.loader, { url: `/teams/${team.slug}/activity${search}`, user, params: { team: team.slug } });
    const all = (await load()).data as Page;
    expect(all.events.length).toBeGreaterThan(0);
    const times = all.events.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const owner = await username(team.owner.id);
    const byOwner = (await load(`?person=${owner}`)).data as Page;
    expect(byOwner.events.length).toBeGreaterThan(0);
    expect(new Set(byOwner.events.map((e) => e.actor_id))).toEqual(new Set([team.owner.id]));
    expect(((await load("?project=NOPE")).data as Page).events).toEqual([]);
    expect(((await load("?project=web")).data as Page).events.length).toBe(all.events.length);
    expect((await load("", team.outsider)).status).toBe(404);
  });

  it("pages 50 at a time by cursor, newest first, nothing twice", async () => {
    type Page = { events: Array<{ id: string }>; next: string | null };
    await stack.db.query(
      `insert into task_events (team_id, project_id, task_id, kind, created_at)
       select $1, $2, $3, 'task_updated', now() - n * interval '1 second' from generate_series(1, 60) n`,
      [team.id, team.projectId, team.taskIds[1]],
    );
    const load = async (search = "") =>
      (
        await call(activity.loader, {
          url: `/teams/${team.slug}/activity${search}`,
          user: team.viewer,
          params: { team: team.slug },
        })
      ).data as Page;
    const first = await load();
    expect(first.events).toHaveLength(50);
    const second = await load(`?before=${encodeURIComponent(first.next!)}`);
    const { rows } = await stack.db.query<{ n: number }>(
      "select count(*)::int as n from task_events where team_id = $1",
      [team.id],
    );
    expect(first.events.length + second.events.length).toBe(Math.min(rows[0].n, 100));
    expect(new Set([...first.events, ...second.events].map((e) => e.id)).size).toBe(
      first.events.length + second.events.length,
    );
  });

  it("a deleted task's events stay, named as it was, with who deleted it (no link: it is gone)", async () => {
    type Page = {
      events: Array<{ kind: string; actor_id: string | null; ref: string; path: string | null; what: string }>;
    };
    // a task of its own, so the other tests keep theirs
    const { data: made, error } = await stack
      .adminClient()
      .from("tasks")
      .insert({ project_id: team.projectId, title: "Short-lived" } as never)
      .select("id, number")
      .single();
    if (error) throw error;
    const { number } = made as { number: number };
    await call(comments.action, {
      url: taskUrl(number, "/comments"),
      user: team.owner,
      params: taskParams(number),
      form: { intent: "comment", body: "Soon gone" },
    });
    const deleted = await call(task.action, {
      url: taskUrl(number),
      user: team.owner,
      params: taskParams(number),
      form: { intent: "delete-task" },
    });
    expect(deleted.location).toBeTruthy();
    const page = (
      await call(activity.loader, {
        url: `/teams/${team.slug}/activity`,
        user: team.viewer,
        params: { team: team.slug },
      })
    ).data as Page;
    const ref = `WEB-${number}`;
    const ofIt = page.events.filter((e) => e.ref === ref);
    expect(ofIt.map((e) => [e.kind, e.what, e.path])).toEqual([
      ["task_deleted", `deleted ${ref} Short-lived`, null],
      ["comment_posted", `commented on ${ref} Short-lived`, null],
      ["task_created", `created ${ref} Short-lived`, null],
    ]);
    expect(ofIt[0].actor_id).toBe(team.owner.id);
  });
});
