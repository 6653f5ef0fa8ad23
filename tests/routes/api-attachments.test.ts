import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { totp } from "../support/totp.ts";
import { RequestScope, runInRequestScope } from "~/lib/request-scope.server";
import { seedTeam, signIn, startRouteStack, type RouteTeam, type RouteUser } from "./support.ts";

/**
 * POST /api/attachments, the task panel script's upload endpoint (issue 22
 * L12): every answer is JSON with the status that says what happened — a
 * refusal is never a 200, a malformed body a 400 (not a 500), a viewer's
 * refusal a 403 (not "can't reach its backend"). (A post from another origin
 * never gets here: the server's door refuses it, same-origin.server.test.ts.)
 */

let stack: TestStack;
let team: RouteTeam;
let api: typeof import("~/routes/api.attachments");

beforeAll(async () => {
  stack = await startRouteStack();
  process.env.SUPABASE_SERVICE_ROLE_KEY = stack.serviceRoleKey;
  api = await import("~/routes/api.attachments");
  team = await seedTeam(stack);
});
afterAll(() => stack?.close());

function upload(user: RouteUser | null, body: BodyInit, headers: Record<string, string> = {}) {
  const request = new Request("http://app.test/api/attachments", {
    method: "POST",
    headers: { ...(user ? { Cookie: user.cookie } : {}), Accept: "application/json", ...headers },
    body,
  });
  // a fresh request scope, as the server opens one per request
  const scope = new RequestScope({ cookie: request.headers.get("Cookie") });
  return answer(() => runInRequestScope(scope, () => api.action({ request, params: {}, context: {} })));
}

function form(taskId: string, name = "notes.txt") {
  const body = new FormData();
  body.append("taskId", taskId);
  body.append("files", new File(["some notes"], name, { type: "text/plain" }));
  return body;
}

/** The action's answer as the browser's script sees it: status and JSON body. */
async function answer(run: () => Promise<unknown>): Promise<{ status: number; json: unknown; type: string | null }> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    result = thrown;
  }
  // a Response (the app's may come from another realm's class than this file's)
  if (result && typeof (result as Response).headers?.get === "function" && "status" in (result as Response)) {
    const response = result as Response;
    const text = await response.text();
    const type = response.headers.get("Content-Type");
    return { status: response.status, json: type?.includes("json") ? JSON.parse(text) : text, type };
  }
  const { data, init } = result as { data: unknown; init: ResponseInit | null };
  return { status: init?.status ?? 200, json: data, type: "application/json" };
}

describe("/api/attachments answers", () => {
  it("200 and the file attached, for a member", async () => {
    const { status, json } = await upload(team.member, form(team.taskIds[0]));
    // the new attachment's id: a picture pasted into a text is written as ![name](/attachments/<id>)
    expect([status, json]).toEqual([200, { ok: true, message: null, ids: [expect.stringMatching(/^[0-9a-f-]{36}$/)] }]);
  });

  it("403 with the role message for a viewer, not a backend failure", async () => {
    const { status, json } = await upload(team.viewer, form(team.taskIds[0]));
    expect(status).toBe(403);
    expect(json).toMatchObject({ ok: false, message: expect.stringContaining("role") });
  });

  it("403 for a viewer's larger file, every time: the refusal arrives, not a lost connection (issue 35)", async () => {
    // Storage refuses before it reads the upload; it reads (drains) what the client still sends before
    // answering, so the app's request is whole and it reads the 403 (the audit saw "can't reach" 4 times
    // in 5; a slow sender, storage-limits.test.ts, and a lost connection,
    // api-attachments-lost-connection.test.ts, provoke what a fast loopback rarely does)
    const big = new Uint8Array(3 * 1024 * 1024).fill(7);
    const answers: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      const body = new FormData();
      body.append("taskId", team.taskIds[0]);
      body.append("files", new File([big], `scan-${i}.pdf`, { type: "application/pdf" }));
      const { status, json } = await upload(team.viewer, body);
      answers.push([status, (json as { message: string }).message]);
    }
    expect(answers).toEqual(Array.from({ length: 6 }, () => [403, expect.stringContaining("role")]));
  });

  it("400 'at most 20' when the task's folder is full of files uploaded around the app", async () => {
    const admin = stack.adminClient().storage.from("attachments");
    const { rows } = await stack.db.query<{ id: string }>(
      "insert into tasks (project_id, title) values ($1, 'Full folder') returning id",
      [team.projectId],
    );
    for (let i = 0; i < 20; i++) await admin.upload(`${rows[0].id}/direct-${i}.txt`, new Blob(["x"]));
    const { status, json } = await upload(team.member, form(rows[0].id));
    expect(status).toBe(400);
    expect(json).toMatchObject({ ok: false, message: expect.stringContaining("at most 20") });
  });

  it("401 in JSON when nobody is signed in (not a redirect the script would follow to a 200 page)", async () => {
    const { status, json } = await upload(null, form(team.taskIds[0]));
    expect(status).toBe(401);
    expect(json).toMatchObject({ ok: false, message: expect.stringContaining("Log in") });
  });

  it("403 in JSON when the session still needs its authenticator code", async () => {
    const client = stack.anonClient();
    await client.auth.signInWithPassword({ email: team.admin.email, password: team.admin.password });
    const { data: factor } = await client.auth.mfa.enroll({ factorType: "totp" });
    await client.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret) });
    const aal1 = await signIn(team.admin);
    const { status, json } = await upload(aal1, form(team.taskIds[0]));
    expect(status).toBe(403);
    expect(json).toMatchObject({ ok: false, message: expect.stringContaining("authenticator app") });
  });

  it("400 for a body that isn't multipart form data", async () => {
    const broken = await upload(team.member, "--x\r\nnot a part", {
      "Content-Type": "multipart/form-data; boundary=x",
    });
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({ ok: false });
    const notMultipart = await upload(team.member, "taskId=1", { "Content-Type": "text/plain" });
    expect(notMultipart.status).toBe(400);
  });
});
