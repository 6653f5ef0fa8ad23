import fs from "node:fs";
import path from "node:path";
import { Hono, type Context } from "hono";
import type { ServiceContext, StackService } from "../context.ts";
import { bearerToken } from "../http/identity.ts";
import { BodyTooLargeError, readBodyLimited } from "../http/limits.ts";
import { findFunction, listFunctions, readEnvFile, type FunctionInfo } from "./project.ts";
import { ImportMapError, prepareImportMap } from "./imports.ts";
import { BootError, FunctionWorker, SECRET_HEADER } from "./worker.ts";

/**
 * /functions/v1/<name>: the project's Edge Functions (supabase/functions),
 * each run on real Deno in its own process, as `supabase functions serve`
 * runs them: JWT verified unless `verify_jwt = false`, the request passed on
 * with its Authorization header, errors answered with the edge runtime's
 * status codes and bodies. See docs/decisions for what differs from hosted.
 */
export interface FunctionsService extends StackService {
  list(): FunctionInfo[];
  /** the last lines the functions logged, each prefixed with its function's name (newest last) */
  recentLogs(): string[];
}

export interface FunctionsOptions {
  /** SMTP server the functions send mail through (the inbox's listener locally) */
  smtp: { host: string; port: number } | null;
}

const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "host",
  "upgrade",
];

function runtimeError(status: number, code: string, message: string) {
  return Response.json({ code, message }, { status });
}

const bootError = () => runtimeError(503, "BOOT_ERROR", "Worker failed to boot (please check logs)");
const workerError = () => runtimeError(500, "WORKER_ERROR", "Function exited due to an error (please check logs)");
const workerLimit = () =>
  runtimeError(546, "WORKER_LIMIT", "Worker failed to respond due to a resource limit (please check logs)");

export function createFunctionsService(ctx: ServiceContext, options: FunctionsOptions): FunctionsService {
  const { config } = ctx;
  const dir = path.resolve(config.functions.dir);
  const configFile = path.resolve(config.functions.configFile);
  const root = process.cwd();
  // remote and jsr: modules are cached with the data, so a second start works offline
  const denoDir = path.resolve(
    config.functions.cacheDir ??
      (config.dataDir ? path.join(config.dataDir, "deno") : path.join(root, "node_modules/.cache/deno")),
  );
  const workers = new Map<string, FunctionWorker>();
  const logs: string[] = [];

  const log = (name: string, line: string) => {
    logs.push(`[${name}] ${line}`);
    if (logs.length > 500) logs.splice(0, logs.length - 500);
    ctx.log(name, line);
  };

  /** What Deno.env holds in a function: the project's keys and URL, as the CLI injects them, then functions/.env. */
  function environment(): Record<string, string> {
    const env: Record<string, string> = {
      SUPABASE_URL: ctx.apiUrl,
      SUPABASE_ANON_KEY: ctx.keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: ctx.keys.serviceRoleKey,
      // The app's address (email links point there); on hosted, set it with `supabase secrets set SITE_URL=…`
      SITE_URL: config.auth.siteUrl,
    };
    if (ctx.db.url) env.SUPABASE_DB_URL = ctx.db.url;
    // the standby key's private half, as a deployer sets it on hosted (stack/keys.ts; functions/.env may replace it)
    if (ctx.keys.standbyPrivateJwk) env.API_TOKEN_SIGNING_KEY = JSON.stringify(ctx.keys.standbyPrivateJwk);
    if (options.smtp) {
      env.SMTP_HOST = options.smtp.host;
      env.SMTP_PORT = String(options.smtp.port);
    }
    // As on hosted, names starting with SUPABASE_ are reserved and skipped.
    for (const [key, value] of Object.entries(readEnvFile(path.join(dir, ".env")))) {
      if (!key.startsWith("SUPABASE_")) env[key] = value;
    }
    return env;
  }

  function workerFor(fn: FunctionInfo): FunctionWorker {
    let worker = workers.get(fn.name);
    if (!worker) {
      worker = new FunctionWorker({
        name: fn.name,
        entrypoint: fn.entrypoint,
        env: environment(),
        readable: [dir, path.join(root, "node_modules"), path.join(root, "package.json")],
        denoDir,
        offline: config.functions.offline,
        // read when the worker starts; a changed map restarts it like any file (the watcher)
        importMap: fn.importMap ? prepareImportMap(fn.importMap, path.join(denoDir, "import-maps"), fn.name) : null,
        log: (line) => log(fn.name, line),
      });
      workers.set(fn.name, worker);
    }
    return worker;
  }

  /** A changed file restarts its function (shared folders and .env: all of them) on the next call. */
  let watcher: fs.FSWatcher | null = null;
  if (fs.existsSync(dir)) {
    try {
      watcher = fs.watch(dir, { recursive: true }, (_event, file) => {
        const first = String(file ?? "").split(/[\\/]/)[0];
        const stale = workers.has(first)
          ? [first]
          : first.startsWith("_") || first.startsWith(".") || first === "import_map.json" || !first
            ? [...workers.keys()]
            : [];
        for (const name of stale) {
          const worker = workers.get(name);
          workers.delete(name);
          if (worker?.running) log(name, "files changed: restarting on the next request");
          worker?.stop();
        }
      });
    } catch (error) {
      ctx.log("functions", `hot reload is off: ${(error as Error).message}`);
    }
  }

  async function verifyJwt(c: Context): Promise<Response | null> {
    const header = c.req.header("authorization");
    if (!header) return Response.json({ msg: "Error: Missing authorization header" }, { status: 401 });
    const token = bearerToken(c);
    if (!token || !/^Bearer /.test(header))
      return Response.json({ msg: "Error: Auth header is not 'Bearer {token}'" }, { status: 401 });
    try {
      await ctx.keys.verify(token);
      return null;
    } catch {
      return Response.json({ msg: "Invalid JWT" }, { status: 401 });
    }
  }

  async function readBody(c: Context): Promise<ArrayBuffer | null | "too large"> {
    if (c.req.method === "GET" || c.req.method === "HEAD") return null;
    if (!c.req.raw.body) return null;
    try {
      const bytes = await readBodyLimited(c.req.raw, config.functions.maxBodyBytes);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    } catch (error) {
      if (error instanceof BodyTooLargeError) return "too large";
      throw error;
    }
  }

  async function serve(c: Context): Promise<Response> {
    const name = c.req.param("name") ?? "";
    const fn = findFunction(dir, configFile, name);
    if (!fn) return new Response("Function not found", { status: 404, headers: { "content-type": "text/plain" } });
    // a browser's preflight carries no token: it reaches the function, which answers its own CORS
    if (fn.verifyJwt && c.req.method !== "OPTIONS") {
      const refused = await verifyJwt(c);
      if (refused) return refused;
    }
    const body = await readBody(c);
    if (body === "too large") {
      return runtimeError(
        413,
        "PAYLOAD_TOO_LARGE",
        `The request body is larger than ${config.functions.maxBodyBytes} bytes`,
      );
    }

    let worker: FunctionWorker;
    let port: number;
    try {
      worker = workerFor(fn);
      port = await worker.port();
    } catch (error) {
      if (error instanceof ImportMapError) {
        log(fn.name, `boot error: import map ${error.message}`);
        return bootError();
      }
      if (error instanceof BootError) {
        log(fn.name, `boot error: ${error.message}`);
        return bootError();
      }
      throw error;
    }

    const url = new URL(c.req.url);
    const rest = url.pathname.slice(url.pathname.indexOf("/functions/v1/") + "/functions/v1".length);
    const headers = new Headers(c.req.raw.headers);
    for (const h of HOP_BY_HOP) headers.delete(h);
    headers.set("x-forwarded-host", url.host);
    headers.set("x-forwarded-proto", url.protocol.replace(":", ""));
    headers.set(SECRET_HEADER, worker.secret);

    // The wall clock runs from the request to the end of the response body.
    const abort = new AbortController();
    let limitHit = false;
    const timer = setTimeout(() => {
      limitHit = true;
      log(fn.name, `wall clock limit of ${config.functions.wallClockLimitMs} ms reached: stopping the worker`);
      abort.abort();
      worker.stop("SIGKILL");
    }, config.functions.wallClockLimitMs);
    let crashed = false;
    const offExit = worker.onExit(() => {
      crashed = true;
      abort.abort();
    });
    const done = () => {
      clearTimeout(timer);
      offExit();
    };

    let upstream: Response;
    try {
      upstream = await fetch(`http://127.0.0.1:${port}${rest}${url.search}`, {
        method: c.req.method,
        headers,
        body,
        redirect: "manual",
        signal: abort.signal,
      });
    } catch {
      done();
      if (limitHit) return workerLimit();
      if (!crashed) worker.stop("SIGKILL");
      return workerError();
    }
    const out = new Headers(upstream.headers);
    for (const h of HOP_BY_HOP) out.delete(h);
    if (!upstream.body) {
      done();
      return new Response(null, { status: upstream.status, headers: out });
    }
    // Streamed through as it comes (an export may be large).
    const reader = upstream.body.getReader();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done: finished, value } = await reader.read();
          if (finished) {
            done();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          done();
          controller.error(error);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(stream, { status: upstream.status, headers: out });
  }

  const app = new Hono();
  app.all("/:name", serve);
  app.all("/:name/*", serve);

  return {
    name: "functions",
    // a function answers CORS itself, its preflights included, as on hosted
    http: { mount: "/functions/v1", app, access: "api", ownCors: true, maxBodyBytes: config.functions.maxBodyBytes },
    list: () => listFunctions(dir, configFile),
    recentLogs: () => [...logs],
    async close() {
      watcher?.close();
      for (const worker of workers.values()) worker.stop("SIGKILL");
      workers.clear();
    },
  };
}
