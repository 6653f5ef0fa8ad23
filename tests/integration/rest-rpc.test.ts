import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, startRestFixture, type RestFixture } from "../support/rest-fixture.ts";

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
});
afterAll(() => f.stack.close());

const raw: RestFixture["raw"] = (path, init) => f.raw(path, init);

describe("calling functions", () => {
  it("returns a scalar, choosing the overload by argument names", async () => {
    expect(await f.admin.rpc("add", { a: 1, b: 2 })).toMatchObject({ data: 3, status: 200 });
    expect((await f.admin.rpc("add", { a: 1, b: 2, c: 3 })).data).toBe(6);
  });

  it("uses parameter defaults", async () => {
    expect((await f.admin.rpc("hello")).data).toBe("hello world");
    expect((await f.admin.rpc("hello", { name: "you" })).data).toBe("hello you");
  });

  it("answers void functions with 204", async () => {
    const r = await f.admin.rpc("touch_team", { team: 2 });
    expect(r).toMatchObject({ status: 204, data: null, error: null });
    const { data } = await f.admin.from("teams").select("name").eq("id", 2).single();
    expect(data).toEqual({ name: "Growth!" });
  });

  it("filters, orders, selects and pages set-returning functions like tables", async () => {
    const { data, count } = await f.admin
      .rpc("tasks_by_status", { s: "todo" }, { count: "exact" })
      .select("id, title, project:projects(name)")
      .gte("id", 4)
      .order("id", { ascending: false })
      .limit(1);
    expect(data).toEqual([{ id: 6, title: "A/B test pricing", project: { name: "Growth experiments" } }]);
    expect(count).toBe(2);
  });

  it("returns table-returning functions as rows", async () => {
    const { data } = await f.admin.rpc("team_stats").select("team_name, project_count").eq("project_count", 0);
    expect(data).toEqual([{ team_name: "Ops", project_count: 0 }]);
  });

  it("returns setof scalars as an array and a single composite as an object", async () => {
    expect((await f.admin.rpc("project_tags", { p: 1 })).data).toEqual(["web", "design"]);
    const { data } = await f.admin.rpc("first_project").select("id, name");
    expect(data).toEqual({ id: 1, name: "Website relaunch" });
  });

  it("passes the whole body to a single unnamed json parameter, and to a named one with params=single-object", async () => {
    expect((await f.admin.rpc("echo", { any: ["thing", 1] })).data).toEqual({ any: ["thing", 1] });
    const res = await raw("/rpc/summarize", {
      method: "POST",
      headers: { Prefer: "params=single-object" },
      body: '{"z":1,"a":2}',
    });
    expect(await res.json()).toEqual({ keys: ["a", "z"] });
    expect((await f.admin.rpc("summarize", { payload: { q: 1 } })).data).toEqual({ keys: ["q"] });
  });

  it("converts JSON arrays to Postgres arrays", async () => {
    expect((await f.admin.rpc("sum_all", { vals: [1, 2, 3] })).data).toBe(6);
  });

  it("runs as the caller", async () => {
    expect((await f.alice.rpc("whoami")).data).toBe(`${ALICE}:authenticated`);
    expect((await f.anon.rpc("whoami")).data).toBe("anon:anon");
  });
});

describe("GET and HEAD", () => {
  it("calls stable and immutable functions with query-string arguments", async () => {
    expect((await f.admin.rpc("add", { a: 2, b: 5 }, { get: true })).data).toBe(7);
    expect((await f.admin.rpc("sum_all", { vals: [4, 5] }, { get: true })).data).toBe(9);
    const res = await raw("/rpc/tasks_by_status?s=doing&select=id&order=id.desc");
    expect(await res.json()).toEqual([{ id: 5 }, { id: 2 }]);
    const head = await f.admin.rpc("tasks_by_status", { s: "todo" }, { head: true, count: "exact" });
    expect(head).toMatchObject({ status: 200, count: 3, data: null });
  });

  it("refuses a volatile function that writes over GET with 405", async () => {
    const res = await raw("/rpc/next_title?p_id=1");
    expect(res.status).toBe(405);
    expect((await res.json()).code).toBe("25006");
    const other = await raw("/rpc/add", { method: "PATCH", body: "{}" });
    expect(other.status).toBe(405);
    expect(await other.json()).toMatchObject({ code: "PGRST101", message: "Cannot use the PATCH method on RPC" });
  });
});

describe("errors", () => {
  it("reports an unknown function or arguments with 404 PGRST202 and a hint", async () => {
    const { error, status } = await f.admin.rpc("hellos", { name: "x", a: 1 });
    expect(status).toBe(404);
    expect(error).toEqual({
      code: "PGRST202",
      details:
        "Searched for the function rt.hellos with parameters a, name or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
      hint: "Perhaps you meant to call the function rt.hello",
      message: "Could not find the function rt.hellos(a, name) in the schema cache",
    });
    const none = await f.admin.rpc("zzz");
    expect(none.error).toMatchObject({
      message: "Could not find the function rt.zzz without parameters in the schema cache",
      hint: null,
    });
    const wrongArgs = await f.admin.rpc("add", { a: 1, x: 2 });
    expect(wrongArgs.error).toMatchObject({
      code: "PGRST202",
      hint: "Perhaps you meant to call the function rt.add(a, b)",
    });
  });

  it("reports overloads it cannot choose between with 300 PGRST203", async () => {
    const { error, status } = await f.admin.rpc("dup", { x: 1 });
    expect(status).toBe(300);
    expect(error).toMatchObject({
      code: "PGRST203",
      hint: "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    });
    expect(error!.message).toMatch(
      /^Could not choose the best candidate function between: rt\.dup\(x => (integer|text)\), rt\.dup\(x => (integer|text)\)$/,
    );
  });

  it("passes RAISE through: P0001 as 400 with detail and hint, PTxyz as status xyz", async () => {
    const plain = await f.admin.rpc("fail_plain");
    expect(plain.status).toBe(400);
    expect(plain.error).toEqual({
      code: "P0001",
      message: "things went wrong",
      details: "the detail",
      hint: "the hint",
    });
    const pay = await f.admin.rpc("fail_payment");
    expect(pay.status).toBe(402);
    expect(pay.error).toEqual({ code: "PT402", message: "payment required", details: "top up", hint: "pay" });
  });

  it("reports a bad argument value as Postgres does", async () => {
    const { error, status } = await f.admin.rpc("add", { a: "one", b: 2 });
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "22P02", message: 'invalid input syntax for type integer: "one"' });
  });
});
