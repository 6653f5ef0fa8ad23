/**
 * Storage API figures on this machine (no thresholds; it prints):
 *   - upload and download throughput (MB/s) for 1 MB and 50 MB objects, beside
 *     a plain streamed file copy on the same disk (the ratio);
 *   - the stack process's resident memory before and at its peak while the
 *     50 MB object moves (it must not grow by the object's size).
 *
 *   npm run bench:storage [-- --runs-small 15 --runs-large 3]
 *
 * The stack runs as its own process (as `npm run stack` does) so its memory
 * is its own; the client streams from and to files on disk.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { readStoredKeys } from "../keys.ts";
import { rssOf, startStackProcess } from "./stack-process.ts";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const RUNS_SMALL = arg("runs-small", 15);
const RUNS_LARGE = arg("runs-large", 3);
const MB = 1024 * 1024;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number) => n.toFixed(1).padStart(7);

/** Samples a process's RSS every 5 ms while `fn` runs; returns the peak. */
async function peakRss<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 5);
  try {
    const result = await fn();
    return { result, peak: Math.max(peak, rssOf(pid)) };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  const stack = await startStackProcess("storage-bench", { FILE_SIZE_LIMIT: String(100 * MB) });
  const { base, child, work } = stack;
  try {
    const key = readStoredKeys(stack.dataDir)!.serviceRoleKey;
    const headers = { authorization: `Bearer ${key}`, apikey: key };
    await fetch(`${base}/storage/v1/bucket`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench" }),
    });

    const sizes = [
      { label: "1 MB", bytes: MB, runs: RUNS_SMALL },
      { label: "50 MB", bytes: 50 * MB, runs: RUNS_LARGE },
    ];
    console.log(`Storage API on ${os.cpus().length} cores (medians; figures on a shared machine are noisy)\n`);
    console.log("size    | copy MB/s | upload MB/s (ratio) | download MB/s (ratio)");
    let memory = "";
    for (const size of sizes) {
      const source = path.join(work, `source-${size.bytes}`);
      fs.writeFileSync(source, crypto.randomBytes(size.bytes));
      const copies: number[] = [];
      const ups: number[] = [];
      const downs: number[] = [];
      for (let run = 0; run < size.runs; run++) {
        let t = performance.now();
        await pipeline(fs.createReadStream(source), fs.createWriteStream(path.join(work, "copy")));
        copies.push(size.bytes / MB / ((performance.now() - t) / 1000));

        const name = `${size.bytes}-run-${run}.bin`;
        const upload = () =>
          fetch(`${base}/storage/v1/object/bench/${name}`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/octet-stream" },
            body: Readable.toWeb(fs.createReadStream(source)) as ReadableStream,
            duplex: "half",
          } as RequestInit).then(async (r) => {
            if (!r.ok) throw new Error(`upload failed: ${r.status} ${await r.text()}`);
          });
        const download = async () => {
          const r = await fetch(`${base}/storage/v1/object/bench/${name}`, { headers });
          if (!r.ok || !r.body) throw new Error(`download failed: ${r.status}`);
          await pipeline(Readable.fromWeb(r.body as never), fs.createWriteStream(path.join(work, "downloaded")));
        };
        const before = rssOf(child.pid!);
        t = performance.now();
        const up = await peakRss(child.pid!, upload);
        ups.push(size.bytes / MB / ((performance.now() - t) / 1000));
        t = performance.now();
        const down = await peakRss(child.pid!, download);
        downs.push(size.bytes / MB / ((performance.now() - t) / 1000));
        if (fs.statSync(path.join(work, "downloaded")).size !== size.bytes) throw new Error("downloaded size differs");
        if (size.bytes >= 50 * MB && run === size.runs - 1) {
          memory =
            `stack RSS while moving ${size.label}: before ${(before / MB).toFixed(0)} MB, ` +
            `peak during upload ${(up.peak / MB).toFixed(0)} MB (+${((up.peak - before) / MB).toFixed(0)}), ` +
            `peak during download ${(down.peak / MB).toFixed(0)} MB (+${((down.peak - before) / MB).toFixed(0)})`;
        }
      }
      const copy = median(copies);
      console.log(
        `${size.label.padEnd(7)} | ${fmt(copy)}   | ${fmt(median(ups))} (${(median(ups) / copy).toFixed(2)})     | ${fmt(median(downs))} (${(median(downs) / copy).toFixed(2)})`,
      );
    }
    console.log(`\n${memory}`);
  } finally {
    await stack.stop();
  }
}

await main();
