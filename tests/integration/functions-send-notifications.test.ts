/**
 * The product's scheduled call, end to end on the stack's real parts: the
 * migration's Supabase Cron job (run here on request, as `npm run stack --
 * cron run send-notifications` does) reads the project URL and service role
 * key from Vault and posts through pg_net to the send-notifications function
 * on Deno, which answers the scheduler and refuses anyone else.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

describe("send-notifications", () => {
  it("is scheduled every minute by the migrations", async () => {
    const { rows } = await stack.db.query(
      "select schedule, active, username from cron.job where jobname = 'send-notifications'",
    );
    expect(rows).toEqual([{ schedule: "* * * * *", active: true, username: "postgres" }]);
  });

  it("is called by the job with the service role key from Vault and answers how many it sent", async () => {
    const answered = new Promise((resolve) => stack.scheduler.net.onResult(resolve));
    const run = await stack.scheduler.cron.runNow("send-notifications");
    expect(run).toMatchObject({ status: "succeeded", returnMessage: "1 row" });
    expect(await answered).toMatchObject({
      method: "POST",
      url: `${stack.url}/functions/v1/send-notifications`,
      status_code: 200,
      content: JSON.stringify({ sent: 0, failed: 0 }),
      error_msg: null,
    });
  });

  it("refuses callers other than the service role", async () => {
    const call = (key: string) =>
      fetch(`${stack.url}/functions/v1/send-notifications`, {
        method: "POST",
        headers: { apikey: key, authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: "{}",
      });
    const anon = await call(stack.anonKey);
    expect(anon.status).toBe(403);
    expect(await anon.json()).toEqual({
      code: "service_role_required",
      error: "Only the project's scheduler may call this.",
    });
    expect((await call("not-a-jwt")).status).toBe(401);
    expect((await call(stack.serviceRoleKey)).status).toBe(200);
  });
});
