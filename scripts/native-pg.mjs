// Starts a throwaway native PostgreSQL cluster for the test suite and prints
// its URL; `stop <dir>` stops it. Uses the machine's initdb/pg_ctl (PostgreSQL
// 15 on these machines). As root, the cluster runs as the `postgres` user,
// since PostgreSQL refuses to run as root.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

function findBin(name) {
  const candidates = [
    ...(process.env.PG_BIN ? [path.join(process.env.PG_BIN, name)] : []),
    ...(fs.existsSync("/usr/lib/postgresql")
      ? fs
          .readdirSync("/usr/lib/postgresql")
          .sort()
          .reverse()
          .map((v) => `/usr/lib/postgresql/${v}/bin/${name}`)
      : []),
  ];
  for (const c of candidates) if (fs.existsSync(c)) return c;
  const which = spawnSync("which", [name], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

const asRoot = process.getuid?.() === 0;
function run(bin, args) {
  if (asRoot) return execFileSync("runuser", ["-u", "postgres", "--", bin, ...args], { stdio: "pipe" });
  return execFileSync(bin, args, { stdio: "pipe" });
}

export async function startNativePostgres() {
  const initdb = findBin("initdb");
  const pgCtl = findBin("pg_ctl");
  if (!initdb || !pgCtl) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "teamboard-pg-"));
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  run(initdb, ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale"]);
  run(pgCtl, [
    "-D",
    dataDir,
    "-l",
    path.join(dir, "server.log"),
    "-w",
    "start",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200`,
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    stop() {
      try {
        run(pgCtl, ["-D", dataDir, "-m", "immediate", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pg = await startNativePostgres();
  if (!pg) {
    console.error("No initdb/pg_ctl found: install PostgreSQL (apt-get install -y postgresql).");
    process.exit(1);
  }
  console.log(`TEST_DATABASE_URL=${pg.url}`);
  console.log(`# stop with: pg_ctl -D ${pg.dir}/data stop`);
}
