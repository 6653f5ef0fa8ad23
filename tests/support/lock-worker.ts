/**
 * A process that takes data-folder locks when told (tests/integration/stack-db.test.ts):
 * each round it spins until the agreed instant, so that all workers call
 * acquireLock at once, and reports whether it won.
 */
import { acquireLock } from "../../stack/db/lock.ts";

let releases: (() => void)[] = [];
process.on("message", (m: { dir: string; at: number } | { release: true } | { exit: true }) => {
  if ("exit" in m) process.exit(0);
  if ("release" in m) {
    for (const release of releases) release();
    releases = [];
    process.send!({ released: true });
    return;
  }
  while (Date.now() < m.at) {
    /* spin to the same instant as the others */
  }
  try {
    releases.push(acquireLock(m.dir));
    process.send!({ won: true, pid: process.pid });
  } catch (error) {
    process.send!({ won: false, error: (error as Error).name });
  }
});
process.send!({ ready: true });
