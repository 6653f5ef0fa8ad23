import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestStack } from "../support/stack.ts";
import { RequestScope, runInRequestScope } from "~/lib/request-scope.server";
import { MESSAGES } from "~/lib/messages";
import { seedTeam, startRouteStack, type RouteTeam, type RouteUser } from "./support.ts";

/**
 * POST /api/attachments when the connection to Storage is lost during an
 * upload (issue 35): the app cannot know from a lost connection whether the
 * backend refused the file (its answer lost with the connection, as the
 * audit saw 4 times in 5) or cannot be reached, so it sends the file once
 * more and says what that answer says. The app talks to the stack through a
 * real TCP proxy here that cuts the first upload connections it sees, as a
 * backend closing early does.
 */

let stack: TestStack;
let team: RouteTeam;
let proxy: net.Server;
/** upload connections the proxy still cuts */
let cut = 0;
let api: typeof import("~/routes/api.attachments");

beforeAll(async () => {
  stack = await startRouteStack();
  const target = new URL(stack.url);
  proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    upstream.pipe(client);
    client.on("data", (chunk: Buffer) => {
      if (cut > 0 && chunk.toString("latin1").includes("POST /storage/v1/object/attachments/")) {
        cut--;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  // the app reads its backend's address when its modules load
  process.env.SUPABASE_URL = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  process.env.SUPABASE_SERVICE_ROLE_KEY = stack.serviceRoleKey;
  api = await import("~/routes/api.attachments");
  team = await seedTeam(stack);
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await stack?.close();
});

async function upload(user: RouteUser, taskId: string, name: string) {
  const body = new FormData();
  body.append("taskId", taskId);
  body.append("files", new File([new Uint8Array(256 * 1024).fill(1)], name, { type: "application/pdf" }));
  const request = new Request("http://app.test/api/attachments", {
    method: "POST",
    headers: { Cookie: user.cookie, Accept: "application/json" },
    body,
  });
  const scope = new RequestScope({ cookie: request.headers.get("Cookie") });
  const response = (await runInRequestScope(scope, () => api.action({ request, params: {}, context: {} }))) as Response;
  return { status: response.status, json: (await response.json()) as { ok: boolean; message: string | null } };
}

describe("an upload whose connection is lost", () => {
  it("a viewer's refusal is told as a refusal (403, the role message), 5 times in a row", async () => {
    for (let i = 0; i < 5; i++) {
      cut = 1;
      const { status, json } = await upload(team.viewer, team.taskIds[0], `viewer-${i}.pdf`);
      expect([i, status, json.message]).toEqual([i, 403, expect.stringContaining("role")]);
      expect(cut).toBe(0);
    }
  });

  it("a member's file is attached once", async () => {
    cut = 1;
    const { status, json } = await upload(team.member, team.taskIds[1], "member.pdf");
    expect([status, json.ok]).toEqual([200, true]);
    const { rows } = await stack.db.query("select file_name from attachments where task_id = $1", [team.taskIds[1]]);
    expect(rows.filter((r) => r.file_name === "member.pdf")).toHaveLength(1);
  });

  it("a backend that never answers is told as one (503, can't reach the backend)", async () => {
    cut = 2;
    const { status, json } = await upload(team.member, team.taskIds[1], "lost.pdf");
    expect([status, json.message]).toEqual([503, MESSAGES.backendDown]);
  });
});
