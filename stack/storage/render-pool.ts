import { type ChildProcess, fork } from "node:child_process";
import os from "node:os";

/**
 * Image transformations in processes the stack can stop (render-worker.mjs).
 * libvips offers no way to interrupt a pipeline from outside it, and the
 * audit (issue 35, M2) rendered an SVG filter for 25 s per request and a
 * 7,000-px one still running 15 minutes after its client left. Here each
 * render runs in one of up to `IMAGE_CONCURRENCY` child processes; at its
 * deadline, or when its client disconnects, that process is killed (the
 * partial output goes with the caller's temporary file) and a fresh one
 * serves the next render. Idle processes are kept for the next renders.
 */
export const IMAGE_CONCURRENCY = Math.max(1, Math.min(4, os.availableParallelism()));
const WORKER = new URL("./render-worker.mjs", import.meta.url);

export interface RenderJob {
  input: string;
  output: string;
  resize?: Record<string, unknown>;
  format: "jpeg" | "png" | "webp" | "avif" | "gif" | "tiff";
  encode: Record<string, unknown>;
}

/** Why a render was stopped before its end. */
export class RenderStopped extends Error {
  constructor(readonly reason: "deadline" | "disconnected") {
    super(reason === "deadline" ? "the render ran past its deadline" : "the client went away");
    this.name = "RenderStopped";
  }
}

/** libvips refused the source or the output (its own message). */
export class RenderFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RenderFailed";
  }
}

const idle: ChildProcess[] = [];
let next = 0;
let busy = 0;
let stopped = 0;

function worker(): ChildProcess {
  const reused = idle.pop();
  if (reused) return reused;
  const child = fork(WORKER, [], {
    execArgv: [],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    serialization: "json",
  });
  // an idle worker never keeps the stack (or a test) from exiting
  child.unref();
  child.channel?.unref();
  child.on("exit", () => {
    const at = idle.indexOf(child);
    if (at >= 0) idle.splice(at, 1);
  });
  return child;
}

/**
 * Runs one render; stops it (and its process) at `deadlineMs` or when
 * `signal` aborts. The caller holds a place of IMAGE_CONCURRENCY meanwhile.
 */
export function runRender(job: RenderJob, deadlineMs: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new RenderStopped("disconnected"));
  const child = worker();
  const id = ++next;
  child.ref();
  child.channel?.ref();
  busy++;
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error, keep = false) => {
      busy--;
      if (error instanceof RenderStopped) stopped++;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (keep && child.connected) {
        child.unref();
        child.channel?.unref();
        idle.push(child);
      } else child.kill("SIGKILL");
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (m: { id: number; error?: string }) => {
      if (m.id !== id) return;
      done(m.error === undefined ? undefined : new RenderFailed(m.error), true);
    };
    const onExit = (code: number | null) => done(new RenderFailed(`the renderer ended (${code})`));
    const onAbort = () => done(new RenderStopped("disconnected"));
    const timer = setTimeout(() => done(new RenderStopped("deadline")), deadlineMs);
    child.on("message", onMessage);
    child.on("exit", onExit);
    signal?.addEventListener("abort", onAbort, { once: true });
    child.send({ id, ...job });
  });
}

/** Renders under way, and renders stopped so far (at their deadline or their client's leaving). */
export function renderCounts(): { busy: number; stopped: number } {
  return { busy, stopped };
}
