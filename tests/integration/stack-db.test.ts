import { fork, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, MigrationError } from "../../stack/db/migrate.ts";
import { acquireLock, DataDirLockedError, openPglite } from "../../stack/db/pglite.ts";
import { loadOrCreateKeys } from "../../stack/keys.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

describe("the database as every request sees it", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
    await stack.db.exec(`
      create table public.notes (id serial primary key, owner uuid not null default auth.uid(), body text not null);
      alter table public.notes enable row level security;
      create policy "own notes" on public.notes for all to authenticated using (owner = auth.uid()) with check (owner = auth.uid());
    `);
  });
  afterAll(() => stack.close());

  const alice = { role: "authenticated", sub: "00000000-0000-0000-0000-00000000000a" };
  const bob = { role: "authenticated", sub: "00000000-0000-0000-0000-00000000000b" };

  it("runs each request as its JWT role with request.jwt.claims set", async () => {
    const row = await stack.db.asRequest({ role: "authenticated", claims: alice }, async (tx) => {
      const { rows } = await tx.query<{ uid: string; role: string; cu: string }>(
        "select auth.uid() as uid, auth.role() as role, current_user as cu",
      );
      return rows[0];
    });
    expect(row).toEqual({ uid: alice.sub, role: "authenticated", cu: "authenticated" });
  });

  it("applies row-level security per user, and anon sees nothing", async () => {
    await stack.db.asRequest({ role: "authenticated", claims: alice }, (tx) =>
      tx.query("insert into notes (body) values ('alice note')"),
    );
    const asBob = await stack.db.asRequest({ role: "authenticated", claims: bob }, (tx) =>
      tx.query("select * from notes"),
    );
    const asAlice = await stack.db.asRequest({ role: "authenticated", claims: alice }, (tx) =>
      tx.query<{ body: string }>("select body from notes"),
    );
    const asAnon = await stack.db.asRequest({ role: "anon", claims: { role: "anon" } }, (tx) =>
      tx.query("select * from notes"),
    );
    expect(asBob.rows).toEqual([]);
    expect(asAlice.rows).toEqual([{ body: "alice note" }]);
    expect(asAnon.rows).toEqual([]);
  });

  it("lets service_role bypass row-level security", async () => {
    const { rows } = await stack.db.asRequest({ role: "service_role", claims: { role: "service_role" } }, (tx) =>
      tx.query("select * from notes"),
    );
    expect(rows.length).toBe(1);
  });

  it("rolls back the request's transaction when it fails", async () => {
    await expect(
      stack.db.asRequest({ role: "authenticated", claims: alice }, async (tx) => {
        await tx.query("insert into notes (body) values ('lost')");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const { rows } = await stack.db.query("select * from notes where body = 'lost'");
    expect(rows).toEqual([]);
  });

  it("has the extensions Supabase projects use", async () => {
    const { rows } = await stack.db.query<{ extname: string }>("select extname from pg_extension order by 1");
    expect(rows.map((r) => r.extname)).toEqual(expect.arrayContaining(["citext", "pg_trgm", "pgcrypto", "uuid-ossp"]));
  });

  it("replaces an embedded engine whose pgcrypto says it lost its digests, and answers on the next call", async () => {
    // an unknown digest name is the one way to make pgcrypto say it on demand (LOST_DIGESTS in stack/db/pglite.ts)
    const recoveries = () =>
      stack.db.kind === "pglite" ? (stack.db as unknown as { recoveries: number }).recoveries : 0;
    const before = recoveries();
    const error = await stack.db
      .query("select extensions.pgp_sym_encrypt('x', 'k', 's2k-digest-algo=none-such')")
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe("Unsupported digest algorithm");
    const { rows } = await stack.db.query<{ n: number }>("select count(*)::int as n from notes");
    expect(rows).toEqual([{ n: 1 }]);
    expect(recoveries()).toBe(stack.db.kind === "pglite" ? before + 1 : 0);
  });
});

describe("migrations", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tb-migrations-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("applies each file once, in order, and stops on a failing one leaving the database as it was", async () => {
    fs.writeFileSync(path.join(dir, "20240101000000_first.sql"), "create table public.first (id int);");
    fs.writeFileSync(
      path.join(dir, "20240102000000_second.sql"),
      "create table public.second (id int);\n\ninsert into public.nope values (1);\n",
    );
    const db = await openPglite({ dataDir: null });
    try {
      const error = await migrate(db, { migrationsDir: dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      const m = error as MigrationError;
      expect(m.file).toMatch(/20240102000000_second\.sql$/);
      expect(m.line).toBe(3);
      expect(m.statement).toBe("insert into public.nope values (1)");
      expect(m.pgMessage).toMatch(/relation "public.nope" does not exist/);
      const tables = await db.query<{ t: string }>(
        "select table_name as t from information_schema.tables where table_schema = 'public' order by 1",
      );
      expect(tables.rows.map((r) => r.t)).toEqual(["first"]);

      fs.writeFileSync(path.join(dir, "20240102000000_second.sql"), "create table public.second (id int);");
      const report = await migrate(db, { migrationsDir: dir });
      expect(report.applied).toEqual(["20240102000000_second.sql"]);
      expect((await migrate(db, { migrationsDir: dir })).applied).toEqual([]);
      const versions = await db.query<{ version: string }>(
        "select version from supabase_migrations.schema_migrations order by 1",
      );
      expect(versions.rows.map((r) => r.version)).toEqual(["20240101000000", "20240102000000"]);
    } finally {
      await db.close();
    }
  });
});

describe("the data folder lock", () => {
  it("refuses a second holder, naming the folder and the holder's pid", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tb-lock-"));
    fs.writeFileSync(path.join(dir, "stack.lock"), String(process.ppid));
    expect(() => acquireLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireLock(dir)).toThrow(new RegExp(`${dir}.*pid ${process.ppid}`));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("takes over a lock left by a process that is gone", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tb-lock-"));
    fs.writeFileSync(path.join(dir, "stack.lock"), "999999");
    const release = acquireLock(dir);
    expect(fs.readFileSync(path.join(dir, "stack.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "stack.lock"))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

/** A pid that certainly runs no process: one that just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("the data folder lock under contention", () => {
  const WORKERS = 6;
  let workers: ChildProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    const file = path.resolve(import.meta.dirname, "../support/lock-worker.ts");
    workers = Array.from({ length: WORKERS }, () => fork(file, { execArgv: ["--import", "tsx"], stdio: "inherit" }));
    await Promise.all(workers.map((w) => new Promise((resolve) => w.once("message", resolve))));
  });
  afterAll(() => {
    for (const w of workers) w.send({ exit: true });
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const reply = <T>(w: ChildProcess) => new Promise<T>((resolve) => w.once("message", (m) => resolve(m as T)));

  /** Every worker calls acquireLock on `dir` at the same instant; returns the winners' pids. */
  async function round(dir: string): Promise<number[]> {
    const at = Date.now() + 40;
    const answers = workers.map((w) => reply<{ won: boolean; pid?: number; error?: string }>(w));
    for (const w of workers) w.send({ dir, at });
    const results = await Promise.all(answers);
    for (const r of results) if (!r.won) expect(r.error).toBe("DataDirLockedError");
    const released = workers.map((w) => reply(w));
    for (const w of workers) w.send({ release: true });
    await Promise.all(released);
    return results.filter((r) => r.won).map((r) => r.pid!);
  }

  function freshDir() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tb-lock-race-"));
    dirs.push(dir);
    return dir;
  }

  it("exactly one of many simultaneous acquireLock calls wins, on a free folder and on a stale lock", async () => {
    const dead = deadPid();
    for (let i = 0; i < 24; i++) {
      const dir = freshDir();
      const stale = i % 2 === 1;
      if (stale) fs.writeFileSync(path.join(dir, "stack.lock"), String(dead));
      let lockSeen = "";
      // the lock, whenever it exists, already holds the winner's pid
      const watcher = setInterval(() => {
        try {
          const text = fs.readFileSync(path.join(dir, "stack.lock"), "utf8");
          if (text === "") lockSeen = "empty";
        } catch {
          /* not there */
        }
      }, 1);
      const winners = await round(dir);
      clearInterval(watcher);
      expect(winners, `round ${i} (${stale ? "stale lock" : "free folder"})`).toHaveLength(1);
      expect(lockSeen).toBe("");
      expect(fs.readdirSync(dir).filter((f) => f.startsWith("stack.lock"))).toEqual([]);
    }
  });

  it("never removes a lock it can't prove stale: an empty or unreadable lock stays, and nobody wins", async () => {
    for (const content of ["", "not a pid", "-1"]) {
      const dir = freshDir();
      fs.writeFileSync(path.join(dir, "stack.lock"), content);
      expect(await round(dir)).toEqual([]);
      expect(fs.readFileSync(path.join(dir, "stack.lock"), "utf8")).toBe(content);
    }
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, "stack.lock"), "");
    expect(() => acquireLock(dir)).toThrow(/names no process.*delete .*stack\.lock/s);
  });

  it("a lock this process holds is refused to a second caller in the same process", () => {
    const dir = freshDir();
    const release = acquireLock(dir);
    expect(() => acquireLock(dir)).toThrow(DataDirLockedError);
    release();
    acquireLock(dir)();
  });
});

describe("the data folder is private", () => {
  it("is made 0700 with nothing in it readable by others, including a folder made before", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tb-private-"));
    try {
      fs.chmodSync(dir, 0o755);
      fs.mkdirSync(path.join(dir, "storage", "buckets", "avatars"), { recursive: true, mode: 0o755 });
      fs.writeFileSync(path.join(dir, "storage", "buckets", "avatars", "old.png"), "x", { mode: 0o644 });
      const stack = await startTestStack({ dataDir: dir });
      try {
        await loadOrCreateKeys(dir);
        const open: string[] = [];
        const walk = [dir];
        while (walk.length) {
          const at = walk.pop()!;
          const st = fs.lstatSync(at);
          if (st.mode & 0o077) open.push(`${path.relative(dir, at) || "."} ${(st.mode & 0o777).toString(8)}`);
          if (st.isDirectory()) for (const name of fs.readdirSync(at)) walk.push(path.join(at, name));
        }
        expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
        // on PGlite the database's own files are in it too
        if (!process.env.TEST_DATABASE_URL) expect(fs.existsSync(path.join(dir, "pgdata", "PG_VERSION"))).toBe(true);
        expect(fs.existsSync(path.join(dir, "keys.json"))).toBe(true);
        expect(open).toEqual([]);
      } finally {
        await stack.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // one folder-backed start: writing the database's files takes 5–25 s on a busy 2-core machine
  }, 90_000);
});
