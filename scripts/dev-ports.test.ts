import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestStack, type TestStack } from "../tests/support/stack";
import { e2ePorts } from "../tests/e2e/support/ports.mjs";
import { findFreeOffset, isPortFree, planAppPort, planStack } from "./dev-ports.mjs";

/** `npm run dev`'s choice of ports and of a stack to attach to, against real sockets and a real stack. */

let stack: TestStack;
let folder = "";
const listeners: net.Server[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "dev-ports-"));
});
afterAll(async () => {
  for (const server of listeners) server.close();
  await stack.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

async function occupy(port = 0): Promise<number> {
  const server = net.createServer();
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A data folder holding `keys` as the stack writes them (stack/keys.ts), or none. */
function dataDir(name: string, keys?: { anonKey: string; serviceRoleKey: string }) {
  const dir = path.join(folder, name);
  fs.mkdirSync(dir, { recursive: true });
  if (keys) fs.writeFileSync(path.join(dir, "keys.json"), JSON.stringify(keys));
  return dir;
}

const stackPort = () => Number(new URL(stack.url).port);

test("a stack that runs on this checkout's data folder is used", async () => {
  const ours = dataDir("ours", { anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey });
  expect(await planStack({ dataDir: ours, preferred: stackPort() })).toEqual({ use: stack.url });
});

test("another checkout's stack is never attached to: the default port gives way, a chosen one is refused", async () => {
  // a folder whose keys that stack doesn't accept (another checkout's), and one where no stack has run yet
  const elsewhere = dataDir("elsewhere", { anonKey: "x", serviceRoleKey: "not.this.stacks" });
  const fresh = dataDir("fresh");
  for (const dir of [elsewhere, fresh]) {
    const plan = await planStack({ dataDir: dir, preferred: stackPort() });
    expect(plan.use).toBeUndefined();
    expect(plan.start).not.toBe(stackPort());
    expect(plan.start! % 10).toBe(stackPort() % 10);
    expect(plan.note).toBe(
      `another stack (not on this checkout's data folder) answers on port ${stackPort()}; the stack takes port ${plan.start} instead`,
    );
    expect(await planStack({ dataDir: dir, preferred: 54321, chosen: stackPort() })).toEqual({
      fail: `another stack (not on this checkout's data folder) answers on port ${stackPort()}: choose another STACK_PORT`,
    });
  }
});

test("a port something else listens on, or whose mail port (+4) is taken, gives way too", async () => {
  const taken = await occupy();
  const plan = await planStack({ dataDir: dataDir("fresh2"), preferred: taken });
  expect(plan.start).toBeGreaterThan(taken);
  const mailTaken = await occupy(plan.start! + 4);
  const next = await planStack({ dataDir: dataDir("fresh3"), preferred: mailTaken - 4 });
  expect(next.start).not.toBe(mailTaken - 4);
});

test("this checkout's stack running on another port is named, not started twice", async () => {
  const dir = dataDir("locked", { anonKey: stack.anonKey, serviceRoleKey: "stale" });
  fs.writeFileSync(path.join(dir, "stack.lock"), String(process.pid));
  const free = await occupy();
  listeners.pop()!.close();
  const plan = await planStack({ dataDir: dir, preferred: free });
  expect(plan.fail).toBe(
    `this checkout's stack already runs (pid ${process.pid}) on another port than ${free}: start with STACK_PORT=<its port>, or stop it first`,
  );
});

test("the app takes PORT when it is free, refuses it when taken, else the first free port from the default", async () => {
  const taken = await occupy();
  expect(await planAppPort({ preferred: 5173, chosen: taken, host: "127.0.0.1" })).toEqual({
    fail: `PORT ${taken} is taken: choose another PORT, or stop what listens there`,
  });
  const plan = await planAppPort({ preferred: taken, host: "127.0.0.1" });
  expect(plan.port).toBeGreaterThan(taken);
  expect(plan.note).toBe(`port ${taken} is taken; the app takes port ${plan.port} instead`);
  expect(await planAppPort({ preferred: 5173, chosen: plan.port!, host: "127.0.0.1" })).toEqual({ port: plan.port });
});

test("npm test moves the e2e run to the first offset whose ports are all free", async () => {
  const taken = await occupy();
  const offset = await findFreeOffset([taken + 1, taken], { step: 7 });
  expect(offset).toBeGreaterThan(0);
  expect(offset! % 7).toBe(0);
  expect(await isPortFree(taken + offset!)).toBe(true);
  expect(await isPortFree(taken + 1 + offset!)).toBe(true);
  expect(await findFreeOffset([taken], { step: 1, tries: 1 })).toBeNull();
  listeners.pop()?.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await findFreeOffset([taken], { step: 1 })).toBe(0);
});

test("the e2e ports are each environment's stack, its mail port (+4) and its app, all moved by the offset", () => {
  expect(e2ePorts(0)).toEqual([54350, 54354, 4010, 54351, 54355, 4011, 54359, 54363, 4012]);
  expect(e2ePorts(100)).toEqual(e2ePorts(0).map((port) => port + 100));
});
