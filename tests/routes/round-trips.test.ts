import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequentialDepth } from "../../stack/request-log.ts";
import type { TestStack } from "../support/stack.ts";
import { call, callTogether, seedTeam, startRouteStack, type RouteTeam } from "./support.ts";

/**
 * Deployed, every backend request is a network round trip; what a page costs
 * is how many of them run one after another (docs/decisions/0017). These
 * tests pin the loaders' and actions' chains: the stack adds a latency to
 * every request and logs when each ran, and the requests a loader makes must
 * all have been in flight together (depth 1). The latency is long enough that
 * a busy machine can't make requests sent together look like a chain.
 */
const LATENCY_MS = 300;

let stack: TestStack;
let team: RouteTeam;
let layout: typeof import("~/routes/teams.$team");
let projects: typeof import("~/routes/teams.$team.projects._index");
let board: typeof import("~/routes/teams.$team.projects.$key");
let task: typeof import("~/routes/teams.$team.projects.$key.tasks.$number");
let comments: typeof import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
let members: typeof import("~/routes/teams.$team.members");
let list: typeof import("~/routes/teams.$team.projects.$key_.list");
let root: typeof import("~/root");
let activity: typeof import("~/routes/teams.$team.activity");
let notifications: typeof import("~/routes/notifications._index");
let doneId: string;

beforeAll(async () => {
  stack = await startRouteStack();
  team = await seedTeam(stack);
  layout = await import("~/routes/teams.$team");
  projects = await import("~/routes/teams.$team.projects._index");
  board = await import("~/routes/teams.$team.projects.$key");
  task = await import("~/routes/teams.$team.projects.$key.tasks.$number");
  comments = await import("~/routes/teams.$team.projects.$key.tasks.$number.comments");
  members = await import("~/routes/teams.$team.members");
  list = await import("~/routes/teams.$team.projects.$key_.list");
  root = await import("~/root");
  activity = await import("~/routes/teams.$team.activity");
  notifications = await import("~/routes/notifications._index");
  // labels, assignees and a long column for the board's filters
  await stack.db.query(`update public.tasks set assignee_id = $2 where project_id = $1 and number = 1`, [
    team.projectId,
    team.member.id,
  ]);
  await stack.db.query(
    `with l as (insert into public.labels (team_id, name, color) values ($1, 'Design', 'purple') returning id)
     insert into public.task_labels (task_id, label_id)
     select t.id, l.id from l, public.tasks t where t.project_id = $2 and t.number = 1`,
    [team.id, team.projectId],
  );
  await stack.db.query(
    `insert into public.tasks (project_id, title, status_id, created_by)
     select $1, 'Filler ' || n, (select id from public.project_statuses where project_id = $1 and name = 'Done'), $2
     from generate_series(1, 201) n`,
    [team.projectId, team.owner.id],
  );
  doneId = (
    await stack.db.query<{ id: string }>(
      "select id from public.project_statuses where project_id = $1 and name = 'Done'",
      [team.projectId],
    )
  ).rows[0].id;
});
afterAll(() => stack?.close());

const boardUrl = () => `/teams/${team.slug}/projects/WEB`;
const params = (extra: Record<string, string> = {}) => ({ team: team.slug, key: "WEB", ...extra });
type Board = {
  columns: Array<{
    status: { id: string; name: string };
    tasks: Array<{ title: string }>;
    hasMore: boolean;
    limit: number;
  }>;
  members: Array<{ id: string; name: string }>;
  project: { key: string; archived: boolean };
};
const titles = (data: unknown) =>
  (data as Board).columns.flatMap((c) => c.tasks.map((t) => t.title)).filter((t) => !t.startsWith("Filler"));

/** The backend requests `run` makes, and the longest chain of them. */
async function measure(run: () => Promise<unknown>) {
  stack.setLatency(LATENCY_MS);
  try {
    const since = Date.now();
    await run();
    const logged = stack.requests.list(since).filter((r) => !r.path.includes("/.well-known/"));
    return { requests: logged.map((r) => r.path), depth: sequentialDepth(logged) };
  } finally {
    stack.setLatency(0);
  }
}

describe("one round trip per loader", () => {
  it("the board reads the project, its columns (which tasks repeat too) and the team's members in one request, beside the team", async () => {
    // warm: the signing keys (getClaims checks the token locally with them)
    await call(board.loader, { url: boardUrl(), user: team.member, params: params() });
    let status = 0;
    const { requests, depth } = await measure(async () => {
      ({ status } = await call(board.loader, { url: boardUrl(), user: team.member, params: params() }));
    });
    expect(status).toBe(200);
    expect(requests.sort()).toEqual(["/rest/v1/rpc/board_view", "/rest/v1/saved_views", "/rest/v1/team_members"]);
    expect(depth).toBe(1);
  });

  it("the list reads the project, a page of tasks and the members in one request, beside the team and the saved views", async () => {
    let status = 0;
    const { requests, depth } = await measure(async () => {
      ({ status } = await call(list.loader, {
        url: `${boardUrl()}/list?sort=-due&group=status`,
        user: team.member,
        params: params(),
      }));
    });
    expect(status).toBe(200);
    expect(requests.sort()).toEqual(["/rest/v1/rpc/list_view", "/rest/v1/saved_views", "/rest/v1/team_members"]);
    expect(depth).toBe(1);
  });

  it("the list sorted, grouped and filtered by fields the team defines is the same one request", async () => {
    const field = async (name: string, kind: string, sum: boolean) =>
      (
        await stack.db.query<{ id: string }>(
          `insert into public.fields (project_id, name, kind, on_card, sum) values ($1, $2, $3::public.field_kind, true, $4) returning id`,
          [team.projectId, name, kind, sum],
        )
      ).rows[0].id;
    const points = await field("Round-trip points", "number", true);
    const signed = await field("Round-trip signed", "checkbox", false);
    let status = 0;
    const { requests, depth } = await measure(async () => {
      ({ status } = await call(list.loader, {
        url: `${boardUrl()}/list?sort=-field:${points}&group=field:${signed}&f.${points}=5&columns=${points}`,
        user: team.member,
        params: params(),
      }));
    });
    await stack.db.query(`delete from public.fields where id in ($1, $2)`, [points, signed]);
    expect(status).toBe(200);
    expect(requests.sort()).toEqual(["/rest/v1/rpc/list_view", "/rest/v1/saved_views", "/rest/v1/team_members"]);
    expect(depth).toBe(1);
  });

  it("a bulk edit is one request after the project context: two in a row", async () => {
    let location: string | null = null;
    let status = 0;
    const { requests, depth } = await measure(async () => {
      ({ location, status } = await call(list.action, {
        url: `${boardUrl()}/list`,
        user: team.member,
        params: params(),
        form: [
          ["intent", "bulk"],
          ...team.taskIds.map((id) => ["ids", id] as [string, string]),
          ["change", "priority"],
          ["priority", "high"],
        ],
      }));
    });
    // the list answers in place (the ticks stay, issue 42 §7): no redirect
    expect(status).toBe(200);
    expect(location).toBeNull();
    expect(requests.filter((path) => path === "/rest/v1/rpc/bulk_edit_tasks")).toHaveLength(1);
    expect(depth).toBe(2);
  });

  it("a board of 12 statuses is still one request beside the team and the saved views (issue 24)", async () => {
    const { rows } = await stack.db.query<{ id: string }>(
      "insert into public.projects (team_id, key, name) values ($1, 'WIDE', 'Twelve columns') returning id",
      [team.id],
    );
    await stack.db.query(
      `insert into public.project_statuses (project_id, name, category, wip_limit)
       select $1, 'Step ' || n, 'started', n from generate_series(1, 7) n`,
      [rows[0].id],
    );
    await stack.db.query(
      `insert into public.tasks (project_id, title, status_id, created_by)
       select s.project_id, 'Card ' || n || ' of ' || s.name, s.id, $2
       from public.project_statuses s, generate_series(1, 3) n where s.project_id = $1`,
      [rows[0].id, team.owner.id],
    );
    const url = `/teams/${team.slug}/projects/WIDE`;
    let data: unknown;
    const { requests, depth } = await measure(async () => {
      ({ data } = await call(board.loader, { url, user: team.member, params: params({ key: "WIDE" }) }));
    });
    expect((data as Board).columns).toHaveLength(12);
    expect(requests.sort()).toEqual(["/rest/v1/rpc/board_view", "/rest/v1/saved_views", "/rest/v1/team_members"]);
    expect(depth).toBe(1);
  });

  it("a board with 10 fields (3 on cards, one summed) and several assignees is still one request beside the others (issue 38)", async () => {
    const { rows } = await stack.db.query<{ id: string }>(
      "insert into public.projects (team_id, key, name) values ($1, 'FLD', 'Fields') returning id",
      [team.id],
    );
    const projectId = rows[0].id;
    const { rows: fields } = await stack.db.query<{ id: string; name: string }>(
      `insert into public.fields (project_id, name, kind, on_card, sum)
       select $1, 'Field ' || n, case when n = 1 then 'number' else 'text' end::public.field_kind, n <= 3, n = 1
       from generate_series(1, 10) n returning id, name`,
      [projectId],
    );
    const points = fields.find((f) => f.name === "Field 1")!.id;
    await stack.db.query(
      `insert into public.tasks (project_id, title, created_by, assignee_id)
       select $1, 'Fielded ' || n, $2, $2 from generate_series(1, 4) n`,
      [projectId, team.owner.id],
    );
    await stack.db.query(
      `insert into public.task_assignees (task_id, person_id) select t.id, $2 from public.tasks t where t.project_id = $1`,
      [projectId, team.member.id],
    );
    await stack.db.query(
      `insert into public.field_values (task_id, field_id, value)
       select t.id, f.id, case when f.name = 'Field 1' then '5' else '"x"' end::jsonb
       from public.tasks t cross join public.fields f where t.project_id = $1 and f.project_id = $1`,
      [projectId],
    );
    const url = `/teams/${team.slug}/projects/FLD`;
    let data: unknown;
    const { requests, depth } = await measure(async () => {
      ({ data } = await call(board.loader, { url, user: team.member, params: params({ key: "FLD" }) }));
    });
    expect(requests.sort()).toEqual(["/rest/v1/rpc/board_view", "/rest/v1/saved_views", "/rest/v1/team_members"]);
    expect(depth).toBe(1);
    const view = data as {
      fields: { name: string; on_card: boolean; sum: boolean }[];
      columns: {
        sums: Record<string, number> | null;
        tasks: { assignee_ids: string[]; fields: Record<string, unknown> }[];
      }[];
    };
    // the cards carry only the 3 fields shown on them; the column header the sum of Points
    expect(view.fields.map((f) => f.name)).toEqual(["Field 1", "Field 2", "Field 3"]);
    const backlog = view.columns.find((c) => c.tasks.length > 0)!;
    expect(Object.keys(backlog.tasks[0].fields).sort()).toEqual(
      fields
        .filter((f) => ["Field 1", "Field 2", "Field 3"].includes(f.name))
        .map((f) => f.id)
        .sort(),
    );
    expect(backlog.tasks[0].assignee_ids).toEqual([team.owner.id, team.member.id]);
    expect(Number(backlog.sums?.[points])).toBe(20);
  });

  it("the task panel reads the task, its comments and attachments in one request, beside the project context (and its repeat rule)", async () => {
    const url = `${boardUrl()}/tasks/2`;
    let status = 0;
    const { requests, depth } = await measure(async () => {
      ({ status } = await call(task.loader, { url, user: team.member, params: params({ number: "2" }) }));
    });
    expect(status).toBe(200);
    expect(requests.sort()).toEqual([
      "/rest/v1/projects",
      "/rest/v1/rpc/task_panel",
      "/rest/v1/tasks",
      "/rest/v1/team_members",
    ]);
    expect(depth).toBe(1);
  });

  it("the team layout and the projects page read the projects beside the team, not after it", async () => {
    for (const [loader, url] of [
      [layout.loader, `/teams/${team.slug}`],
      [projects.loader, `/teams/${team.slug}/projects`],
    ] as const) {
      let status = 0;
      const { requests, depth } = await measure(async () => {
        ({ status } = await call(loader, { url, user: team.member, params: { team: team.slug } }));
      });
      expect(status).toBe(200);
      expect(requests.sort()).toEqual(["/rest/v1/projects", "/rest/v1/team_members"]);
      expect(depth).toBe(1);
    }
  });

  it("the members page reads the members, the pending invitations and the projects a guest may be given side by side", async () => {
    let status = 0;
    const { requests, depth } = await measure(async () => {
      ({ status } = await call(members.loader, {
        url: `/teams/${team.slug}/members`,
        user: team.admin,
        params: { team: team.slug },
      }));
    });
    expect(status).toBe(200);
    expect(requests).toHaveLength(4);
    expect(requests.filter((r) => r === "/rest/v1/projects")).toHaveLength(1);
    expect(depth).toBe(2);
  });

  it("posting a comment finds the task beside the project context, then writes: two in a row", async () => {
    let location: string | null = null;
    const { requests, depth } = await measure(async () => {
      ({ location } = await call(comments.action, {
        url: `${boardUrl()}/tasks/2/comments`,
        user: team.member,
        params: params({ number: "2" }),
        form: { intent: "comment", body: "Side by side." },
      }));
    });
    expect(location).toMatch(new RegExp(`^${boardUrl()}/tasks/2#comment-[0-9a-f-]{36}$`));
    expect(requests).toHaveLength(4);
    expect(depth).toBe(2);
  });
});

describe("the bell and the pages of issue 25", () => {
  it("a whole task page (root with the bell's count, team, board, task) is one round trip deep", async () => {
    const url = `${boardUrl()}/tasks/2`;
    const loaders = [root.loader, layout.loader, board.loader, task.loader];
    const args = { url, user: team.member, params: params({ number: "2" }) };
    await callTogether(loaders, args);
    let answers: Array<{ status: number }> = [];
    const { requests, depth } = await measure(async () => {
      answers = await callTogether(loaders, args);
    });
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(requests).toContain("/rest/v1/rpc/unread_notification_count");
    expect(depth).toBe(1);
  });

  it("the activity page reads its events, people and projects beside the team; /notifications in one request", async () => {
    let status = 0;
    const page = await measure(async () => {
      ({ status } = await call(activity.loader, {
        url: `/teams/${team.slug}/activity`,
        user: team.member,
        params: { team: team.slug },
      }));
    });
    expect(status).toBe(200);
    expect(page.requests.sort()).toEqual([
      "/rest/v1/projects",
      "/rest/v1/rpc/team_activity",
      "/rest/v1/team_members",
      "/rest/v1/team_members",
    ]);
    expect(page.depth).toBe(1);
    const list = await measure(() =>
      call(notifications.loader, { url: "/notifications", user: team.member, params: {} }),
    );
    expect(list.requests).toEqual(["/rest/v1/notifications"]);
    expect(list.depth).toBe(1);
  });
});

describe("the board's filters, applied by board_view", () => {
  const load = (search: string, user = team.member) =>
    call(board.loader, { url: `${boardUrl()}${search}`, user, params: params() });

  it("filters by words (stemmed), a piece of the title, assignee (me, none, someone) and label", async () => {
    expect(titles((await load("?q=planning")).data)).toEqual(["Plan the sprint"]);
    expect(titles((await load("?q=oom")).data)).toEqual(["Book the room"]);
    expect(titles((await load("?q=100%25")).data)).toEqual([]);
    expect(titles((await load("?assignee=me")).data)).toEqual(["Plan the sprint"]);
    expect(titles((await load("?assignee=me", team.viewer)).data)).toEqual([]);
    expect(titles((await load("?assignee=none")).data)).toEqual(["Book the room"]);
    expect(titles((await load(`?assignee=${team.member.id}`, team.owner)).data)).toEqual(["Plan the sprint"]);
    // a label by its name, whatever its capitals
    expect(titles((await load("?label=design")).data)).toEqual(["Plan the sprint"]);
    expect(titles((await load("?label=DESIGN")).data)).toEqual(["Plan the sprint"]);
    expect(titles((await load("?label=design&q=room")).data)).toEqual([]);
    expect(titles((await load("?label=nonsense")).data)).toEqual([]);
  });

  it("shows 200 cards a column and says there are more; ?limit. widens one column; members come by name", async () => {
    const first = (await load("")).data as Board;
    const done = first.columns.find((c) => c.status.id === doneId)!;
    expect(done).toMatchObject({ hasMore: true, limit: 200 });
    expect(done.tasks).toHaveLength(200);
    expect(done.tasks[0].title).toBe("Filler 1");
    const wider = (await load(`?limit.${doneId}=400`)).data as Board;
    expect(wider.columns.find((c) => c.status.id === doneId)).toMatchObject({ hasMore: false, limit: 400 });
    expect(wider.columns.find((c) => c.status.id === doneId)!.tasks).toHaveLength(201);
    const names = first.members.map((m) => m.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(names).toHaveLength(4);
  });

  it("is a 404 for a project of a team the person isn't in, and for a key that isn't one", async () => {
    expect((await load("", team.outsider)).status).toBe(404);
    expect(
      (await call(board.loader, { url: boardUrl(), user: team.member, params: params({ key: "web" }) })).status,
    ).toBe(404);
  });
});
