/**
 * docs/product.md §12 through the route modules: a person's time zone (sign-up,
 * /account, the pages' dates), the calendars (a project's and /calendar,
 * moving a task to another day) and the calendar feed (/account/calendar,
 * /calendar/<token>.ics).
 */
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import {
  afterCookies,
  call,
  createUser,
  seedTeam,
  startRouteStack,
  type RouteTeam,
  type RouteUser,
} from "./support.ts";

const FORBIDDEN = "Your role in this team doesn't allow that.";

let stack: TestStack;
let team: RouteTeam;
let other: RouteTeam;
let root: typeof import("~/root");
let signup: typeof import("~/routes/signup");
let account: typeof import("~/routes/account._index");
let accountLayout: typeof import("~/routes/account");
let projectCalendar: typeof import("~/routes/teams.$team.projects.$key_.calendar");
let myCalendar: typeof import("~/routes/calendar._index");
let feedPage: typeof import("~/routes/account.calendar");
let feed: typeof import("~/routes/calendar.$feed");

beforeAll(async () => {
  stack = await startRouteStack({ auth: { autoconfirm: true } });
  [team, other] = await Promise.all([seedTeam(stack), seedTeam(stack)]);
  root = await import("~/root");
  signup = await import("~/routes/signup");
  account = await import("~/routes/account._index");
  accountLayout = await import("~/routes/account");
  projectCalendar = await import("~/routes/teams.$team.projects.$key_.calendar");
  myCalendar = await import("~/routes/calendar._index");
  feedPage = await import("~/routes/account.calendar");
  feed = await import("~/routes/calendar.$feed");
});
afterAll(() => stack?.close());

const admin = () => stack.adminClient();
const errorsOf = (data: unknown) => (data as { errors: Record<string, string> }).errors;
const zoneOf = async (id: string) =>
  (await admin().from("profiles").select("time_zone").eq("id", id).single<{ time_zone: string }>()).data?.time_zone;

/** A status of a project by its name (a new project's: Backlog, To do, In progress, Done, Canceled). */
async function statusId(projectId: string, name: string) {
  const { rows } = await stack.db.query<{ id: string }>(
    "select id from project_statuses where project_id = $1 and name = $2",
    [projectId, name],
  );
  return rows[0].id;
}

async function setTask(id: string, changes: Record<string, unknown>) {
  const { error } = await admin().from("tasks").update(changes).eq("id", id);
  if (error) throw error;
}

describe("a person's time zone", () => {
  it("sign-up takes the browser's zone from the hidden field (in the runtime's spelling), else UTC", async () => {
    const cases = [
      { sent: "Europe/Berlin", kept: "Europe/Berlin" },
      { sent: "Asia/Kolkata", kept: "Asia/Calcutta" },
      { sent: "", kept: "UTC" },
      { sent: "Mars/Olympus_Mons", kept: "UTC" },
    ];
    for (const { sent, kept } of cases) {
      const email = `zone-${Math.random().toString(36).slice(2)}@example.test`;
      const form: Record<string, string> = { email, password: "correct-horse-1", displayName: "Zoe Zone" };
      if (sent) form.timeZone = sent;
      const answer = await call(signup.action, { url: "/signup", user: null, params: {}, form });
      expect(answer.status, sent).toBe(302);
      const { data } = await admin().from("profiles").select("id, time_zone").eq("display_name", "Zoe Zone");
      const made = (data as Array<{ id: string; time_zone: string }>).at(-1)!;
      expect(made.time_zone, sent).toBe(kept);
      await admin().auth.admin.deleteUser(made.id);
    }
  });

  it("/account saves a zone from the list, refuses another with §16's message keeping what was typed, and pages print in it", async () => {
    let user: RouteUser = await createUser(stack, "Tim Zone");
    const page = await call(account.loader, { url: "/account", user, params: {} });
    expect(page.data).toMatchObject({ timeZone: "UTC" });
    const zones = (page.data as { timeZones: Array<{ value: string }> }).timeZones.map((z) => z.value);
    expect(zones[0]).toBe("UTC");
    expect(zones).toEqual(["UTC", ...Intl.supportedValuesOf("timeZone")]);

    const refused = await call(accountLayout.action, {
      url: "/account",
      user,
      params: {},
      form: { displayName: "Tim Zone", timeZone: "Europe/Atlantis" },
    });
    expect(refused.status).toBe(400);
    expect(errorsOf(refused.data)).toEqual({ timeZone: "Choose a time zone from the list." });
    expect(refused.data).toMatchObject({ values: { displayName: "Tim Zone", timeZone: "Europe/Atlantis" } });
    expect(await zoneOf(user.id)).toBe("UTC");

    const saved = await call(accountLayout.action, {
      url: "/account",
      user,
      params: {},
      form: { displayName: "Tim Zone", timeZone: "America/New_York" },
    });
    expect(saved.location).toBe("/account");
    expect(await zoneOf(user.id)).toBe("America/New_York");
    user = afterCookies(user, saved);
    // the refreshed session carries the zone: every page's root data prints in it
    const rootData = (await call(root.loader, { url: "/teams", user, params: {} })).data as {
      time: { zone: { name: string }; today: string };
    };
    expect(rootData.time.zone.name).toBe("America/New_York");
  });

  it("the database refuses a zone it doesn't know, and nobody writes the column directly", async () => {
    const user = await createUser(stack, "Direct Dora");
    const client = stack.anonClient();
    await client.auth.signInWithPassword({ email: user.email, password: user.password });
    const metadata = await client.auth.updateUser({ data: { time_zone: "Nowhere/Special" } });
    expect(metadata.error).not.toBeNull();
    const direct = await client.from("profiles").update({ time_zone: "Europe/Paris" }).eq("id", user.id);
    expect(direct.error?.code).toBe("42501");
    expect(await zoneOf(user.id)).toBe("UTC");
    expect((await client.auth.updateUser({ data: { time_zone: "Europe/Paris" } })).error).toBeNull();
    expect(await zoneOf(user.id)).toBe("Europe/Paris");
  });
});

describe("the calendars", () => {
  const url = (month?: string) => `/teams/${team.slug}/projects/WEB/calendar${month ? `?month=${month}` : ""}`;
  const params = () => ({ team: team.slug, key: "WEB" });

  beforeAll(async () => {
    const [first, second] = team.taskIds;
    await setTask(first, { due_on: "2026-11-30", assignee_id: team.member.id }); // a Monday
    await setTask(second, { due_on: "2026-12-06", status_id: await statusId(team.projectId, "Done") }); // the grid's last Sunday
    const { error } = await admin()
      .from("tasks")
      .insert([
        { project_id: team.projectId, title: "Late one", due_on: "2026-10-31" },
        { project_id: other.projectId, title: "Elsewhere", due_on: "2026-11-30" },
      ]);
    if (error) throw error;
  });

  it("a project's month: whole weeks from Monday, each task on its due date, done ones marked, others' projects not", async () => {
    const page = await call(projectCalendar.loader, { url: url("2026-11"), user: team.viewer, params: params() });
    expect(page.status).toBe(200);
    const data = page.data as {
      month: string;
      tasks: Array<{ ref: string; title: string; due_on: string; open: boolean; movable: boolean; href: string }>;
    };
    expect(data.month).toBe("2026-11");
    // 2026-11: the grid runs from Monday 26 October to Sunday 6 December
    expect(data.tasks.map((t) => [t.ref, t.due_on, t.open])).toEqual([
      ["WEB-3", "2026-10-31", true],
      ["WEB-1", "2026-11-30", true],
      ["WEB-2", "2026-12-06", false],
    ]);
    expect(data.tasks[1]).toMatchObject({ href: `/teams/${team.slug}/projects/WEB/tasks/1`, movable: false });
    const member = await call(projectCalendar.loader, { url: url("2026-11"), user: team.member, params: params() });
    expect((member.data as typeof data).tasks.every((t) => t.movable)).toBe(true);
  });

  it("answers 400 for a month it can't show, 404 to an outsider, and sends nobody to log in", async () => {
    for (const month of ["2026-13", "26-11", "1999-12", "2101-01", "november"]) {
      const bad = await call(projectCalendar.loader, { url: url(month), user: team.member, params: params() });
      expect(bad.status, month).toBe(400);
      expect(bad.text).toContain("?month=YYYY-MM");
    }
    expect((await call(projectCalendar.loader, { url: url(), user: team.outsider, params: params() })).status).toBe(
      404,
    );
    const anonymous = await call(projectCalendar.loader, { url: url(), user: null, params: params() });
    expect(anonymous.location).toBe(`/login?next=${encodeURIComponent(url())}`);
  });

  it("moves a task to another day (the drag's form post); a viewer, a bad day and an archived project are refused", async () => {
    const [first] = team.taskIds;
    const move = (user: RouteUser, dueOn: string, taskId = first) =>
      call(projectCalendar.action, { url: url(), user, params: params(), form: { intent: "due", taskId, dueOn } });
    expect(await move(team.member, "2026-12-01")).toMatchObject({ status: 200, data: { intent: "due", ok: true } });
    const dueOf = async () =>
      (await admin().from("tasks").select("due_on").eq("id", first).single<{ due_on: string }>()).data?.due_on;
    expect(await dueOf()).toBe("2026-12-01");

    const viewer = await move(team.viewer, "2026-12-02");
    expect(viewer.status).toBe(403);
    expect(errorsOf(viewer.data).form).toBe(FORBIDDEN);
    const bad = await move(team.member, "2026-02-30");
    expect(bad.status).toBe(400);
    expect(errorsOf(bad.data).dueOn).toBe("Enter a real date between 2000-01-01 and 2100-12-31.");
    // another team's task through this project's page: row-level security hides it
    const [elsewhere] = (
      await admin().from("tasks").select("id").eq("title", "Elsewhere").returns<Array<{ id: string }>>()
    ).data!;
    expect((await move(team.member, "2026-12-03", elsewhere.id)).status).toBe(403);

    await admin().from("projects").update({ archived_at: new Date().toISOString() }).eq("id", team.projectId);
    const archived = await move(team.member, "2026-12-04");
    expect(archived.status).toBe(400);
    expect(errorsOf(archived.data).form).toBe("This project is archived; its tasks are read-only.");
    await admin().from("projects").update({ archived_at: null }).eq("id", team.projectId);
    expect(await dueOf()).toBe("2026-12-01");
  });

  it("a task with a start date reaches the months it spans, and moves whole (§17)", async () => {
    const inserted = await admin()
      .from("tasks")
      .insert([
        // started in November's grid, due after it
        {
          project_id: team.projectId,
          title: "Long one",
          start_on: "2026-11-20",
          due_on: "2026-12-10",
          due_time: "09:15",
        },
        // both after it
        { project_id: team.projectId, title: "Later one", start_on: "2026-12-15", due_on: "2026-12-20" },
      ])
      .select("id, title")
      .returns<Array<{ id: string; title: string }>>();
    if (inserted.error) throw inserted.error;
    const long = inserted.data.find((t) => t.title === "Long one")!.id;
    const page = await call(projectCalendar.loader, { url: url("2026-11"), user: team.member, params: params() });
    const tasks = (page.data as { tasks: Array<Record<string, unknown>> }).tasks;
    expect(tasks.find((t) => t.title === "Later one")).toBeUndefined();
    expect(tasks.find((t) => t.title === "Long one")).toMatchObject({
      start_on: "2026-11-20",
      due_on: "2026-12-10",
      due_time: "09:15",
    });
    const moved = await call(projectCalendar.action, {
      url: url(),
      user: team.member,
      params: params(),
      form: { intent: "due", taskId: long, dueOn: "2026-12-12" },
    });
    expect(moved.status).toBe(200);
    const row = await admin().from("tasks").select("start_on, due_on, due_time").eq("id", long).single();
    expect(row.data).toEqual({ start_on: "2026-11-22", due_on: "2026-12-12", due_time: "09:15:00" });
    await admin()
      .from("tasks")
      .delete()
      .in(
        "id",
        inserted.data.map((t) => t.id),
      );
  });

  it("/calendar: the tasks assigned to me across my teams, nobody else's", async () => {
    const [theirs] = other.taskIds;
    await setTask(theirs, { due_on: "2026-11-27", assignee_id: other.member.id });
    // Mia of the first team is a viewer in the second, assigned one task there
    await admin().from("team_members").insert({ team_id: other.id, user_id: team.member.id, role: "viewer" });
    const [, second] = other.taskIds;
    await setTask(second, { due_on: "2026-11-28", assignee_id: team.member.id });
    const page = await call(myCalendar.loader, { url: "/calendar?month=2026-11", user: team.member, params: {} });
    const tasks = (page.data as { tasks: Array<{ title: string; href: string }> }).tasks;
    expect(tasks.map((t) => t.title)).toEqual(["Book the room", "Plan the sprint"]);
    expect(tasks[0].href).toBe(`/teams/${other.slug}/projects/WEB/tasks/2`);
    const moved = await call(myCalendar.action, {
      url: "/calendar",
      user: team.member,
      params: {},
      form: { intent: "due", taskId: second, dueOn: "2026-11-29" },
    });
    // a viewer there: the database refuses, and the page says so
    expect(moved.status).toBe(403);
    expect(errorsOf(moved.data).form).toBe(FORBIDDEN);
    const mine = await call(myCalendar.action, {
      url: "/calendar",
      user: team.member,
      params: {},
      form: { intent: "due", taskId: team.taskIds[0], dueOn: "2026-11-29" },
    });
    expect(mine.status).toBe(200);
  });
});

describe("the calendar feed", () => {
  const origin = "http://app.test";
  const fetchFeed = (token: string, headers: Record<string, string> = {}, user: RouteUser | null = null) =>
    feed.loader({
      request: new Request(`${origin}/calendar/${token}.ics`, {
        headers: { ...headers, ...(user ? { Cookie: user.cookie } : {}) },
      }),
      params: { feed: `${token}.ics` },
      context: {},
    }) as Promise<Response>;
  const tokenOf = (address: string) => /\/calendar\/([^/]+)\.ics$/.exec(address)![1];

  it("makes an address once (only its hash is kept), serves RFC 5545 without cookies, 304s, and resets to a 404", async () => {
    const owner = team.owner;
    await setTask(team.taskIds[0], {
      assignee_id: owner.id,
      due_on: new Date().toISOString().slice(0, 10),
      title: "Ship; it, now\\",
    });
    const made = await call(feedPage.action, {
      url: "/account/calendar",
      user: owner,
      params: {},
      form: { intent: "reset" },
    });
    const address = (made.data as { address: string }).address;
    expect(address).toMatch(/^http:\/\/app\.test\/calendar\/[A-Za-z0-9_-]{59}\.ics$/);
    const token = tokenOf(address);
    const stored = await stack.db.query<{ selector: string; hash: string }>(
      "select selector, encode(token_hash, 'hex') as hash from calendar_feeds where user_id = $1",
      [owner.id],
    );
    expect(stored.rows[0].selector).toBe(token.slice(0, 16));
    expect(JSON.stringify(stored.rows)).not.toContain(token.slice(16));
    const page = await call(feedPage.loader, { url: "/account/calendar", user: owner, params: {} });
    expect(JSON.stringify(page.data)).not.toContain(token);

    const answer = await fetchFeed(token, {}, owner);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(answer.headers.get("Cache-Control")).toBe("private, max-age=300");
    expect(answer.headers.get("Set-Cookie")).toBeNull();
    const text = await answer.text();
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents("vevent");
    expect(events.map((e) => e.getFirstPropertyValue("summary"))).toEqual(["WEB-1 Ship; it, now\\"]);
    const event = events[0];
    expect(event.getFirstProperty("dtstart")!.type).toBe("date");
    expect(event.getFirstPropertyValue("uid")).toBe(`task-${team.taskIds[0]}@teamboard`);
    expect(event.getFirstPropertyValue("url")).toBe(`${origin}/teams/${team.slug}/projects/WEB/tasks/1`);

    const again = await fetchFeed(token, { "If-None-Match": answer.headers.get("ETag")! });
    expect(again.status).toBe(304);

    await call(feedPage.action, { url: "/account/calendar", user: owner, params: {}, form: { intent: "reset" } });
    const old = await fetchFeed(token);
    expect(old.status).toBe(404);
    expect(await old.text()).toBe("");
  });

  it("a start date and a due time (§17): an event from start to due, and a to-do with DTSTART/DUE, timed when given", async () => {
    const dates = await seedTeam(stack);
    const person = dates.member;
    // Tokyo keeps no summer time: 14:30 there is 05:30 UTC on the same day
    await admin().from("profiles").update({ time_zone: "Asia/Tokyo" }).eq("id", person.id);
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const [timed, spanned] = dates.taskIds;
    await setTask(timed, {
      assignee_id: person.id,
      start_on: day(2),
      due_on: day(4),
      due_time: "14:30",
      title: "Timed",
    });
    await setTask(spanned, { assignee_id: person.id, start_on: day(1), due_on: day(3), title: "Spanned" });
    const made = await call(feedPage.action, {
      url: "/account/calendar",
      user: person,
      params: {},
      form: { intent: "reset" },
    });
    const text = await (await fetchFeed(tokenOf((made.data as { address: string }).address))).text();
    const calendar = new ICAL.Component(ICAL.parse(text));
    const bySummary = (kind: string) =>
      Object.fromEntries(
        calendar.getAllSubcomponents(kind).map((c) => [String(c.getFirstPropertyValue("summary")), c] as const),
      );
    const value = (c: ICAL.Component, name: string) => {
      const property = c.getFirstProperty(name);
      if (!property) return null;
      const time = property.getFirstValue() as ICAL.Time;
      return `${property.type}:${property.type === "date" ? time.toString() : time.toJSDate().toISOString()}`;
    };
    const events = bySummary("vevent");
    const todos = bySummary("vtodo");
    expect(Object.keys(todos).sort()).toEqual(["WEB-1 Timed", "WEB-2 Spanned"]);
    // timed: from the start date's midnight in Tokyo (15:00 UTC the day before) to 14:30 Tokyo
    expect(value(todos["WEB-1 Timed"], "dtstart")).toBe(`date-time:${day(1)}T15:00:00.000Z`);
    expect(value(todos["WEB-1 Timed"], "due")).toBe(`date-time:${day(4)}T05:30:00.000Z`);
    expect(value(events["WEB-1 Timed"], "dtstart")).toBe(`date-time:${day(1)}T15:00:00.000Z`);
    expect(value(events["WEB-1 Timed"], "dtend")).toBe(`date-time:${day(4)}T05:30:00.000Z`);
    // no time: days; the event's end is the day after the due date (exclusive)
    expect(value(todos["WEB-2 Spanned"], "dtstart")).toBe(`date:${day(1)}`);
    expect(value(todos["WEB-2 Spanned"], "due")).toBe(`date:${day(3)}`);
    expect(value(events["WEB-2 Spanned"], "dtstart")).toBe(`date:${day(1)}`);
    expect(value(events["WEB-2 Spanned"], "dtend")).toBe(`date:${day(4)}`);
    expect(todos["WEB-1 Timed"].getFirstPropertyValue("url")).toBe(
      `${origin}/teams/${dates.slug}/projects/WEB/tasks/1`,
    );
    // every line ends CRLF and none is longer than 75 octets (RFC 5545 §3.1)
    expect(text.split("\r\n").every((line) => Buffer.byteLength(line) <= 75 && !line.includes("\n"))).toBe(true);
  });

  it("a wrong verifier, a malformed token and another person's feed never show these tasks", async () => {
    const made = await call(feedPage.action, {
      url: "/account/calendar",
      user: other.owner,
      params: {},
      form: { intent: "reset" },
    });
    const token = tokenOf((made.data as { address: string }).address);
    const wrong = `${token.slice(0, 16)}${"A".repeat(43)}`;
    expect((await fetchFeed(wrong)).status).toBe(404);
    expect((await fetchFeed("short")).status).toBe(404);
    const theirs = await (await fetchFeed(token)).text();
    expect(theirs).not.toContain("Ship");
    // turned off: gone
    const off = await call(feedPage.action, {
      url: "/account/calendar",
      user: other.owner,
      params: {},
      form: { intent: "off" },
    });
    expect(off.location).toBe("/account/calendar");
    expect((await fetchFeed(token)).status).toBe(404);
  });

  it("nobody reads another person's feed row, or the hash of their own", async () => {
    const client = stack.anonClient();
    await client.auth.signInWithPassword({ email: team.member.email, password: team.member.password });
    const rows = await client.from("calendar_feeds").select("user_id");
    expect(rows.data).toEqual([]);
    const hash = await client.from("calendar_feeds").select("token_hash");
    expect(hash.error?.code).toBe("42501");
    const anon = await stack.anonClient().from("calendar_feeds").select("user_id");
    expect(anon.error?.code).toBe("42501");
  });
});
