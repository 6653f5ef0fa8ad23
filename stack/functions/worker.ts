import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const BOOTSTRAP = fileURLToPath(new URL("./deno/bootstrap.ts", import.meta.url));
const BOOT_TIMEOUT_MS = 30_000;

/**
 * Deno's binary from the `deno` npm package (its per-platform optional
 * dependency holds the executable), so `npm install` is all it takes.
 */
export function denoBinary(): string {
  const require = createRequire(import.meta.url);
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const candidates =
    process.platform === "linux"
      ? [`@deno/linux-${arch}-glibc`]
      : process.platform === "darwin"
        ? [`@deno/darwin-${arch}`]
        : [`@deno/win32-${arch}`];
  for (const pkg of candidates) {
    try {
      const dir = path.dirname(require.resolve(`${pkg}/package.json`));
      const exe = path.join(dir, process.platform === "win32" ? "deno.exe" : "deno");
      if (fs.existsSync(exe)) return exe;
    } catch {
      /* not installed for this platform */
    }
  }
  const fallback = path.join(path.dirname(require.resolve("deno/package.json")), "deno");
  if (fs.existsSync(fallback)) return fallback;
  throw new Error("Deno is not installed: run `npm install` (the `deno` package provides it)");
}

export class BootError extends Error {}

export interface WorkerOptions {
  name: string;
  entrypoint: string;
  /** what Deno.env shows the function (nothing else of the stack's environment) */
  env: Record<string, string>;
  /** folders the function may read: its functions folder and node_modules */
  readable: string[];
  /** Deno's cache: remote and jsr: modules once loaded (so the next start works offline) */
  denoDir: string;
  /** load nothing that is not in the cache yet (Deno's --cached-only): CI and machines without network */
  offline: boolean;
  /** the function's import map (see imports.ts), or null */
  importMap: string | null;
  log: (line: string) => void;
}

/** The header that carries a worker's secret: its port answers nobody who lacks it. */
export const SECRET_HEADER = "x-stack-worker-secret";

/**
 * One function's Deno process. Started on demand; serves concurrent requests
 * on a loopback port it announces on stdout; stopped when its files change,
 * when it crashes, or when a request runs past the wall-clock limit.
 */
export class FunctionWorker {
  readonly name: string;
  private child: ChildProcess | null = null;
  private ready: Promise<number> | null = null;
  private exitListeners = new Set<() => void>();
  /** what the stack sends in SECRET_HEADER; given to the process on its stdin */
  readonly secret = crypto.randomBytes(32).toString("base64url");

  constructor(private readonly options: WorkerOptions) {
    this.name = options.name;
  }

  get running() {
    return this.child !== null;
  }

  /** The port the function listens on, starting it if needed. Throws BootError when it can't start. */
  port(): Promise<number> {
    this.ready ??= this.start();
    return this.ready;
  }

  /** Called once when the current process ends (crash, stop, limit). */
  onExit(listener: () => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  stop(signal: NodeJS.Signals = "SIGTERM") {
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
  }

  private start(): Promise<number> {
    const marker = `\u0001listening:${crypto.randomBytes(6).toString("hex")}:`;
    const { entrypoint, readable, env, denoDir, log, offline, importMap } = this.options;
    const args = [
      "run",
      "--quiet",
      "--no-prompt",
      ...(offline ? ["--cached-only"] : []),
      ...(importMap ? [`--import-map=${importMap}`] : []),
      "--node-modules-dir=manual",
      // Deno would write a deno.lock beside package.json (the project) once a remote module loads
      "--no-lock",
      "--no-check",
      // remote imports from any host, as the edge runtime loads them
      "--allow-import",
      "--allow-net",
      "--allow-env",
      "--allow-sys=hostname,osRelease,networkInterfaces,homedir,uid,gid,cpus,loadavg",
      // request.signal aborts when the client goes away, not after every successful response (Deno's
      // legacy default, which warns on every start since 2.8 and the bootstrap's Request copy reads it)
      "--unstable-no-legacy-abort",
      `--allow-read=${[...readable, BOOTSTRAP].join(",")}`,
      BOOTSTRAP,
      pathToFileURL(entrypoint).href,
      marker,
    ];
    const child = spawn(denoBinary(), args, {
      cwd: process.cwd(),
      env: { ...env, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } as unknown as NodeJS.ProcessEnv,
      // stdin carries the secret, then stays open: the bootstrap exits when it
      // closes, so no function outlives a stack that was killed
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin!.on("error", () => {}); // a process that died early: its exit says why
    child.stdin!.write(`${this.secret}\n`);
    this.child = child;
    return new Promise<number>((resolve, reject) => {
      let booted = false;
      const timer = setTimeout(() => {
        if (!booted) {
          reject(new BootError(`${this.name} did not start within ${BOOT_TIMEOUT_MS} ms`));
          this.stop("SIGKILL");
        }
      }, BOOT_TIMEOUT_MS);
      const lines = (stream: NodeJS.ReadableStream, onLine: (line: string) => void) => {
        let buffered = "";
        stream.setEncoding("utf8");
        stream.on("data", (chunk: string) => {
          buffered += chunk;
          let i: number;
          while ((i = buffered.indexOf("\n")) >= 0) {
            onLine(buffered.slice(0, i));
            buffered = buffered.slice(i + 1);
          }
        });
        stream.on("end", () => {
          if (buffered) onLine(buffered);
        });
      };
      lines(child.stdout!, (line) => {
        if (!booted && line.startsWith(marker)) {
          booted = true;
          clearTimeout(timer);
          resolve(Number(line.slice(marker.length)));
          return;
        }
        log(line);
      });
      lines(child.stderr!, (line) => log(line));
      child.once("error", (error) => {
        clearTimeout(timer);
        if (!booted) reject(new BootError(error.message));
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        if (this.child === child) {
          this.child = null;
          this.ready = null;
        }
        if (!booted) reject(new BootError(`${this.name} exited before serving (${signal ?? `code ${code}`})`));
        else if (signal !== "SIGTERM") log(`process ended (${signal ?? `code ${code}`})`);
        for (const listener of [...this.exitListeners]) listener();
        this.exitListeners.clear();
      });
    });
  }
}
