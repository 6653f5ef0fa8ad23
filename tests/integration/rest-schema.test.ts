import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRestFixture, type RestFixture } from "../support/rest-fixture.ts";

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
});
afterAll(() => f.stack.close());

const raw: RestFixture["raw"] = (path, init) => f.raw(path, init);

describe("the schema cache", () => {
  it("picks up new tables after NOTIFY pgrst, 'reload schema'", async () => {
    await f.stack.db.exec("create table rt.late_arrival (id int primary key); insert into rt.late_arrival values (7);");
    expect((await f.admin.from("late_arrival").select("id")).status).toBe(404);
    await f.stack.db.exec("notify pgrst, 'reload schema'");
    let status = 0;
    for (let i = 0; i < 500 && status !== 200; i++) status = (await raw("/late_arrival?select=id")).status;
    expect(status).toBe(200);
    expect((await f.admin.from("late_arrival").select("id")).data).toEqual([{ id: 7 }]);
  });

  it("embeds through a view using its base table's foreign keys", async () => {
    const { data, error } = await f.admin.from("open_tasks").select("id, projects(name)").eq("id", 4);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 4, projects: { name: "Mobile app" } }]);
  });

  it("counts embedded rows with rel(count)", async () => {
    const { data } = await f.admin.from("projects").select("name, tasks(count)").order("id");
    expect(data).toEqual([
      { name: "Website relaunch", tasks: [{ count: 3 }] },
      { name: "Mobile app", tasks: [{ count: 2 }] },
      { name: "Growth experiments", tasks: [{ count: 1 }] },
    ]);
  });

  it("keeps aggregates disabled as on hosted projects, until pgrst.db_aggregates_enabled is set for authenticator", async () => {
    const off = await f.admin.from("tasks").select("status, count()");
    expect(off.status).toBe(400);
    expect(off.error).toMatchObject({ code: "PGRST123", message: "Use of aggregate functions is not allowed" });
    await f.stack.db.exec(
      `do $$ begin execute format('alter role authenticator in database %I set pgrst.db_aggregates_enabled = %L', current_database(), 'true'); end $$`,
    );
    await f.reload();
    const { data, error } = await f.admin.from("tasks").select("status, count()").order("status");
    expect(error).toBeNull();
    expect(data).toEqual([
      { status: "todo", count: 3 },
      { status: "doing", count: 2 },
      { status: "done", count: 1 },
    ]);
    const sums = await f.admin.from("projects").select("total:budget.sum(), top:budget.max(), avg:big.avg()::bigint");
    expect(sums.data).toEqual([{ total: 6200.5, top: 5000, avg: 4503599627370497 }]);
    const nested = await f.admin.from("projects").select("name, tasks(priority.max())").eq("id", 1);
    expect(nested.data).toEqual([{ name: "Website relaunch", tasks: [{ max: 3 }] }]);
  });
});

describe("hostile query strings", () => {
  const pieces = [
    "select",
    "id",
    "or",
    "and",
    "order",
    "limit",
    "=",
    "&",
    "(",
    ")",
    ",",
    ".",
    "eq",
    "in",
    "not",
    "is",
    "null",
    '"',
    "'",
    ";",
    "--",
    "drop table rt.teams",
    "::",
    "->",
    "->>",
    "!",
    "inner",
    "*",
    "%00",
    "%22",
    "%2C",
    "tasks",
    "teams(*)",
    "count()",
    "1",
    "-1",
    "\\",
  ];
  function* random(seed: number) {
    let s = seed;
    for (;;) {
      s = (s * 1103515245 + 12345) % 2147483648;
      yield s / 2147483648;
    }
  }

  it("answers 4xx (never 5xx) to a hundred and fifty random query strings, and runs none of them", async () => {
    const rnd = random(7);
    const next = () => rnd.next().value as number;
    for (let i = 0; i < 150; i++) {
      let qs = "";
      const n = 1 + Math.floor(next() * 10);
      for (let j = 0; j < n; j++) qs += pieces[Math.floor(next() * pieces.length)];
      const res = await raw(`/tasks?${qs}`);
      expect(res.status, qs).toBeLessThan(500);
      if (res.status >= 400) {
        const body = await res.json();
        expect(typeof body.code, qs).toBe("string");
      } else await res.arrayBuffer();
    }
    const { data } = await f.admin.from("teams").select("id");
    expect(data!.length).toBe(3);
  });

  it("treats injection attempts in names and values as names and values", async () => {
    const value = await f.admin.from("teams").select("id").eq("name", "x'; drop table rt.teams; --");
    expect(value).toMatchObject({ data: [], error: null });
    const name = await raw(`/teams?select=${encodeURIComponent('"id\\"; drop table rt.teams; --"')}`);
    expect(name.status).toBe(400);
    expect((await name.json()).code).toBe("42703");
    const cast = await raw(`/teams?select=${encodeURIComponent("id::text;drop table rt.teams")}`);
    expect(cast.status).toBe(400);
    const order = await raw(`/teams?order=${encodeURIComponent("id;drop table rt.teams")}`);
    expect(order.status).toBe(400);
    expect((await f.admin.from("teams").select("id")).data!.length).toBe(3);
  });
});
