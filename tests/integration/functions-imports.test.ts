/**
 * Edge Functions that load what hosted loads (issue 30 §2): a remote module
 * (served here by a real HTTP server on loopback, as this machine has no
 * internet), imports mapped by the function's own deno.json and by
 * config.toml's `import_map`, the cache that lets a second start work
 * offline, and the explicit offline mode that loads only what is cached.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

let work: string;
let server: http.Server;
let requests: string[] = [];
let origin: string;

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
  fs.writeFileSync(path.join(work, file), text);
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "fn-imports-"));
  server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url === "/lib/greet.ts") {
      res.writeHead(200, { "content-type": "application/typescript" });
      res.end(`import { shout } from "./shout.ts";\nexport const greet = (n: string) => shout("hello " + n);\n`);
    } else if (req.url === "/lib/shout.ts") {
      res.writeHead(200, { "content-type": "application/typescript" });
      res.end(`export const shout = (s: string) => s.toUpperCase();\n`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // a URL import as published examples write it
  write(
    "functions/remote/index.ts",
    `import { greet } from "${origin}/lib/greet.ts";\nDeno.serve(() => new Response(greet("remote")));\n`,
  );
  // a bare import mapped by the function's own deno.json (remote) and a local file
  write(
    "functions/mapped/deno.json",
    JSON.stringify({ imports: { "greet-lib/": `${origin}/lib/`, local: "./local.ts" }, compilerOptions: {} }),
  );
  write("functions/mapped/local.ts", `export const suffix = "!";\n`);
  write(
    "functions/mapped/index.ts",
    `import { greet } from "greet-lib/greet.ts";\nimport { suffix } from "local";\nDeno.serve(() => new Response(greet("mapped") + suffix));\n`,
  );
  // config.toml's import_map, relative to config.toml's folder
  write("config.toml", `[functions.configured]\nimport_map = "./maps/configured.jsonc"\n`);
  write("maps/configured.jsonc", `{\n  // JSONC\n  "imports": { "suffix": "../functions/_shared/suffix.ts", },\n}\n`);
  write("functions/_shared/suffix.ts", `export const suffix = "?";\n`);
  write(
    "functions/configured/index.ts",
    `import { suffix } from "suffix";\nDeno.serve(() => new Response("configured" + suffix));\n`,
  );
  // a remote import nobody has loaded yet
  write(
    "functions/uncached/index.ts",
    `import { shout } from "${origin}/lib/shout.ts?never-loaded";\nDeno.serve(() => new Response(shout("x")));\n`,
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(work, { recursive: true, force: true });
});

function stackWith(offline: boolean): Promise<TestStack> {
  return startTestStack({
    functions: {
      dir: path.join(work, "functions"),
      configFile: path.join(work, "config.toml"),
      cacheDir: path.join(work, "deno-cache"),
      offline,
    },
  });
}

async function call(stack: TestStack, name: string) {
  const res = await fetch(`${stack.url}/functions/v1/${name}`, {
    headers: { authorization: `Bearer ${stack.anonKey}` },
  });
  return { status: res.status, text: await res.text() };
}

describe("imports", () => {
  it("loads remote modules, and maps imports by the function's deno.json and config.toml's import_map", async () => {
    const stack = await stackWith(false);
    try {
      expect(await call(stack, "remote")).toEqual({ status: 200, text: "HELLO REMOTE" });
      expect(await call(stack, "mapped")).toEqual({ status: 200, text: "HELLO MAPPED!" });
      expect(await call(stack, "configured")).toEqual({ status: 200, text: "configured?" });
      expect(requests).toContain("/lib/greet.ts");
      expect(requests).toContain("/lib/shout.ts");
    } finally {
      await stack.close();
    }
  });

  it("starts again from the cache with the module's server gone", async () => {
    // close the keep-alive connections Deno holds now, or close() waits out their idle timeout
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    requests = [];
    const stack = await stackWith(false);
    try {
      expect(await call(stack, "remote")).toEqual({ status: 200, text: "HELLO REMOTE" });
      expect(await call(stack, "mapped")).toEqual({ status: 200, text: "HELLO MAPPED!" });
    } finally {
      await stack.close();
    }
    expect(requests).toEqual([]);
  });

  it("offline mode loads only what is cached", async () => {
    const stack = await stackWith(true);
    try {
      expect(await call(stack, "remote")).toEqual({ status: 200, text: "HELLO REMOTE" });
      expect(await call(stack, "mapped")).toEqual({ status: 200, text: "HELLO MAPPED!" });
      const refused = await call(stack, "uncached");
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.text)).toMatchObject({ code: "BOOT_ERROR" });
      expect(stack.functions.recentLogs().join("\n")).toMatch(/uncached.*(cached-only|not found in cache|cache)/is);
    } finally {
      await stack.close();
    }
    expect(requests).toEqual([]);
    // the server is started again for afterAll's close
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
});
