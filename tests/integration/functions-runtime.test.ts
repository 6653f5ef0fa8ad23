/**
 * The stack's Edge Functions runtime (/functions/v1) as supabase-js's
 * functions.invoke and a browser see it: real Deno processes running the
 * fixture functions in tests/fixtures/functions, JWT checks on and off,
 * CORS, env, the body and wall-clock limits, crashes and hot reload.
 */
import fs from "node:fs";
import path from "node:path";
import { FunctionsHttpError, FunctionsRelayError } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

const FIXTURES = path.resolve("tests/fixtures/functions");
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({
    functions: {
      dir: FIXTURES,
      configFile: path.join(FIXTURES, "config.toml"),
      wallClockLimitMs: 1500,
      maxBodyBytes: 64 * 1024,
    },
  });
});
afterAll(() => stack?.close());

const url = (name: string) => `${stack.url}/functions/v1/${name}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What a failed invoke carried: the status and the body the runtime answered with. */
async function failure(result: { error: unknown }) {
  const error = result.error as FunctionsHttpError | FunctionsRelayError | null;
  if (!error) return null;
  const res = error.context as Response;
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* plain text */
  }
  return { status: res.status, body };
}

describe("calling a function", () => {
  it("runs it on Deno with the project's keys, functions/.env and nothing else of the environment", async () => {
    const { data, error } = await stack.anonClient().functions.invoke("echo", { body: { hello: "world" } });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      method: "POST",
      path: "/echo",
      body: JSON.stringify({ hello: "world" }),
      authorization: `Bearer ${stack.anonKey}`,
      env: {
        SUPABASE_URL: stack.url,
        SUPABASE_ANON_KEY: stack.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
        GREETING: "hello from .env",
        HOME: null,
      },
    });
  });

  it("passes every method, sub-path and query on", async () => {
    for (const method of ["GET", "PUT", "PATCH", "DELETE"] as const) {
      const res = await fetch(`${url("echo")}/a/b?x=1`, { method, headers: bearer(stack.anonKey) });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ method, path: "/echo/a/b", search: "?x=1" });
    }
  });

  it("answers 404 for a function that does not exist", async () => {
    const res = await fetch(url("no-such-function"), { headers: bearer(stack.anonKey) });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("Function not found");
  });

  it("prefixes the function's log lines with its name", async () => {
    await fetch(`${url("echo")}/logged`, { headers: bearer(stack.anonKey) });
    expect(stack.functions.recentLogs()).toContain("[echo] echo GET /echo/logged");
    // and nothing of Deno's own: no "request.signal aborts on successful responses (legacy behavior)" warning
    await fetch(`${url("echo")}/again`, { headers: bearer(stack.anonKey) });
    expect(stack.functions.recentLogs().join("\n")).not.toMatch(/legacy behavior|request\.signal/);
  });

  it("streams a response as the function writes it", async () => {
    const res = await fetch(url("stream"), { headers: bearer(stack.anonKey) });
    expect(await res.text()).toBe("line 1\nline 2\nline 3\n");
  });

  it("can't read files outside its folder and node_modules", async () => {
    const res = await fetch(`${url("stream")}?read=${encodeURIComponent(path.resolve("package-lock.json"))}`, {
      headers: bearer(stack.anonKey),
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe("NotCapable");
  });
});

describe("JWT verification", () => {
  it("refuses a call without a token, with a foreign one or an expired one (401), as the edge runtime does", async () => {
    expect((await fetch(url("echo"))).status).toBe(401);
    expect(await (await fetch(url("echo"))).json()).toEqual({ msg: "Error: Missing authorization header" });
    const forged = `${stack.anonKey.slice(0, -4)}AAAA`;
    const res = await fetch(url("echo"), { headers: bearer(forged) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ msg: "Invalid JWT" });
    const expired = await stack.keys.sign({
      role: "authenticated",
      sub: crypto.randomUUID(),
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    expect((await fetch(url("echo"), { headers: bearer(expired) })).status).toBe(401);
  });

  it("lets anyone call a function with verify_jwt = false in config.toml", async () => {
    const res = await fetch(url("public"));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("public hello");
  });
});

describe("CORS", () => {
  it("passes the browser's preflight to the function, whose own headers reach the page (as hosted)", async () => {
    const preflight = await fetch(url("cors"), {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, x-custom",
      },
    });
    expect(preflight.status).toBe(200);
    expect(await preflight.text()).toBe("ok");
    expect(preflight.headers.get("x-answered-by")).toBe("cors");
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-custom");
    const res = await fetch(url("cors"), {
      method: "POST",
      headers: { ...bearer(stack.anonKey), origin: "https://app.example" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
  });

  it("adds no CORS headers of its own to a function that answers none", async () => {
    const res = await fetch(url("echo"), {
      headers: { ...bearer(stack.anonKey), origin: "https://elsewhere.example" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("the worker's own port", () => {
  /** Loopback TCP ports in LISTEN state (Linux's /proc/net/tcp). */
  function listeningPorts(): Set<number> {
    const ports = new Set<number>();
    for (const line of fs.readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === "0A" && local?.startsWith("0100007F:")) ports.add(parseInt(local.split(":")[1], 16));
    }
    return ports;
  }

  it("answers nobody but the stack: a direct call is refused before the function runs", async () => {
    const before = listeningPorts();
    const res = await fetch(url("port"), { headers: bearer(stack.anonKey) });
    expect(await res.text()).toBe("the function ran");
    const fresh = [...listeningPorts()].filter((p) => !before.has(p));
    expect(fresh.length).toBeGreaterThan(0); // the worker that just started
    for (const port of fresh) {
      const direct = await fetch(`http://127.0.0.1:${port}/port`);
      expect(direct.status).toBe(403);
      expect(await direct.text()).not.toContain("the function ran");
    }
    expect(await (await fetch(url("port"), { headers: bearer(stack.anonKey) })).text()).toBe("the function ran");
  });
});

describe("limits and failures", () => {
  it("refuses a body over the limit with 413 before the function sees it", async () => {
    const result = await stack.anonClient().functions.invoke("echo", { body: "x".repeat(64 * 1024 + 1) });
    expect(await failure(result)).toEqual({
      status: 413,
      body: { code: "PAYLOAD_TOO_LARGE", message: "The request body is larger than 65536 bytes" },
    });
    const ok = await stack.anonClient().functions.invoke("echo", { body: "x".repeat(64 * 1024) });
    expect(ok.error).toBeNull();
  });

  it("cuts off a request that runs past the wall-clock limit with 546, and the stack keeps serving", async () => {
    const started = Date.now();
    const result = await stack.anonClient().functions.invoke("hang", { method: "GET" });
    expect(await failure(result)).toEqual({
      status: 546,
      body: { code: "WORKER_LIMIT", message: "Worker failed to respond due to a resource limit (please check logs)" },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect((await stack.anonClient().functions.invoke("echo")).error).toBeNull();
  });

  it("answers an uncaught error in the handler with 500 and the runtime's body; the next call works", async () => {
    expect(await failure(await stack.anonClient().functions.invoke("throws", { method: "GET" }))).toEqual({
      status: 500,
      body: { code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" },
    });
    const res = await fetch(`${url("throws")}?ok`, { headers: bearer(stack.anonKey) });
    expect(await res.text()).toBe("fine");
  });

  it("answers 500 when the function's process dies mid-request, and starts it again on the next call", async () => {
    expect(await failure(await stack.anonClient().functions.invoke("crash", { method: "GET" }))).toMatchObject({
      status: 500,
      body: { code: "WORKER_ERROR" },
    });
    const res = await fetch(`${url("crash")}?ok`, { headers: bearer(stack.anonKey) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("still here");
  });

  it("answers 503 BOOT_ERROR for a function that fails to load", async () => {
    expect(await failure(await stack.anonClient().functions.invoke("boot-error", { method: "GET" }))).toEqual({
      status: 503,
      body: { code: "BOOT_ERROR", message: "Worker failed to boot (please check logs)" },
    });
  });
});

describe("hot reload", () => {
  it("serves the new code after the function's file changes, in a new process", async () => {
    const dir = path.join(FIXTURES, "reloaded");
    fs.mkdirSync(dir, { recursive: true });
    const write = (version: string) =>
      fs.writeFileSync(
        path.join(dir, "index.ts"),
        `// written by functions-runtime.test.ts\nDeno.serve(() => Response.json({ version: "${version}", pid: Deno.pid }));\n`,
      );
    try {
      write("one");
      const first = await stack.anonClient().functions.invoke("reloaded", { method: "GET" });
      expect(first.data.version).toBe("one");
      write("two");
      let second = first;
      for (let i = 0; i < 50 && second.data?.version !== "two"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        second = await stack.anonClient().functions.invoke("reloaded", { method: "GET" });
      }
      expect(second.data.version).toBe("two");
      expect(second.data.pid).not.toBe(first.data.pid);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
