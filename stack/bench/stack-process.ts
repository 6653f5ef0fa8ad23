/**
 * The stack as its own process (as `npm run stack` runs it), for benchmarks
 * that measure its memory: a fresh data folder, a free port, and the
 * process's resident memory read from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface StackProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  dataDir: string;
  /** a scratch folder beside the data folder, removed with it */
  work: string;
  /** the process's resident memory now, in bytes */
  rss(): number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Starts the stack on a fresh data folder and resolves once it answers (a first start migrates: up to 90 s). */
export async function startStackProcess(name: string, env: Record<string, string> = {}): Promise<StackProcess> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const dataDir = path.join(work, "data");
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "stack/cli.ts", "--port", String(port), "--data-dir", dataDir],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } },
  );
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    fs.rmSync(work, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    if (i > 900 || child.exitCode !== null) {
      await stop();
      throw new Error("the stack did not start");
    }
    const up = await fetch(base).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, dataDir, work, rss: () => rssOf(child.pid!), stop };
}
