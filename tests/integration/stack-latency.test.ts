import { afterAll, beforeAll, expect, it } from "vitest";
import { sequentialDepth } from "../../stack/request-log.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

// Long enough that a busy machine's own slowness can't be mistaken for it (or hide it).
const LATENCY_MS = 600;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ latencyMs: LATENCY_MS });
});
afterAll(() => stack.close());

it("delays every API request by the configured latency and logs when each ran, so chains can be told from parallel requests", async () => {
  const since = Date.now();
  const health = () => fetch(`${stack.url}/auth/v1/health`);
  const started = performance.now();
  await Promise.all([health(), health()]);
  await health();
  expect(performance.now() - started).toBeGreaterThanOrEqual(2 * LATENCY_MS);
  const logged = stack.requests.list(since);
  expect(logged).toHaveLength(3);
  for (const entry of logged) expect(entry.end - entry.start).toBeGreaterThanOrEqual(LATENCY_MS - 1);
  expect(sequentialDepth(logged)).toBe(2);

  stack.setLatency(0);
  const before = Date.now();
  await health();
  const [undelayed] = stack.requests.list(before);
  expect(undelayed.end - undelayed.start).toBeLessThan(LATENCY_MS);
});
