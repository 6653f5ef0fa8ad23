/**
 * export-project (supabase/functions) on the stack's Deno runtime: the CSV a
 * person downloads from the board, read back as a spreadsheet would, with
 * titles that break naive CSV (commas, quotes, line breaks, formulas), and
 * only for people who may see the project.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverClient, uniqueEmail } from "../support/auth-helpers.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
let owner: { id: string; client: SupabaseClient };
let viewer: { id: string; client: SupabaseClient };
let stranger: { id: string; client: SupabaseClient };
let projectId: string;
let emptyProjectId: string;
let teamId: string;

async function person(name: string) {
  const email = uniqueEmail("export");
  const { data, error } = await stack.adminClient().auth.admin.createUser({
    email,
    password: "export-test-1",
    email_confirm: true,
    user_metadata: { display_name: name },
  });
  if (error) throw error;
  const client = serverClient(stack.url, stack.anonKey);
  await client.auth.signInWithPassword({ email, password: "export-test-1" });
  return { id: data.user.id, client };
}

const AWKWARD = [
  "Plain title",
  "Commas, everywhere, here",
  'She said "ship it"',
  "Two\nlines",
  '=HYPERLINK("http://evil.test","click")',
  "+1 more",
  "-minus",
  "@mention",
  "Ünïcödé ✓",
];

beforeAll(async () => {
  stack = await startTestStack();
  owner = await person('Olive, "the" Owner');
  viewer = await person("Vic Viewer");
  // the viewer reads times in Berlin (CET in January), the owner in UTC
  await stack.db.query("update profiles set time_zone = 'Europe/Berlin' where id = $1", [viewer.id]);
  stranger = await person("Stan Stranger");
  const { data: team } = await owner.client.rpc("create_team", { name: "Export Team", slug: `export-${process.pid}` });
  teamId = team.id;
  await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'viewer')", [
    team.id,
    viewer.id,
  ]);
  const { rows } = await stack.db.query<{ id: string }>(
    "insert into projects (team_id, key, name) values ($1, 'EXP', 'Export') returning id",
    [team.id],
  );
  projectId = rows[0].id;
  emptyProjectId = (
    await stack.db.query<{ id: string }>(
      "insert into projects (team_id, key, name) values ($1, 'NIL', 'Empty') returning id",
      [team.id],
    )
  ).rows[0].id;
  for (const [i, title] of AWKWARD.entries()) {
    const { rows: made } = await stack.db.query<{ id: string }>(
      `insert into tasks (project_id, number, title, status_id, priority, assignee_id, due_on, position, created_at, updated_at, description)
       select $1, $2, $3, s.id, $5, $6, $7, $8, '2026-01-02T03:04:05Z', '2026-01-03T00:00:00Z', $9
       from project_statuses s where s.project_id = $1 and s.name = $4
       returning id`,
      [
        projectId,
        i + 1,
        title,
        i === 0 ? "Done" : "To do",
        i === 0 ? "urgent" : "none",
        i === 0 ? owner.id : null,
        i === 0 ? "2026-02-01" : null,
        i,
        i === 0 ? "Zoë's notes, two lines:\n- first" : "",
      ],
    );
    if (i === 0) {
      for (const name of ["ui", "=bad"]) {
        await stack.db.query(
          `with l as (insert into labels (team_id, name) values ($1, $2) returning id)
           insert into task_labels (task_id, label_id) select $3, id from l`,
          [team.id, name, made[0].id],
        );
      }
      // fixed times for the file to show (the triggers would write now())
      await stack.db.transaction(async (tx) => {
        await tx.query("set local session_replication_role = replica");
        await tx.query(
          "update tasks set updated_at = '2026-01-03T00:00:00Z', completed_at = '2026-01-03T23:59:59Z' where id = $1",
          [made[0].id],
        );
      });
    }
  }
});
afterAll(() => stack?.close());

/** RFC 4180 read back: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field || row.length) throw new Error("the last record has no CRLF");
  return rows;
}

async function exportAs(client: SupabaseClient, id: string) {
  const { data, error } = await client.functions.invoke(`export-project?project_id=${id}`, { method: "GET" });
  if (error) {
    const res = error.context as Response;
    return { status: res.status, body: await res.json(), headers: res.headers };
  }
  return { status: 200, body: data as string | Blob };
}

describe("export-project", () => {
  it("a viewer downloads every task as RFC 4180 CSV, awkward titles intact and formulas neutralised", async () => {
    const url = `${stack.url}/functions/v1/export-project?project_id=${projectId}`;
    const session = (await viewer.client.auth.getSession()).data.session!;
    const res = await fetch(url, { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="EXP-tasks-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // a UTF-8 byte order mark first, so a spreadsheet app reads "Zoë" as UTF-8
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      "Task",
      "Title",
      "Description",
      "Status",
      "Priority",
      "Assignees",
      "Due date",
      "Labels",
      "Created (Europe/Berlin)",
      "Updated (Europe/Berlin)",
      "Completed (Europe/Berlin)",
    ]);
    // the words the board shows: status and priority names, the person's name, the
    // team's labels by name (a spreadsheet formula neutralised), minutes on the
    // viewer's Berlin clock (an hour ahead of UTC in January: 23:59 UTC is the next day)
    expect(rows[1]).toEqual([
      "EXP-1",
      "Plain title",
      "Zoë's notes, two lines:\n- first",
      "Done",
      "Urgent",
      'Olive, "the" Owner',
      "2026-02-01",
      "'=bad, ui",
      "2026-01-02 04:04",
      "2026-01-03 01:00",
      "2026-01-04 00:59",
    ]);
    expect([rows[2][2], rows[2][3], rows[2][4], rows[2][10]]).toEqual(["", "To do", "No priority", ""]);
    expect(rows.slice(1).map((r) => r[1])).toEqual([
      "Plain title",
      "Commas, everywhere, here",
      'She said "ship it"',
      "Two\nlines",
      '\'=HYPERLINK("http://evil.test","click")',
      "'+1 more",
      "'-minus",
      "'@mention",
      "Ünïcödé ✓",
    ]);
    expect(text).toContain('"She said ""ship it"""');
    expect(rows.every((r) => r.length === 11)).toBe(true);
  });

  it("has every assignee and one column per field, in the project's order and in words", async () => {
    const db = stack.db;
    const fieldProject = (
      await db.query<{ id: string }>(
        "insert into projects (team_id, key, name) values ($1, 'FLD', 'Fields') returning id",
        [teamId],
      )
    ).rows[0].id;
    const field = async (name: string, kind: string, position: number) =>
      (
        await db.query<{ id: string }>(
          "insert into fields (project_id, name, kind, position) values ($1, $2, $3::field_kind, $4) returning id",
          [fieldProject, name, kind, position],
        )
      ).rows[0].id;
    const customer = await field("Customer", "select", 0);
    const points = await field("Points", "number", 1);
    const lead = await field("Lead", "person", 2);
    const signed = await field("Signed", "checkbox", 3);
    await db.query("insert into field_options (field_id, project_id, name, position) values ($1, $2, 'Acme', 0)", [
      customer,
      fieldProject,
    ]);
    const task = (
      await db.query<{ id: string }>(
        `insert into tasks (project_id, number, title, status_id)
         select $1, 1, 'Both of us', s.id from project_statuses s where s.project_id = $1 and s.name = 'To do' returning id`,
        [fieldProject],
      )
    ).rows[0].id;
    await db.query("insert into task_assignees (task_id, person_id, position) values ($1, $2, 0), ($1, $3, 1)", [
      task,
      viewer.id,
      owner.id,
    ]);
    await db.query(
      `insert into field_values (task_id, field_id, value) values
         ($1, $2, '"acme"'), ($1, $3, '5'), ($1, $4, to_jsonb($5::text)), ($1, $6, 'true')`,
      [task, customer, points, lead, owner.id, signed],
    );
    const result = await exportAs(owner.client, fieldProject);
    expect(result.status).toBe(200);
    const rows = parseCsv(String(result.body));
    expect(rows[0].slice(11)).toEqual(["Customer", "Points", "Lead", "Signed"]);
    expect(rows[0][5]).toBe("Assignees");
    expect(rows[1][5]).toBe('Vic Viewer, Olive, "the" Owner');
    expect(rows[1].slice(11)).toEqual(["Acme", "5", 'Olive, "the" Owner', "Yes"]);
  });

  it("through functions.invoke too", async () => {
    const result = await exportAs(owner.client, projectId);
    expect(result.status).toBe(200);
    expect(parseCsv(String(result.body))).toHaveLength(AWKWARD.length + 1);
  });

  it("an empty project gives the header line only, in the owner's zone (UTC)", async () => {
    // (supabase-js reads the body as text, which drops the byte order mark; the first test checks the bytes)
    expect(await exportAs(owner.client, emptyProjectId)).toEqual({
      status: 200,
      body: "Task,Title,Description,Status,Priority,Assignees,Due date,Labels,Created (UTC),Updated (UTC),Completed (UTC)\r\n",
    });
  });

  it("someone outside the team gets 404, as if the project did not exist; no token gets 401", async () => {
    expect(await exportAs(stranger.client, projectId)).toMatchObject({
      status: 404,
      body: { code: "project_not_found", error: "Project not found." },
    });
    expect(await exportAs(stack.anonClient(), projectId)).toMatchObject({
      status: 401,
      body: { code: "not_signed_in" },
    });
    expect((await fetch(`${stack.url}/functions/v1/export-project?project_id=${projectId}`)).status).toBe(401);
    expect(await exportAs(owner.client, "not-a-uuid")).toMatchObject({
      status: 400,
      body: { code: "invalid_project" },
    });
  });
});
