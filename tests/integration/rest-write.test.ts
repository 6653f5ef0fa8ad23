import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALICE, BOB, startRestFixture, type RestFixture } from "../support/rest-fixture.ts";

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture();
});
afterAll(() => f.stack.close());

const raw: RestFixture["raw"] = (path, init) => f.raw(path, init);

describe("insert", () => {
  it("inserts one row: 201, no body by default, the row with select()", async () => {
    const minimal = await f.admin.from("labels").insert({ name: "docs" });
    expect(minimal).toMatchObject({ status: 201, data: null, error: null });
    const { data, status } = await f.admin.from("labels").insert({ name: "infra" }).select("name").single();
    expect(status).toBe(201);
    expect(data).toEqual({ name: "infra" });
  });

  it("inserts many rows, missing keys as null (columns=) or as defaults (missing=default)", async () => {
    const { data, error } = await f.admin
      .from("teams")
      .insert([{ name: "A" }, { name: "B", created_at: "2025-05-05T00:00:00Z" }])
      .select("name, created_at");
    expect(error).toMatchObject({ code: "23502" });
    expect(data).toBeNull();
    const withDefaults = await f.admin
      .from("teams")
      .insert([{ name: "A" }, { name: "B", created_at: "2025-05-05T00:00:00Z" }], { defaultToNull: false })
      .select("name, created_at");
    expect(withDefaults.data).toEqual([
      { name: "A", created_at: "2024-01-01T00:00:00+00:00" },
      { name: "B", created_at: "2025-05-05T00:00:00+00:00" },
    ]);
  });

  it("writes arrays, jsonb, enums and bigints as given", async () => {
    const res = await raw("/projects?select=big,meta,tags", {
      method: "POST",
      headers: { Prefer: "return=representation" },
      body: '{"team_id":3,"owner_id":"00000000-0000-0000-0000-00000000000d","name":"Big","big":9007199254740993,"meta":{"a":[1,{"b":null}]},"tags":["x","y z"]}',
    });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('[{"big":9007199254740993,"meta":{"a": [1, {"b": null}]},"tags":["x","y z"]}]');
  });

  it("gives Location with return=headers-only, and Preference-Applied", async () => {
    const res = await raw("/labels", {
      method: "POST",
      headers: { Prefer: "return=headers-only" },
      body: '{"name":"ops"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toMatch(/^\/labels\?id=eq\.\d+$/);
    expect(res.headers.get("preference-applied")).toBe("return=headers-only");
    expect(res.headers.get("content-range")).toBe("*/*");
    expect(await res.text()).toBe("");
  });

  it("upserts with merge-duplicates and ignore-duplicates, on a chosen conflict target", async () => {
    const merged = await f.admin
      .from("labels")
      .upsert([{ name: "bug" }, { name: "chore" }], { onConflict: "name" })
      .select("name");
    expect(merged.error).toBeNull();
    expect(merged.data).toEqual([{ name: "bug" }, { name: "chore" }]);
    const ignored = await f.admin
      .from("labels")
      .upsert([{ name: "bug" }, { name: "spike" }], { onConflict: "name", ignoreDuplicates: true })
      .select("name");
    expect(ignored.data).toEqual([{ name: "spike" }]);
    const byPk = await f.admin.from("teams").upsert({ id: 3, name: "Operations" }).select("id, name").single();
    expect(byPk.data).toEqual({ id: 3, name: "Operations" });
    const res = await raw("/labels?on_conflict=name", {
      method: "POST",
      headers: { Prefer: "resolution=merge-duplicates,return=minimal,count=exact" },
      body: '[{"name":"bug"}]',
    });
    expect(res.headers.get("preference-applied")).toBe("resolution=merge-duplicates, return=minimal, count=exact");
    expect(res.headers.get("content-range")).toBe("*/1");
  });

  it("maps constraint violations: unique 409 23505, foreign key 409 23503, not null 400 23502, check 400 23514", async () => {
    const dup = await f.admin.from("labels").insert({ name: "feature" });
    expect(dup.status).toBe(409);
    expect(dup.error).toMatchObject({
      code: "23505",
      message: 'duplicate key value violates unique constraint "labels_name_key"',
      details: "Key (name)=(feature) already exists.",
    });
    const fk = await f.admin.from("tasks").insert({ project_id: 999, title: "x" });
    expect(fk.status).toBe(409);
    expect(fk.error?.code).toBe("23503");
    const nn = await f.admin.from("tasks").insert({ project_id: 1 });
    expect(nn.status).toBe(400);
    expect(nn.error?.code).toBe("23502");
    const check = await f.admin.from("notes").insert({ owner: ALICE, body: "x".repeat(300) });
    expect(check.status).toBe(400);
    expect(check.error?.code).toBe("23514");
  });

  it("rejects unknown columns with PGRST204 and mismatched keys with PGRST102", async () => {
    const { error, status } = await f.admin.from("labels").insert({ name: "x", colour: "red" });
    expect(status).toBe(400);
    expect(error).toEqual({
      code: "PGRST204",
      details: null,
      hint: null,
      message: "Could not find the 'colour' column of 'labels' in the schema cache",
    });
    const res = await raw("/labels", { method: "POST", body: '[{"name":"p"},{"nom":"q"}]' });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("PGRST102");
    const bad = await raw("/labels", { method: "POST", body: "{nope" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "PGRST102", message: "Empty or invalid json" });
  });

  it("refuses bodies over the size limit with 413", async () => {
    const res = await raw("/labels", {
      method: "POST",
      body: JSON.stringify({ name: "x".repeat(f.stack.config.maxBodyBytes + 10) }),
    });
    expect(res.status).toBe(413);
  });
});

describe("update and delete", () => {
  it("updates matching rows and returns them", async () => {
    const { data, count, status } = await f.admin
      .from("tasks")
      .update({ priority: 9 }, { count: "exact" })
      .eq("project_id", 3)
      .select("id, priority");
    expect(status).toBe(200);
    expect(count).toBe(1);
    expect(data).toEqual([{ id: 6, priority: 9 }]);
    const res = await raw("/tasks?project_id=eq.3", { method: "PATCH", body: '{"priority":2}' });
    expect(res.status).toBe(204);
    expect(res.headers.get("content-range")).toBe("0-0/*");
  });

  it("deletes with filters and returns the rows with embedded resources", async () => {
    await f.admin.from("labels").insert({ name: "temp" });
    const { data } = await f.admin.from("labels").delete().eq("name", "temp").select("name, tasks(id)");
    expect(data).toEqual([{ name: "temp", tasks: [] }]);
    const gone = await f.admin.from("labels").select("id").eq("name", "temp");
    expect(gone.data).toEqual([]);
  });

  it("rolls back a change that would affect more than max-affected rows (handling=strict)", async () => {
    // maxAffected() is typed for PostgREST 13 schemas only; an untyped client still sends it
    type WithMaxAffected = { maxAffected(n: number): PromiseLike<{ error: unknown; status: number }> };
    const update = f.admin.from("tasks").update({ priority: 0 }).gte("id", 1) as unknown as WithMaxAffected;
    const { error, status } = await update.maxAffected(2);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "PGRST124", details: "The query affects 6 rows" });
    const { data } = await f.admin.from("tasks").select("id").eq("priority", 0);
    expect(data).toEqual([]);
  });

  it("rolls back an update for single() when it touches several rows", async () => {
    const { error, status } = await f.admin
      .from("tasks")
      .update({ title: "same" })
      .eq("project_id", 1)
      .select()
      .single();
    expect(status).toBe(406);
    expect(error?.code).toBe("PGRST116");
    const { data } = await f.admin.from("tasks").select("id").eq("title", "same");
    expect(data).toEqual([]);
  });

  it("rolls everything back with Prefer: tx=rollback", async () => {
    const res = await raw("/labels?select=name", {
      method: "POST",
      headers: { Prefer: "return=representation, tx=rollback" },
      body: '{"name":"phantom"}',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([{ name: "phantom" }]);
    expect(res.headers.get("preference-applied")).toBe("return=representation, tx=rollback");
    const { data } = await f.admin.from("labels").select("id").eq("name", "phantom");
    expect(data).toEqual([]);
  });

  it("replaces one row with PUT, filtered by its primary key", async () => {
    const res = await raw("/labels?id=eq.100", {
      method: "PUT",
      headers: { Prefer: "return=representation" },
      body: '{"id":100,"name":"put"}',
    });
    // PostgREST answers 201 when the PUT inserted the row, 200 when it replaced one
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([{ id: 100, name: "put" }]);
    const again = await raw("/labels?id=eq.100", {
      method: "PUT",
      headers: { Prefer: "return=representation" },
      body: '{"id":100,"name":"put again"}',
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual([{ id: 100, name: "put again" }]);
    const mismatch = await raw("/labels?id=eq.100", { method: "PUT", body: '{"id":101,"name":"put"}' });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).code).toBe("PGRST115");
  });
});

describe("row-level security and grants", () => {
  it("shows each user their rows and public ones; anon only public ones", async () => {
    const asAlice = await f.alice.from("notes").select("body").order("id");
    expect(asAlice.data).toEqual([{ body: "alice public" }, { body: "alice private" }]);
    const asBob = await f.bob.from("notes").select("body").order("id");
    expect(asBob.data).toEqual([{ body: "alice public" }, { body: "bob private" }]);
    const asAnon = await f.anon.from("notes").select("body");
    expect(asAnon.data).toEqual([{ body: "alice public" }]);
  });

  it("fills defaults from the JWT and refuses rows for someone else (403 42501)", async () => {
    const mine = await f.bob.from("notes").insert({ body: "bob's new" }).select("owner, body").single();
    expect(mine.data).toEqual({ owner: BOB, body: "bob's new" });
    const forged = await f.bob.from("notes").insert({ owner: ALICE, body: "forged" });
    expect(forged.status).toBe(403);
    expect(forged.error).toMatchObject({
      code: "42501",
      message: 'new row violates row-level security policy for table "notes"',
    });
  });

  it("answers anon without the privilege with 401 and users with 403", async () => {
    const anon = await f.anon.from("secrets").select("*");
    expect(anon.status).toBe(401);
    expect(anon.error).toMatchObject({ code: "42501", message: "permission denied for table secrets" });
    const user = await f.alice.from("secrets").select("*");
    expect(user.status).toBe(403);
  });

  it("updates and deletes only what the policies allow", async () => {
    const { data } = await f.bob.from("notes").update({ body: "hijacked" }).eq("body", "alice public").select();
    expect(data).toEqual([]);
    const del = await f.alice.from("notes").delete({ count: "exact" }).eq("body", "alice private");
    expect(del.count).toBe(1);
  });
});
