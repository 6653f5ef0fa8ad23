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
  stranger = await person("Stan Stranger");
  const { data: team } = await owner.client.rpc("create_team", { name: "Export Team", slug: `export-${process.pid}` });
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
    await stack.db.query(
      `insert into tasks (project_id, number, title, status, priority, assignee_id, due_on, labels, position, description, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, '2026-01-02T03:04:05Z', '2026-01-03T00:00:00Z')`,
      [
        projectId,
        i + 1,
        title,
        i === 0 ? "done" : "todo",
        i === 0 ? "urgent" : "none",
        i === 0 ? owner.id : null,
        i === 0 ? "2026-02-01" : null,
        i === 0 ? ["ui", "=bad"] : [],
        i,
        i === 0 ? "First line\nsecond, with a comma" : "",
      ],
    );
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
    const bytes = await res.arrayBuffer();
    // decoding drops the byte order mark
    const text = new TextDecoder().decode(bytes);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      "Task",
      "Title",
      "Description",
      "Status",
      "Priority",
      "Assignee",
      "Due date",
      "Labels",
      "Created (UTC)",
      "Updated (UTC)",
    ]);
    expect(rows[1]).toEqual([
      "EXP-1",
      "Plain title",
      "First line\nsecond, with a comma",
      "Done",
      "Urgent",
      'Olive, "the" Owner',
      "2026-02-01",
      "ui, =bad",
      "2026-01-02 03:04",
      "2026-01-03 00:00",
    ]);
    expect(rows[2][3]).toBe("To do");
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
    expect(rows.every((r) => r.length === 10)).toBe(true);
    // a byte order mark first, so spreadsheet apps read the file as UTF-8 ("Ünïcödé", "Zoë")
    expect([...new Uint8Array(bytes.slice(0, 3))]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("through functions.invoke too", async () => {
    const result = await exportAs(owner.client, projectId);
    expect(result.status).toBe(200);
    expect(parseCsv(String(result.body))).toHaveLength(AWKWARD.length + 1);
  });

  it("an empty project gives the header line only", async () => {
    expect(await exportAs(owner.client, emptyProjectId)).toEqual({
      status: 200,
      // (read as text: the byte order mark is dropped)
      body: "Task,Title,Description,Status,Priority,Assignee,Due date,Labels,Created (UTC),Updated (UTC)\r\n",
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
