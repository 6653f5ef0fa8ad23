import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, MigrationError } from "../../stack/db/migrate.ts";
import { acquireLock, DataDirLockedError, openPglite } from "../../stack/db/pglite.ts";
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
