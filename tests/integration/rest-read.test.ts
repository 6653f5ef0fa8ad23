import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRestFixture, type RestFixture } from "../support/rest-fixture.ts";

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
});
afterAll(() => f.stack.close());

const raw: RestFixture["raw"] = (path, init) => f.raw(path, init);

describe("selecting columns", () => {
  it("returns Postgres' JSON for every type: numerics and bigints as numbers, timestamps with offsets, arrays, jsonb", async () => {
    const res = await raw("/projects?select=id,budget,big,meta,tags&id=eq.1");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const text = await res.text();
    expect(text).toContain('"big":9007199254740993');
    expect(text).toContain('"budget":1200.50');
    const teams = await f.admin.from("teams").select("created_at").eq("id", 1).single();
    expect(teams.data).toEqual({ created_at: "2024-01-01T00:00:00+00:00" });
  });

  it("renames, casts and follows JSON paths", async () => {
    const { data, error } = await f.admin
      .from("projects")
      .select("title:name, budget_text:budget::text, color:meta->>color, width:meta->size->w, size:meta->size")
      .eq("id", 1)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: "Website relaunch", budget_text: "1200.50", color: "red", width: 3, size: { w: 3 } });
  });

  it("names a JSON path column after its last key", async () => {
    const { data } = await f.admin.from("projects").select("meta->>color").eq("id", 2);
    expect(data).toEqual([{ color: "blue" }]);
  });

  it("reads a view", async () => {
    const { data } = await f.admin.from("open_tasks").select("id").order("id");
    expect(data!.map((r) => r.id)).toEqual([2, 3, 4, 5, 6]);
  });
});

describe("filters", () => {
  const ids = async (q: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
    const { data, error } = await q;
    expect(error).toBeNull();
    return data!.map((r) => r.id);
  };
  const tasks = () => f.admin.from("tasks").select("id").order("id");

  it("compares with eq, neq, gt, gte, lt, lte and is", async () => {
    expect(await ids(tasks().eq("status", "todo"))).toEqual([3, 4, 6]);
    expect(await ids(tasks().neq("status", "todo"))).toEqual([1, 2, 5]);
    expect(await ids(tasks().gt("priority", 1))).toEqual([1, 3, 6]);
    expect(await ids(tasks().gte("priority", 2))).toEqual([1, 3, 6]);
    expect(await ids(tasks().lt("priority", 2))).toEqual([2, 4]);
    expect(await ids(tasks().lte("priority", 1))).toEqual([2, 4]);
    expect(await ids(tasks().is("priority", null))).toEqual([5]);
    expect(await ids(tasks().not("priority", "is", null))).toEqual([1, 2, 3, 4, 6]);
    expect(await ids(tasks().isDistinct("priority", 2))).toEqual([2, 3, 4, 5]);
  });

  it("matches patterns with like, ilike (* as %), match and imatch", async () => {
    expect(await ids(tasks().like("title", "*it*"))).toEqual([3]);
    expect(await ids(tasks().ilike("title", "*SCREEN*"))).toEqual([4]);
    expect(await ids(tasks().match({ status: "doing" }))).toEqual([2, 5]);
    expect(await ids(tasks().regexMatch("title", "^D"))).toEqual([1, 2]);
    expect(await ids(tasks().regexIMatch("title", "^d"))).toEqual([1, 2]);
    expect(await ids(tasks().likeAnyOf("title", ["Draft*", "Ship*"]))).toEqual([1, 3]);
  });

  it("takes in lists with quoted values holding commas and quotes", async () => {
    expect(await ids(tasks().in("id", [1, 3, 5]))).toEqual([1, 3, 5]);
    expect(await ids(tasks().in("title", ["A/B test pricing", "Ship it"]))).toEqual([3, 6]);
    // postgrest-js does not escape quotes inside values; PostgREST's grammar takes backslash escapes
    const res = await raw(
      `/tasks?select=id&title=in.(${encodeURIComponent('"Push \\"notifications\\", maybe",Ship it')})&order=id`,
    );
    expect((await res.json()).map((r: { id: number }) => r.id)).toEqual([3, 5]);
    expect(await ids(tasks().not("id", "in", "(1,2,3)"))).toEqual([4, 5, 6]);
    expect(await ids(tasks().in("id", []))).toEqual([]);
  });

  it("filters arrays, jsonb and ranges: cs, cd, ov, sl, sr, nxl, nxr, adj", async () => {
    const projects = () => f.admin.from("projects").select("id").order("id");
    expect(await ids(projects().contains("tags", ["web"]))).toEqual([1]);
    expect(await ids(projects().containedBy("tags", ["web", "design", "x"]))).toEqual([1, 3]);
    expect(await ids(projects().overlaps("tags", ["mobile", "web"]))).toEqual([1, 2]);
    expect(await ids(projects().contains("meta", { color: "blue" }))).toEqual([2]);
    expect(await ids(tasks().rangeLt("estimate", "[5,10)"))).toEqual([1, 2, 4, 6]);
    expect(await ids(tasks().rangeGt("estimate", "[0,2)"))).toEqual([2, 3, 6]);
    expect(await ids(tasks().rangeGte("estimate", "[2,3)"))).toEqual([2, 3, 6]);
    expect(await ids(tasks().rangeLte("estimate", "[0,3)"))).toEqual([1, 4]);
    expect(await ids(tasks().rangeAdjacent("estimate", "[5,6)"))).toEqual([2]);
    expect(await ids(tasks().contains("estimate", "[2,3)"))).toEqual([1, 2]);
  });

  it("searches text with fts, plfts, phfts and wfts, with a config", async () => {
    const projects = () => f.admin.from("projects").select("id").order("id");
    expect(await ids(projects().textSearch("search", "relaunch"))).toEqual([1]);
    expect(await ids(projects().textSearch("search", "mobile app", { type: "plain", config: "english" }))).toEqual([2]);
    expect(await ids(projects().textSearch("search", "growth experiments", { type: "phrase" }))).toEqual([3]);
    expect(await ids(projects().textSearch("search", "website or mobile", { type: "websearch" }))).toEqual([1, 2]);
    expect(await ids(projects().textSearch("name", "experiment", { config: "english" }))).toEqual([3]);
  });

  it("filters on JSON paths", async () => {
    const projects = () => f.admin.from("projects").select("id").order("id");
    expect(await ids(projects().eq("meta->>color", "red"))).toEqual([1]);
    expect(await ids(projects().eq("meta->size->w", 3))).toEqual([1]);
  });

  it("combines with or/and, nested and negated", async () => {
    expect(await ids(tasks().or("status.eq.done,priority.eq.3"))).toEqual([1, 3]);
    expect(await ids(tasks().or("and(status.eq.todo,priority.lt.3),id.eq.1"))).toEqual([1, 4, 6]);
    expect(await ids(tasks().or('title.in.("Ship it","Draft copy"),priority.is.null'))).toEqual([1, 3, 5]);
    const res = await raw("/tasks?select=id&not.and=(status.eq.todo,priority.gt.1)&order=id");
    expect((await res.json()).map((r: { id: number }) => r.id)).toEqual([1, 2, 4, 5]);
    expect(await ids(tasks().or('title.eq."Push \\"notifications\\", maybe"'))).toEqual([5]);
  });
});

describe("ordering and paging", () => {
  it("orders by several columns with nulls placement and on JSON paths", async () => {
    const { data } = await f.admin
      .from("tasks")
      .select("id")
      .order("priority", { ascending: false, nullsFirst: true })
      .order("id", { ascending: true });
    expect(data!.map((r) => r.id)).toEqual([5, 3, 1, 6, 2, 4]);
    const byColor = await f.admin
      .from("projects")
      .select("id")
      .order("meta->>color", { ascending: true, nullsFirst: false });
    expect(byColor.data!.map((r) => r.id)).toEqual([2, 1, 3]);
  });

  it("pages with limit/range and reports exact counts in Content-Range with 206", async () => {
    const { data, count, status } = await f.admin
      .from("tasks")
      .select("id", { count: "exact" })
      .order("id")
      .range(1, 2);
    expect(data!.map((r) => r.id)).toEqual([2, 3]);
    expect(count).toBe(6);
    expect(status).toBe(206);
    const res = await raw("/tasks?select=id&order=id", {
      headers: { Range: "0-1", "Range-Unit": "items", Prefer: "count=exact" },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe("0-1/6");
    const all = await raw("/tasks?select=id", { headers: { Prefer: "count=exact" } });
    expect(all.status).toBe(200);
    expect(all.headers.get("content-range")).toBe("0-5/6");
    const none = await raw("/tasks?select=id&id=gt.100", { headers: { Prefer: "count=exact" } });
    expect(none.headers.get("content-range")).toBe("*/0");
    const noCount = await raw("/tasks?select=id&limit=2");
    expect(noCount.headers.get("content-range")).toBe("0-1/*");
  });

  it("answers an offset beyond the rows with 416 PGRST103", async () => {
    const { error, status } = await f.admin.from("tasks").select("id", { count: "exact" }).range(10, 12);
    expect(status).toBe(416);
    expect(error).toMatchObject({
      code: "PGRST103",
      message: "Requested range not satisfiable",
      details: "An offset of 10 was requested, but there are only 6 rows.",
    });
  });

  it("gives planned and estimated counts", async () => {
    const planned = await f.admin.from("tasks").select("id", { count: "planned", head: true });
    expect(planned.error).toBeNull();
    expect(typeof planned.count).toBe("number");
    const estimated = await f.admin.from("tasks").select("id", { count: "estimated", head: true });
    expect(estimated.count).toBe(6);
  });
});

describe("response shapes", () => {
  it("returns one object for single(), and PGRST116 for zero or many rows", async () => {
    const one = await f.admin.from("teams").select("name").eq("id", 2).single();
    expect(one.data).toEqual({ name: "Growth" });
    const none = await f.admin.from("teams").select("name").eq("id", 99).single();
    expect(none.status).toBe(406);
    expect(none.error).toEqual({
      code: "PGRST116",
      details: "The result contains 0 rows",
      hint: null,
      message: "Cannot coerce the result to a single JSON object",
    });
    const many = await f.admin.from("teams").select("name").single();
    expect(many.error?.details).toBe("The result contains 3 rows");
    const maybe = await f.admin.from("teams").select("name").eq("id", 99).maybeSingle();
    expect(maybe).toMatchObject({ data: null, error: null });
  });

  it("returns CSV", async () => {
    const { data } = await f.admin.from("teams").select("id,name").order("id").csv();
    expect(data).toBe("id,name\n1,Core\n2,Growth\n3,Ops");
  });

  it("strips nulls on request", async () => {
    const { data } = await f.admin
      .from("members")
      .select("email,display_name")
      .eq("email", "dan@example.com")
      .stripNulls();
    expect(data).toEqual([{ email: "dan@example.com" }]);
  });

  it("refuses explain() as hosted projects do (plans disabled)", async () => {
    const { error, status } = await f.admin.from("teams").select("*").explain();
    expect(status).toBe(406);
    expect(error).toMatchObject({ code: "PGRST107" });
  });

  it("caps responses at max-rows", async () => {
    const res = await raw("/teams?select=id&limit=5000");
    expect((await res.json()).length).toBe(3);
  });
});

describe("embedding", () => {
  it("embeds many-to-one, one-to-many and many-to-many, nested", async () => {
    const { data, error } = await f.admin
      .from("projects")
      .select("name, team:teams(name), tasks(title, labels(name))")
      .eq("id", 2)
      .order("id", { referencedTable: "tasks" })
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      name: "Mobile app",
      team: { name: "Core" },
      tasks: [
        { title: "Login screen", labels: [{ name: "bug" }, { name: "urgent" }] },
        { title: 'Push "notifications", maybe', labels: [{ name: "feature" }] },
      ],
    });
  });

  it("disambiguates by foreign key name or column, and reports ambiguity with PGRST201", async () => {
    const amb = await f.admin.from("tasks").select("id, members(email)").eq("id", 1);
    expect(amb.status).toBe(300);
    expect(amb.error).toMatchObject({
      code: "PGRST201",
      message: "Could not embed because more than one relationship was found for 'tasks' and 'members'",
      hint: "Try changing 'members' to one of the following: 'members!tasks_assignee_id_fkey', 'members!tasks_reviewer_id_fkey'. Find the desired relationship in the 'details' key.",
    });
    const { data } = await f.admin
      .from("tasks")
      .select("id, assignee:members!assignee_id(email), reviewer:members!tasks_reviewer_id_fkey(email)")
      .eq("id", 1)
      .single();
    expect(data).toEqual({ id: 1, assignee: { email: "alice@example.com" }, reviewer: { email: "bob@example.com" } });
  });

  it("follows self references both ways", async () => {
    const { data } = await f.admin
      .from("members")
      .select("email, manager:manager_id(email), reports:members!manager_id(email)")
      .eq("email", "alice@example.com")
      .order("email", { referencedTable: "reports" })
      .single();
    expect(data).toEqual({
      email: "alice@example.com",
      manager: null,
      reports: [{ email: "bob@example.com" }, { email: "carol@example.com" }],
    });
  });

  it("filters, orders and limits embedded resources, and !inner filters the parents", async () => {
    const { data } = await f.admin
      .from("projects")
      .select("id, tasks(id)")
      .eq("tasks.status", "todo")
      .order("id", { referencedTable: "tasks", ascending: false })
      .limit(1, { referencedTable: "tasks" })
      .order("id");
    expect(data).toEqual([
      { id: 1, tasks: [{ id: 3 }] },
      { id: 2, tasks: [{ id: 4 }] },
      { id: 3, tasks: [{ id: 6 }] },
    ]);
    const inner = await f.admin.from("projects").select("id, tasks!inner(id)").eq("tasks.status", "doing").order("id");
    expect(inner.data).toEqual([
      { id: 1, tasks: [{ id: 2 }] },
      { id: 2, tasks: [{ id: 5 }] },
    ]);
    const orEmbedded = await f.admin
      .from("projects")
      .select("id, tasks(id)")
      .or("priority.eq.1,priority.is.null", { referencedTable: "tasks" })
      .eq("id", 2);
    expect(orEmbedded.data).toEqual([{ id: 2, tasks: [{ id: 4 }, { id: 5 }] }]);
  });

  it("filters parents on whether an embedding is null", async () => {
    const { data } = await f.admin.from("tasks").select("id, assignee:members!assignee_id(id)").is("assignee", null);
    expect(data).toEqual([{ id: 3, assignee: null }]);
    const some = await f.admin
      .from("members")
      .select("email, reports:members!manager_id(id)")
      .not("reports", "is", null)
      .order("email");
    expect(some.data!.map((m) => m.email)).toEqual(["alice@example.com", "carol@example.com"]);
  });

  it("spreads a to-one relation and orders by a to-one column", async () => {
    const { data } = await f.admin.from("projects").select("name, ...teams(team_name:name)").order("id").limit(2);
    expect(data).toEqual([
      { name: "Website relaunch", team_name: "Core" },
      { name: "Mobile app", team_name: "Core" },
    ]);
    const res = await raw("/projects?select=id,teams(name)&order=teams(name).desc,id.asc");
    expect((await res.json()).map((r: { id: number }) => r.id)).toEqual([3, 1, 2]);
  });

  it("reports a missing relationship with PGRST200 and a filter on an unselected embed with PGRST108", async () => {
    const { error, status } = await f.admin.from("teams").select("id, labels(*)");
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: "PGRST200",
      message: "Could not find a relationship between 'teams' and 'labels' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'teams' and 'labels' in the schema 'rt', but no matches were found.",
    });
    const notEmbedded = await f.admin.from("projects").select("id").eq("tasks.status", "todo");
    expect(notEmbedded.error).toMatchObject({ code: "PGRST108" });
  });
});

describe("errors", () => {
  it("answers an unknown table with 404 PGRST205 and a hint", async () => {
    const { error, status } = await f.admin.from("teamz").select("*");
    expect(status).toBe(404);
    expect(error).toEqual({
      code: "PGRST205",
      details: null,
      hint: "Perhaps you meant the table 'rt.teams'",
      message: "Could not find the table 'rt.teamz' in the schema cache",
    });
  });

  it("answers an unknown column with 400 42703", async () => {
    const { error, status } = await f.admin.from("teams").select("nope");
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "42703", message: "column teams.nope does not exist" });
    const filter = await f.admin.from("teams").select("id").eq("nope", 1);
    expect(filter.error?.code).toBe("42703");
  });

  it("answers unparseable query strings with 400 PGRST100", async () => {
    for (const qs of ["select=id,name)", "id=nope.1", "order=id.sideways", "or=(id.eq.1", "select=a!!b(*)", "id=eq"]) {
      const res = await raw(`/teams?${qs}`);
      expect(res.status, qs).toBe(400);
      expect((await res.json()).code, qs).toBe("PGRST100");
    }
  });

  it("rejects a profile outside the exposed schemas with 406 PGRST106", async () => {
    const res = await raw("/users", { headers: { "Accept-Profile": "auth" } });
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      code: "PGRST106",
      details: null,
      hint: "Only the following schemas are exposed: public, rt",
      message: "Invalid schema: auth",
    });
  });

  it("does not reach unexposed schemas through the default profile", async () => {
    const res = await fetch(`${f.url}/schema_migrations`, { headers: { apikey: f.stack.serviceRoleKey } });
    expect(res.status).toBe(404);
  });

  it("rejects invalid and expired JWTs with 401", async () => {
    const bad = await raw("/teams", { headers: { Authorization: "Bearer not.a.jwt" } });
    expect(bad.status).toBe(401);
    expect((await bad.json()).code).toBe("PGRST301");
    const expired = await f.stack.keys.sign({ sub: "x", role: "authenticated" }, { expiresIn: -10 });
    const res = await raw("/teams", { headers: { Authorization: `Bearer ${expired}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "PGRST303", message: "JWT expired" });
  });
});
