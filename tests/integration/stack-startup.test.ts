import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNativePostgres } from "../../scripts/native-pg.mjs";
import { freePort } from "../support/app-cluster.ts";
import { startTestStack } from "../support/stack.ts";

/**
 * The stack listens before its services are mounted (their links need the
 * address). A request arriving in between used to reach the router before
 * the last routes were added: Hono builds its matcher on the first request
 * and refuses routes after that, so the stack crashed on start ("Can not add
 * a route since the matcher is already built") when a readiness poll came
 * early (bench:load). Now such requests get 503 "starting" until everything
 * is mounted. Requests are sent back to back from before the stack listens
 * until it has started, so some arrive in that window. On a native
 * PostgreSQL (the suite's, or one of its own): there the stack's startup
 * waits on the network and serves requests meanwhile, as deployed; PGlite
 * answers in the same thread and leaves no gap for a request to come in.
 */
let ownPostgres: { url: string; stop(): void } | null = null;
beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) return;
  ownPostgres = (await startNativePostgres()) as { url: string; stop(): void } | null;
  if (!ownPostgres) throw new Error("no native PostgreSQL (initdb/pg_ctl) for the startup test");
  process.env.TEST_DATABASE_URL = ownPostgres.url;
}, 120_000);
afterAll(() => {
  if (!ownPostgres) return;
  delete process.env.TEST_DATABASE_URL;
  ownPostgres.stop();
});

describe("stack startup", () => {
  it("answers 503 while its services are being mounted, then serves them all", async () => {
    const port = await freePort();
    let starting = true;
    const seen: number[] = [];
    const poll = (async () => {
      while (starting) {
        try {
          const answer = await fetch(`http://127.0.0.1:${port}/auth/v1/health`);
          seen.push(answer.status);
          await answer.arrayBuffer();
        } catch {
          await new Promise((r) => setTimeout(r, 1)); // not listening yet
        }
      }
    })();
    const stack = await startTestStack({ port }).finally(() => (starting = false));
    await poll;
    try {
      // every early answer was "starting" or the real one, nothing else
      expect(seen.filter((status) => status !== 503 && status !== 200)).toEqual([]);
      expect(seen, "requests answered while the services were being mounted").toContain(503);
      // and every service is there once it has started
      expect((await fetch(`${stack.url}/auth/v1/health`)).status).toBe(200);
      const rest = await fetch(`${stack.url}/rest/v1/teams?select=id&limit=1`, {
        headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
      });
      expect(rest.status).toBe(200);
      expect((await fetch(`${stack.url}/storage/v1/bucket`, { headers: { apikey: stack.anonKey } })).status).not.toBe(
        404,
      );
    } finally {
      await stack.close();
    }
  });
});
