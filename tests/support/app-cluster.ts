/**
 * Teamboard as deployed, on this machine: a local stack in its own process
 * (PGlite, or a native PostgreSQL via DATABASE_URL), one or more instances of
 * the BUILT app under the production server (server.mjs, `npm start`), and a
 * real nginx in front of several of them (round-robin, no sticky sessions),
 * run unprivileged from a temporary folder on loopback ports. Used by the
 * load benchmark (scripts/bench-load.ts) and its short e2e version.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { readStoredKeys } from "../../stack/keys.ts";

export interface Proc {
  pid: number;
  /** everything it wrote to stdout (the app's access log) */
  output(): string;
  /** peak resident memory so far, in MB (Linux VmHWM) */
  peakRssMb(): number | null;
  stop(): Promise<number | null>;
}

export interface Backend extends Proc {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

function track(child: ChildProcess, label: string): Proc {
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    // keep memory bounded on long runs: the tail is what a failure needs, counts are taken along the way
    if (out.length > 4_000_000) out = out.slice(-2_000_000);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
    if (err.length > 200_000) err = err.slice(-100_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    pid: child.pid!,
    output: () => out,
    peakRssMb() {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
        const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
        return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
      } catch {
        return null;
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 30_000))]);
      if (code === "timeout") {
        child.kill("SIGKILL");
        throw new Error(`${label} did not stop within 30 s of SIGTERM. stderr:\n${err.slice(-2000)}`);
      }
      return code;
    },
    toString: () => `${label} (pid ${child.pid})\nstderr: ${err.slice(-2000)}`,
  } as Proc;
}

async function waitFor(url: string, child: ChildProcess, what: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before answering`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms`);
}

/** The local stack as its own process (`npm run stack`, without npm in between so the pid is the stack's). */
export async function startBackend(options: {
  jwtExpiry: number;
  siteUrl: string;
  databaseUrl?: string;
  latency?: string;
}): Promise<Backend> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-cluster-"));
  const args = ["--import", "tsx", "stack/cli.ts", "--port", String(port), "--data-dir", dataDir];
  if (options.latency) args.push("--latency", options.latency);
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl ?? "",
      GOTRUE_JWT_EXP: String(options.jwtExpiry),
      GOTRUE_SITE_URL: options.siteUrl,
      // every simulated person signs in from 127.0.0.1
      GOTRUE_RATE_LIMIT_TOKEN_PER_MINUTE: "1000000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = track(child, "stack");
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/auth/v1/health`, child, "the stack");
  const keys = readStoredKeys(dataDir);
  if (!keys) throw new Error("the stack wrote no keys");
  const stop = proc.stop;
  return Object.assign(proc, {
    url,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    async stop() {
      const code = await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  });
}

/** One instance of the built app under server.mjs. The instances of a cluster share SESSION_SECRET. */
export async function startApp(
  backend: Backend,
  options: { port?: number; sessionSecret: string; env?: Record<string, string> },
): Promise<Proc & { url: string }> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ["server.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      SUPABASE_URL: backend.url,
      SUPABASE_ANON_KEY: backend.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
      SESSION_SECRET: options.sessionSecret,
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = track(child, `app :${port}`);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, child, "the app");
  return Object.assign(proc, { url });
}

export const newSessionSecret = () => crypto.randomBytes(32).toString("hex");

/** Debian's nginx (installs it with apt-get when missing and allowed, as CI does for Chromium). */
export function findNginx(): string {
  const known = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => fs.existsSync(p));
  if (known) return known;
  const which = spawnSync("which", ["nginx"], { encoding: "utf8" });
  if (which.status === 0) return which.stdout.trim();
  const root = process.getuid?.() === 0;
  const sh = (args: string[]) =>
    spawnSync(root ? args[0] : "sudo", root ? args.slice(1) : ["-n", ...args], { stdio: "inherit" });
  sh(["apt-get", "update", "-qq"]);
  sh(["apt-get", "install", "-y", "-qq", "nginx"]);
  const installed = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => fs.existsSync(p));
  if (!installed) throw new Error("nginx is needed for the multi-instance test: apt-get install -y nginx");
  return installed;
}

/**
 * nginx on a loopback port, round-robin over `upstreams`, no sticky
 * sessions; its own prefix, config, pid and temp folders, no daemon.
 */
export async function startNginx(upstreams: string[]): Promise<Proc & { url: string }> {
  const bin = findNginx();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-nginx-"));
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream teamboard {
${upstreams.map((u) => `    server ${new URL(u).host};`).join("\n")}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://teamboard;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # a refreshed session's Set-Cookie headers (about 4 kB) plus the CSP outgrow nginx's
      # default 4-8 kB header buffer: without this, nginx answers 502
      proxy_buffer_size 32k;
      proxy_buffers 8 32k;
      proxy_busy_buffers_size 64k;
    }
  }
}
`,
  );
  const child = spawn(bin, ["-p", dir, "-c", conf, "-e", `${dir}/error.log`], { stdio: ["ignore", "pipe", "pipe"] });
  const proc = track(child, "nginx");
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, child, "nginx", 15_000);
  const stop = proc.stop;
  return Object.assign(proc, {
    url,
    async stop() {
      const code = await stop();
      fs.rmSync(dir, { recursive: true, force: true });
      return code;
    },
  });
}
