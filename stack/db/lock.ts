import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The data folder's lock: `stack.lock`, holding the pid of the stack that
 * uses the folder. Two embedded databases on one folder would silently lose
 * data, so taking it must be exclusive and leaving it must never free a lock
 * someone still holds:
 *
 * - The pid is written to a private temporary file first, which is then
 *   hard-linked to `stack.lock`. link(2) fails if the name exists, so exactly
 *   one of any number of racing processes creates the lock, and the lock has
 *   its pid the moment it exists (a reader never sees it empty).
 * - A lock is removed only when it is provably stale: it names a pid that no
 *   longer runs. An empty or unreadable lock proves nothing and is refused.
 *   Of several processes that find the same stale lock, only the one that
 *   claims it (an exclusive marker named after the dead pid and the lock's
 *   inode) removes it, after checking the lock is still that same file; the
 *   others start over and then find the winner's live lock.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number | null,
  ) {
    super(
      pid === null
        ? `The data folder ${dataDir} has a lock file (stack.lock) that names no process, so it can't be told stale. ` +
            `If no local stack is running on this folder, delete ${path.join(dataDir, "stack.lock")} and start again.`
        : `The data folder ${dataDir} is in use by another local stack (pid ${pid}). ` +
            `Stop that process first, or start this one with --data-dir <another folder>. ` +
            `Two embedded databases on one folder would silently lose data.`,
    );
    this.name = "DataDirLockedError";
  }
}

export const LOCK_FILE = "stack.lock";

/** Whether a process with this pid runs (one we may not signal runs too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Locks this process holds (by folder), so a lock naming our own pid is told apart from one a dead process with the same pid left. */
const held = new Set<string>();

interface LockFile {
  pid: number | null;
  ino: number;
}

/** The lock as it is now (null when there is none). */
function readLock(lockPath: string): LockFile | null {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const { ino } = fs.fstatSync(fd);
    const text = fs.readFileSync(fd, "utf8").trim();
    const pid = /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : null;
    return { pid, ino };
  } finally {
    fs.closeSync(fd);
  }
}

/** The folder for a stack's data: created private (0700), and made so if it already exists. */
export function ensurePrivateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/**
 * Takes group and other permissions off everything under `dir` (the folder
 * holds password hashes, refresh tokens and keys). Folders a stack creates
 * are private from the start and the CLI runs with umask 077; this also
 * mends folders made before that, and files a library created with its own
 * modes. Iterative; symbolic links are left alone.
 */
export function makePrivate(dir: string) {
  const stack = [dir];
  while (stack.length) {
    const at = stack.pop()!;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(at);
    } catch {
      continue; // removed meanwhile
    }
    if (st.isSymbolicLink()) continue;
    if (st.mode & 0o077) fs.chmodSync(at, st.mode & 0o700);
    if (st.isDirectory()) for (const name of fs.readdirSync(at)) stack.push(path.join(at, name));
  }
}

/** Blocks this thread for `ms` (acquireLock is synchronous, and this is only while another process finishes removing a stale lock). */
function pause(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes the stale lock `seen` if it is still in place, claiming it first
 * so that only one of the processes that found it removes it. Returns
 * whether the caller should try again at once (false: another process is
 * removing it, so wait a moment first).
 */
function removeStale(dataDir: string, lockPath: string, seen: LockFile): boolean {
  const claim = path.join(dataDir, `${LOCK_FILE}.stale-${seen.pid}-${seen.ino}`);
  try {
    fs.writeFileSync(claim, String(process.pid), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false; // another process is removing it
    throw error;
  }
  try {
    const now = readLock(lockPath);
    // Only the claimant of (pid, inode) unlinks, and a file with that inode and pid
    // can't be replaced without being unlinked first, so this removes the stale file and nothing else.
    if (now && now.ino === seen.ino && now.pid === seen.pid) fs.unlinkSync(lockPath);
  } finally {
    fs.rmSync(claim, { force: true });
  }
  return true;
}

/**
 * Takes the folder's lock, or throws DataDirLockedError naming the holder.
 * Returns the function that releases it (also run when the process exits).
 */
export function acquireLock(dataDir: string): () => void {
  ensurePrivateDir(dataDir);
  const lockPath = path.join(dataDir, LOCK_FILE);
  const temp = path.join(dataDir, `${LOCK_FILE}.${process.pid}.${crypto.randomBytes(6).toString("hex")}`);
  fs.writeFileSync(temp, String(process.pid), { flag: "wx", mode: 0o600 });
  // Bounded by time, not by attempts: on a busy machine the process removing
  // a stale lock may be descheduled while the others try again and again.
  const deadline = Date.now() + 10_000;
  try {
    while (Date.now() < deadline) {
      try {
        fs.linkSync(temp, lockPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = readLock(lockPath);
        if (!holder) continue; // released in the meantime
        if (holder.pid === null) throw new DataDirLockedError(dataDir, null);
        const ours = holder.pid === process.pid && held.has(path.resolve(dataDir));
        if (ours || (holder.pid !== process.pid && isAlive(holder.pid))) {
          throw new DataDirLockedError(dataDir, holder.pid);
        }
        if (!removeStale(dataDir, lockPath, holder)) pause(5); // its process is gone
        continue;
      }
      return holdLock(dataDir, lockPath, fs.statSync(temp).ino);
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
  throw new Error(
    `Could not take the lock on ${dataDir} within 10 s: it kept changing hands, or a stale ${LOCK_FILE}.stale-* claim ` +
      `was left by a process that died while removing a stale lock (delete it if no local stack is running).`,
  );
}

function holdLock(dataDir: string, lockPath: string, ino: number): () => void {
  const key = path.resolve(dataDir);
  held.add(key);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.delete(key);
    process.off("exit", release);
    try {
      // remove only the file we created
      if (readLock(lockPath)?.ino === ino) fs.unlinkSync(lockPath);
    } catch {
      /* already gone */
    }
  };
  process.once("exit", release);
  return release;
}
