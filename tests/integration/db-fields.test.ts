/**
 * Fields the team defines (issue 38, docs/product.md §17; …_fields.sql),
 * through the REST API with real tokens, as any client would send them: a
 * member sets values the database checks (kind, range, options, team,
 * address); a viewer reads and is refused writing; another team sees nothing
 * and can't use another team's field. The limits and what removing an
 * option, a field or a person does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownMessage } from "../../app/lib/db-messages.ts";
import { dbPeople, failure } from "../support/db-people.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const { call, teamWith, project, task } = dbPeople(() => stack);

async function rest(
  userId: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a REST body of whatever shape the test reads
): Promise<{ status: number; body: any }> {
  const token = await stack.keys.sign(
    { sub: userId, role: "authenticated", aud: "authenticated", email: `${userId}@example.com` },
    { expiresIn: 600 },
  );
  const res = await fetch(`${stack.url}/rest/v1/${path}`, {
    method,
    headers: {
      apikey: stack.anonKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      prefer: "return=representation",
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A team with an admin, a member and a viewer, a project WEB with a task, and Points and Customer. */
async function setup() {
  const t = await teamWith({ adam: "admin", mia: "member", vic: "viewer" });
  const p = await project(t.team);
  const main = await task(p, { title: "Main" });
  const points = await rest(t.adam, "POST", "fields", {
    project_id: p,
    name: "Points",
    kind: "number",
    number_min: 0,
    number_max: 100,
    sum: true,
    on_card: true,
  });
  expect(points.status).toBe(201);
  const customer = await rest(t.adam, "POST", "fields", { project_id: p, name: "Customer", kind: "select" });
  expect(customer.status).toBe(201);
  const options = await rest(t.adam, "POST", "field_options", [
    { field_id: customer.body[0].id, name: "Acme", color: "blue" },
    { field_id: customer.body[0].id, name: "Globex", color: "green" },
  ]);
  expect(options.status).toBe(201);
  return {
    ...t,
    adam: t.adam as string,
    mia: t.mia as string,
    vic: t.vic as string,
    project: p,
    task: main.id,
    points: points.body[0].id as string,
    customer: customer.body[0].id as string,
    acme: options.body[0].id as string,
    globex: options.body[1].id as string,
  };
}

const setValue = (userId: string, taskId: string, fieldId: string, value: unknown) =>
  rest(userId, "POST", "field_values", { task_id: taskId, field_id: fieldId, value });

describe("values through REST", () => {
  it("a member's values are checked by the database and refused in the field's words", async () => {
    const s = await setup();
    for (const bad of ["abc", 101, -1, [5], true]) {
      const res = await setValue(s.mia, s.task, s.points, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.details).toBe("field_value_invalid");
      expect(knownMessage(res.body)).toBe("Points is a number from 0 to 100.");
    }
    const unknown = await setValue(s.mia, s.task, s.customer, "Initech");
    expect(unknown.status).toBe(400);
    expect(knownMessage(unknown.body)).toBe("Customer is one of: Acme, Globex.");

    const ok = await setValue(s.mia, s.task, s.points, "5");
    expect(ok.status).toBe(201);
    expect(ok.body[0]).toMatchObject({ value: 5, number_value: 5 });
    // an option by its name (any capitals) is stored as its id
    const byName = await setValue(s.mia, s.task, s.customer, "acme");
    expect(byName.body[0].value).toBe(s.acme);
    const [row] = await call<{ fields: Record<string, unknown> }>(s.mia, "select fields from tasks where id = $1", [
      s.task,
    ]);
    expect(row.fields).toEqual({ [s.points]: 5, [s.customer]: s.acme });

    // a change through PATCH is checked the same way
    const patch = await rest(s.mia, "PATCH", `field_values?task_id=eq.${s.task}&field_id=eq.${s.points}`, {
      value: 101,
    });
    expect(patch.status).toBe(400);
    expect(knownMessage(patch.body)).toBe("Points is a number from 0 to 100.");
  });

  it("a viewer reads the values and can't write them; another team sees nothing and can't use the field", async () => {
    const s = await setup();
    await setValue(s.mia, s.task, s.points, 8);
    const write = await setValue(s.vic, s.task, s.points, 9);
    expect(write.status).toBe(403);
    const viewerRead = await rest(s.vic, "GET", `field_values?task_id=eq.${s.task}&select=value`);
    expect(viewerRead.body).toEqual([{ value: 8 }]);
    const clear = await rest(s.vic, "DELETE", `field_values?task_id=eq.${s.task}`);
    expect(clear.body).toEqual([]);
    const fieldDef = await rest(s.vic, "POST", "fields", { project_id: s.project, name: "Mine", kind: "text" });
    expect(fieldDef.status).toBe(403);

    const other = await teamWith({});
    const otherProject = await project(other.team, "OTH");
    const otherTask = await task(otherProject);
    expect((await rest(other.owner, "GET", `fields?project_id=eq.${s.project}`)).body).toEqual([]);
    expect((await rest(other.owner, "GET", `field_values?task_id=eq.${s.task}`)).body).toEqual([]);
    expect((await rest(other.owner, "GET", `field_options?field_id=eq.${s.customer}`)).body).toEqual([]);
    // their own task with our field: refused
    const misuse = await setValue(other.owner, otherTask.id, s.points, 3);
    expect(misuse.status).toBe(400);
    expect(misuse.body.details).toBe("field_not_in_project");
    // our task: not theirs to write
    expect((await setValue(other.owner, s.task, s.points, 3)).status).toBe(403);
  });

  it("task_table sorts, groups, filters and sums by a field through REST; another project's field does nothing", async () => {
    const s = await setup();
    const second = await task(s.project, { title: "Second" });
    const third = await task(s.project, { title: "Third" });
    await setValue(s.mia, s.task, s.points, 30);
    await setValue(s.mia, second.id, s.points, 10);
    await setValue(s.mia, s.task, s.customer, s.acme);
    await setValue(s.mia, second.id, s.customer, s.acme);
    await setValue(s.mia, third.id, s.customer, s.globex);
    type Row = { title: string; group: string | null; sums: Record<string, number> | null };
    const table = async (userId: string, args: Record<string, unknown>) =>
      (await rest(userId, "POST", "rpc/task_table", { project_id: s.project, ...args })).body as Row[] | null;

    const byPoints = await table(s.vic, { sort: `field:${s.points}` });
    expect(byPoints!.map((r) => r.title)).toEqual(["Second", "Main", "Third"]);
    const grouped = await table(s.mia, { group: `field:${s.customer}`, sort: `-field:${s.points}` });
    expect(grouped!.map((r) => [r.title, r.group, r.sums])).toEqual([
      ["Main", s.acme, { [s.points]: 40 }],
      ["Second", s.acme, { [s.points]: 40 }],
      ["Third", s.globex, { [s.points]: 0 }],
    ]);
    const filtered = await table(s.mia, { fields: JSON.stringify({ [s.customer]: "none" }) });
    expect(filtered).toEqual([]);
    expect((await table(s.mia, { fields: JSON.stringify({ [s.points]: "10" }) }))!.map((r) => r.title)).toEqual([
      "Second",
    ]);

    // another team: its own project's list with our field as sort, group and filter is its list as it was
    const other = await teamWith({});
    const otherProject = await project(other.team, "OTH");
    await task(otherProject, { title: "Theirs" });
    const theirs = (
      await rest(other.owner, "POST", "rpc/task_table", {
        project_id: otherProject,
        sort: `field:${s.points}`,
        group: `field:${s.customer}`,
        fields: JSON.stringify({ [s.customer]: s.acme }),
      })
    ).body as Row[];
    expect(theirs.map((r) => [r.title, r.group, r.sums])).toEqual([["Theirs", null, null]]);
    // and ours is nothing to them
    expect(await table(other.owner, {})).toEqual([]);
  });

  it("each kind takes what it should", async () => {
    const s = await setup();
    const kinds = ["text", "date", "multi_select", "checkbox", "link", "person"] as const;
    const ids: Record<string, string> = {};
    for (const kind of kinds) {
      const res = await rest(s.adam, "POST", "fields", { project_id: s.project, name: `F ${kind}`, kind });
      ids[kind] = res.body[0].id;
    }
    await rest(s.adam, "POST", "field_options", [
      { field_id: ids.multi_select, name: "Red" },
      { field_id: ids.multi_select, name: "Blue" },
    ]);
    const outsider = (await teamWith({})).owner;
    const refused: [string, unknown, string][] = [
      ["text", "x".repeat(501), "F text is text of at most 500 characters."],
      ["date", "2024-02-30", "F date is a date (YYYY-MM-DD)."],
      ["multi_select", ["Red", "Green"], "F multi_select takes options among: Red, Blue."],
      ["checkbox", "maybe", "F checkbox is checked or not (true or false)."],
      ["link", "javascript:alert(1)", "F link is an address starting with http:// or https://."],
      ["person", outsider, "F person is a member of this team."],
    ];
    for (const [kind, value, message] of refused) {
      const res = await setValue(s.mia, s.task, ids[kind], value);
      expect(res.status, kind).toBe(400);
      expect(knownMessage(res.body), kind).toBe(message);
    }
    const accepted: [string, unknown, unknown][] = [
      ["text", "  Hello  ", "Hello"],
      ["date", "2027-03-04", "2027-03-04"],
      ["checkbox", "on", true],
      ["link", "https://example.com/a?b=c", "https://example.com/a?b=c"],
      ["person", s.mia, s.mia],
    ];
    for (const [kind, value, stored] of accepted) {
      const res = await setValue(s.mia, s.task, ids[kind], value);
      expect(res.status, kind).toBe(201);
      expect(res.body[0].value, kind).toEqual(stored);
    }
    const multi = await setValue(s.mia, s.task, ids.multi_select, ["blue", "Red"]);
    expect(multi.status).toBe(201);
    expect(multi.body[0].value).toHaveLength(2);
  });
});

describe("definitions", () => {
  it("at most 30 fields a project and 3 on cards; names unique in any capitals; admins only", async () => {
    const s = await setup();
    expect((await rest(s.mia, "POST", "fields", { project_id: s.project, name: "X", kind: "text" })).status).toBe(403);
    const dup = await rest(s.adam, "POST", "fields", { project_id: s.project, name: "points", kind: "text" });
    expect(dup.status).toBe(409);
    expect(knownMessage(dup.body)).toBe("That name is taken in this project.");
    for (const name of ["Two", "Three"]) {
      const res = await rest(s.adam, "POST", "fields", {
        project_id: s.project,
        name,
        kind: "checkbox",
        on_card: true,
      });
      expect(res.status, name).toBe(201);
    }
    const fourth = await rest(s.adam, "POST", "fields", {
      project_id: s.project,
      name: "Four",
      kind: "text",
      on_card: true,
    });
    expect(fourth.status).toBe(400);
    expect(knownMessage(fourth.body)).toBe("A project can have at most 30 fields, and 3 on cards.");
    const rows = Array.from({ length: 26 }, (_, i) => ({ project_id: s.project, name: `Field ${i}`, kind: "text" }));
    expect((await rest(s.adam, "POST", "fields", rows)).status).toBe(201);
    const thirty = await rest(s.adam, "POST", "fields", { project_id: s.project, name: "Too many", kind: "text" });
    expect(thirty.status).toBe(400);
    expect(knownMessage(thirty.body)).toBe("A project can have at most 30 fields, and 3 on cards.");
    const positions = await rest(s.adam, "GET", `fields?project_id=eq.${s.project}&select=position&order=position`);
    expect(positions.body.map((r: { position: number }) => r.position)).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
  });

  it("renaming an option changes it everywhere; removing one, a field or a person removes their values", async () => {
    const s = await setup();
    const other = await task(s.project, { title: "Other" });
    await setValue(s.mia, s.task, s.customer, "Acme");
    await setValue(s.mia, other.id, s.customer, "Globex");
    await setValue(s.mia, other.id, s.points, 3);
    expect((await rest(s.adam, "PATCH", `field_options?id=eq.${s.acme}`, { name: "Acme Corp" })).status).toBe(200);
    // values hold the option's id: the new name is what every task's value reads as
    const { rows: words } = await stack.db.query<{ w: string }>("select field_value_words($1, $2::jsonb) as w", [
      s.customer,
      JSON.stringify(s.acme),
    ]);
    expect(words[0].w).toBe("Acme Corp");
    expect(await failure(call(s.mia, "select field_value_words($1, '1'::jsonb)", [s.customer]))).toMatchObject({
      code: "42501",
    });

    // how many tasks hold a value: what the confirmation says before removing
    const held = await rest(s.adam, "GET", `field_values?field_id=eq.${s.customer}&select=task_id`, undefined, {
      prefer: "count=exact",
    });
    expect(held.body).toHaveLength(2);

    expect((await rest(s.adam, "DELETE", `field_options?id=eq.${s.globex}`)).status).toBe(200);
    const [afterOption] = await call<{ fields: Record<string, unknown> }>(
      s.mia,
      "select fields from tasks where id = $1",
      [other.id],
    );
    expect(afterOption.fields).toEqual({ [s.points]: 3 });

    expect((await rest(s.adam, "DELETE", `fields?id=eq.${s.points}`)).status).toBe(200);
    const left = await call<{ n: number }>(s.owner, "select count(*)::int as n from field_values where field_id = $1", [
      s.points,
    ]);
    expect(left[0].n).toBe(0);
    const [afterField] = await call<{ fields: Record<string, unknown> }>(
      s.mia,
      "select fields from tasks where id = $1",
      [other.id],
    );
    expect(afterField.fields).toEqual({});

    const owner = await rest(s.adam, "POST", "fields", { project_id: s.project, name: "Owner", kind: "person" });
    await setValue(s.adam, s.task, owner.body[0].id, s.mia);
    await stack.db.query("delete from team_members where team_id = $1 and user_id = $2", [s.team, s.mia]);
    const gone = await call<{ n: number }>(s.adam, "select count(*)::int as n from field_values where field_id = $1", [
      owner.body[0].id,
    ]);
    expect(gone[0].n).toBe(0);
  });

  it("values set and cleared are in the task's activity, as words", async () => {
    const s = await setup();
    const set = await rest(s.mia, "POST", "rpc/set_task_field_values", {
      task_id: s.task,
      values: { [s.points]: 5, [s.customer]: "Acme" },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await rest(s.mia, "POST", "rpc/set_task_field_values", { task_id: s.task, values: { [s.points]: null } });
    const events = await call<{ data: { changes: Record<string, unknown> } }>(
      s.mia,
      "select data from task_events where task_id = $1 and kind = 'task_updated' order by created_at, id",
      [s.task],
    );
    expect(events.map((e) => e.data.changes)).toEqual([
      {
        [`field:${s.points}`]: { name: "Points", from: null, to: "5" },
        [`field:${s.customer}`]: { name: "Customer", from: null, to: "Acme" },
      },
      { [`field:${s.points}`]: { name: "Points", from: "5", to: null } },
    ]);
    const bad = await rest(s.mia, "POST", "rpc/set_task_field_values", {
      task_id: s.task,
      values: { [s.points]: 101 },
    });
    expect(bad.status).toBe(400);
    expect(knownMessage(bad.body)).toBe("Points is a number from 0 to 100.");
    expect(
      (await rest(s.vic, "POST", "rpc/set_task_field_values", { task_id: s.task, values: { [s.points]: 1 } })).status,
    ).toBe(403);
  });
});
