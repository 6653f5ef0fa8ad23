// What `npm run dev` decides before it starts anything (scripts/dev.mjs): which
// ports the app and the local stack get, and whether a stack that already
// answers is this checkout's own.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/** Whether nothing listens on `port` at `host` (we could listen there ourselves). */
export function isPortFree(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * The first port from `preferred` on (in steps of `step`, at most `tries`)
 * where every one of `port + offset` (for each of `offsets`) is free, or null.
 * The stack takes its port and port + 4 (SMTP), so it asks for [0, 4].
 */
export async function findFreePort(preferred, { host = "127.0.0.1", offsets = [0], step = 1, tries = 20 } = {}) {
  for (let i = 0; i < tries; i++) {
    const port = preferred + i * step;
    if (port > 65535) break;
    let free = true;
    for (const offset of offsets) {
      free = port + offset <= 65535 && (await isPortFree(port + offset, host));
      if (!free) break;
    }
    if (free) return port;
  }
  return null;
}

/**
 * The first offset (0, `step`, 2 × `step`, …) at which every one of `ports` +
 * offset is free, or null: where `npm test` runs the e2e suite when something
 * (another checkout's run, a stack left running) holds its usual ports.
 */
export async function findFreeOffset(ports, { host = "127.0.0.1", step = 100, tries = 20 } = {}) {
  const [first] = ports;
  const port = await findFreePort(first, { host, offsets: ports.map((p) => p - first), step, tries });
  return port === null ? null : port - first;
}

/** The keys this checkout's stack made in its data folder (null before its first start). */
export function readKeys(dataDir) {
  const file = path.join(dataDir, "keys.json");
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null;
}

/** The pid in the data folder's lock while a stack holds it (stack/db/lock.ts), else null. */
export function lockHolder(dataDir) {
  let text;
  try {
    text = fs.readFileSync(path.join(dataDir, "stack.lock"), "utf8").trim();
  } catch {
    return null;
  }
  const pid = /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : null;
  if (pid === null) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return error.code === "EPERM" ? pid : null;
  }
}

/**
 * What answers at `url`: "none" (nothing, or not a local stack), "ours" (a
 * local stack that accepts this checkout's service role key, so it runs on
 * this checkout's data folder: each folder makes its own signing keys) or
 * "other" (a stack on another data folder, e.g. another checkout's).
 */
export async function whoAnswers(url, keys) {
  let health;
  try {
    health = await fetch(`${url}/auth/v1/health`, { signal: AbortSignal.timeout(1000) });
  } catch {
    return "none";
  }
  if (!health.ok) return "other";
  if (!keys?.serviceRoleKey) return "other";
  try {
    const res = await fetch(`${url}/_stack/requests/tally`, {
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}` },
      signal: AbortSignal.timeout(1000),
    });
    return res.ok ? "ours" : "other";
  } catch {
    return "other";
  }
}

/**
 * Where this checkout's local stack is, or is to be started:
 * `{ use: url }` (it already runs there), `{ start: port, note? }` or
 * `{ fail: message }`. `chosen` is STACK_PORT (a taken port is then an
 * error), `preferred` the default (a taken one gives way to a free one).
 * @param {{ dataDir: string, preferred: number, chosen?: number | null, host?: string }} options
 * @returns {Promise<{ use?: string, start?: number, note?: string, fail?: string }>}
 */
export async function planStack({ dataDir, preferred, chosen = null, host = "127.0.0.1" }) {
  const keys = readKeys(dataDir);
  const first = chosen ?? preferred;
  const urlOf = (port) => `http://${host}:${port}`;
  const there = await whoAnswers(urlOf(first), keys);
  if (there === "ours") return { use: urlOf(first) };
  const holder = lockHolder(dataDir);
  if (holder !== null)
    return {
      fail:
        `this checkout's stack already runs (pid ${holder}) on another port than ${first}: ` +
        `start with STACK_PORT=<its port>, or stop it first`,
    };
  if (there === "none" && (await isPortFree(first, host)) && (await isPortFree(first + 4, host)))
    return { start: first };
  const why =
    there === "other"
      ? `another stack (not on this checkout's data folder) answers on port ${first}`
      : `port ${first} or ${first + 4} (its mail port) is taken`;
  if (chosen !== null) return { fail: `${why}: choose another STACK_PORT` };
  const port = await findFreePort(first + 10, { host, offsets: [0, 4], step: 10 });
  if (port === null) return { fail: `${why}, and so are the next 20 candidates: set STACK_PORT` };
  return { start: port, note: `${why}; the stack takes port ${port} instead` };
}

/**
 * The app's port: `chosen` (PORT) if free, else a message; or the first free one from `preferred` on.
 * @param {{ preferred: number, chosen?: number | null, host?: string }} options
 * @returns {Promise<{ port?: number, note?: string, fail?: string }>}
 */
export async function planAppPort({ preferred, chosen = null, host = "localhost" }) {
  if (chosen !== null)
    return (await isPortFree(chosen, host))
      ? { port: chosen }
      : { fail: `PORT ${chosen} is taken: choose another PORT, or stop what listens there` };
  const port = await findFreePort(preferred, { host });
  if (port === null) return { fail: `ports ${preferred}-${preferred + 19} are all taken: set PORT` };
  return port === preferred
    ? { port }
    : { port, note: `port ${preferred} is taken; the app takes port ${port} instead` };
}
