/**
 * What a large request body costs the stack (no thresholds; it prints): for
 * every endpoint that reads a body, a 300 MB body sent with the public key,
 * once with Content-Length and once chunked, and for each the answer, how
 * much had been sent when it came, and the stack process's resident memory
 * before and at its peak. A body over the limit must be refused without
 * being read, so the memory must not grow by the body's size.
 *
 *   npm run bench:bodies [-- --mb 300]
 *
 * The stack runs as its own process (as `npm run stack` does), so the memory
 * measured is its own; the client sends the same 256 KiB buffer again and again.
 */
import http from "node:http";
import os from "node:os";
import { readStoredKeys } from "../keys.ts";
import { startStackProcess } from "./stack-process.ts";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const MB = 1024 * 1024;
const BODY_BYTES = arg("mb", 300) * MB;

/** Sends `total` bytes (declared or chunked); resolves with the answer and how much had been sent by then. */
function send(url: string, method: string, headers: Record<string, string>, total: number, declared: boolean) {
  return new Promise<{ status: number; sent: number; ms: number }>((resolve) => {
    const started = performance.now();
    let sent = 0;
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      resolve({ status, sent, ms: performance.now() - started });
      req.destroy();
    };
    const req = http.request(url, {
      method,
      // chunked is set, not left to Node: its client frames only POST, PUT and PATCH bodies that way by default
      headers: { ...headers, ...(declared ? { "content-length": String(total) } : { "transfer-encoding": "chunked" }) },
    });
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    // one chunk per turn of the event loop, so an early answer is read before a write fails on a closed socket
    const pump = () => {
      if (done) return;
      if (sent >= total) return void req.end();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) setImmediate(pump);
      else req.once("drain", pump);
    };
    req.on("response", (res) => {
      res.resume();
      finish(res.statusCode ?? 0);
    });
    // the stack cut the connection without an answer (0)
    req.on("error", () => finish(0));
    pump();
  });
}

async function main() {
  const stack = await startStackProcess("body-bench");
  const { base } = stack;
  try {
    const keys = readStoredKeys(stack.dataDir)!;
    const anon = { apikey: keys.anonKey, authorization: `Bearer ${keys.anonKey}`, "content-type": "application/json" };
    const service = { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}` };
    const endpoints: [string, string, Record<string, string>][] = [
      ["POST", "/auth/v1/signup", anon],
      ["POST", "/rest/v1/tasks", anon],
      ["POST", "/rest/v1/rpc/search_tasks", anon],
      ["POST", "/storage/v1/object/list/avatars", anon],
      ["POST", "/storage/v1/object/sign/avatars", anon],
      ["POST", "/storage/v1/object/move", anon],
      ["POST", "/storage/v1/object/avatars/bench.png", { ...anon, "content-type": "image/png" }],
      ["POST", "/realtime/v1/api/broadcast", anon],
      ["POST", "/realtime/v1/api/broadcast/room/events/e", anon],
      ["POST", "/functions/v1/send-invitation", anon],
      ["DELETE", "/inbox/api/v1/messages", { ...service, "content-type": "application/json" }],
    ];
    console.log(`${BODY_BYTES / MB} MB request bodies, node ${process.version}, ${os.cpus().length} CPUs\n`);
    console.log(
      "endpoint                                        | body     | answer    | sent MB | ms     | stack RSS MB before → peak",
    );
    /** The status the stack logged for the last such request since `since` (/_stack/requests). */
    const logged = async (since: number, method: string, target: string) => {
      const entries = (await (await fetch(`${base}/_stack/requests?since=${since}`, { headers: service })).json()) as {
        method: string;
        path: string;
        status: number;
      }[];
      return entries.filter((e) => e.method === method && e.path === target).at(-1)?.status ?? "none";
    };
    const first = stack.rss();
    let highest = first;
    for (const [method, target, headers] of endpoints) {
      for (const declared of [true, false]) {
        const before = stack.rss();
        let peak = before;
        const timer = setInterval(() => (peak = Math.max(peak, stack.rss())), 5);
        const since = Date.now();
        const r = await send(`${base}${target}`, method, headers, BODY_BYTES, declared);
        // what the stack may still be holding once the answer is out
        await new Promise((resolve) => setTimeout(resolve, 200));
        clearInterval(timer);
        peak = Math.max(peak, stack.rss());
        highest = Math.max(highest, peak);
        // cut: the connection was reset under a client still sending; the stack's log says how it answered
        const answer = r.status ? String(r.status) : `cut (${await logged(since, method, target)})`;
        console.log(
          `${`${method} ${target}`.padEnd(47)} | ${(declared ? "length" : "chunked").padEnd(8)} | ${answer.padEnd(9)} | ${(r.sent / MB).toFixed(1).padStart(7)} | ${r.ms.toFixed(0).padStart(6)} | ${(before / MB).toFixed(0)} → ${(peak / MB).toFixed(0)}`,
        );
      }
    }
    console.log(`\nstack RSS: ${(first / MB).toFixed(0)} MB at start, highest ${(highest / MB).toFixed(0)} MB`);
  } finally {
    await stack.stop();
  }
}

await main();
