import fs from "node:fs";
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import ws from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

/**
 * The Storage API through supabase-js's storage client, against the stack:
 * buckets, uploads, downloads, listing, signed URLs, limits and hostile names,
 * with a bucket whose policies are the ones Supabase's docs give for
 * "each user writes in their own folder".
 */
const ALICE = "00000000-0000-4000-8000-00000000000a";
const BOB = "00000000-0000-4000-8000-00000000000b";

let stack: TestStack;
let admin: SupabaseClient;
let alice: SupabaseClient;
let bob: SupabaseClient;
let anon: SupabaseClient;
let aliceToken: string;

function client(token?: string) {
  return createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
    global: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
}

beforeAll(async () => {
  stack = await startTestStack({ storage: { fileSizeLimit: 3 * 1024 * 1024 } });
  await stack.db.exec(`
    insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
      values ('docs', 'docs', false, 1048576, array['text/*', 'application/pdf', 'image/png']),
             ('pics', 'pics', true, null, null);
    create policy "own folder read" on storage.objects for select to authenticated
      using (bucket_id = 'docs' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "own folder write" on storage.objects for insert to authenticated
      with check (bucket_id = 'docs' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "own folder update" on storage.objects for update to authenticated
      using (bucket_id = 'docs' and (storage.foldername(name))[1] = auth.uid()::text)
      with check (bucket_id = 'docs' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "own folder delete" on storage.objects for delete to authenticated
      using (bucket_id = 'docs' and (storage.foldername(name))[1] = auth.uid()::text);
  `);
  const sign = (sub: string) =>
    stack.keys.sign({ sub, role: "authenticated", aud: "authenticated" }, { expiresIn: 3600 });
  aliceToken = await sign(ALICE);
  admin = stack.adminClient();
  alice = client(aliceToken);
  bob = client(await sign(BOB));
  anon = stack.anonClient();
});
afterAll(() => stack?.close());

const text = (s: string) => new Blob([s], { type: "text/plain" });

function filesOnDisk(): string[] {
  const root = path.join(storageRoot(), "buckets");
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

function storageRoot(): string {
  return stack.storageRoot;
}

describe("buckets (service role)", () => {
  it("creates, reads, lists, updates, empties and deletes a bucket", async () => {
    expect(
      await admin.storage.createBucket("tmp", { public: false, fileSizeLimit: "2MB", allowedMimeTypes: ["image/*"] }),
    ).toEqual({ data: { name: "tmp" }, error: null });
    const got = await admin.storage.getBucket("tmp");
    // hosted's JSON: exactly these fields, ISO timestamps, and "2MB" in decimal units
    const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(got.data).toEqual({
      id: "tmp",
      name: "tmp",
      owner: null,
      public: false,
      file_size_limit: 2_000_000,
      allowed_mime_types: ["image/*"],
      created_at: iso,
      updated_at: iso,
    });
    const list = await admin.storage.listBuckets();
    expect(list.data?.map((b) => b.id)).toEqual(expect.arrayContaining(["docs", "pics", "tmp"]));
    expect((await admin.storage.updateBucket("tmp", { public: true })).data).toEqual({
      message: "Successfully updated",
    });
    expect((await admin.storage.getBucket("tmp")).data?.public).toBe(true);
    await admin.storage.from("tmp").upload("a.png", new Blob(["x"], { type: "image/png" }));
    const notEmpty = await admin.storage.deleteBucket("tmp");
    expect(notEmpty.error).toMatchObject({
      status: 400,
      statusCode: "409",
      message: "The bucket you tried to delete is not empty",
    });
    expect((await admin.storage.emptyBucket("tmp")).data).toEqual({
      message: "Empty bucket has been queued. Completion may take up to an hour.",
    });
    expect((await admin.storage.deleteBucket("tmp")).data).toEqual({ message: "Successfully deleted" });
    expect((await admin.storage.getBucket("tmp")).error).toMatchObject({
      statusCode: "404",
      message: "Bucket not found",
    });
  });

  it("refuses a duplicate bucket and a bad name; users and anon neither see nor create buckets", async () => {
    expect((await admin.storage.createBucket("docs")).error).toMatchObject({
      statusCode: "409",
      message: "The resource already exists",
    });
    expect((await admin.storage.createBucket("a/b")).error).toMatchObject({
      statusCode: "400",
      message: "Bucket name invalid",
    });
    expect((await alice.storage.listBuckets()).data).toEqual([]);
    expect((await anon.storage.createBucket("mine")).error).toMatchObject({ statusCode: "403" });
    expect((await alice.storage.getBucket("docs")).error).toMatchObject({ statusCode: "404" });
  });
});

describe("objects", () => {
  it("uploads into one's own folder, downloads it back, and another user can neither read nor overwrite it", async () => {
    const up = await alice.storage.from("docs").upload(`${ALICE}/notes.txt`, text("hello storage"));
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: `${ALICE}/notes.txt`, fullPath: `docs/${ALICE}/notes.txt` });
    const down = await alice.storage.from("docs").download(`${ALICE}/notes.txt`);
    expect(await down.data?.text()).toBe("hello storage");
    expect(down.data?.type).toBe("text/plain");

    expect((await bob.storage.from("docs").download(`${ALICE}/notes.txt`)).error).toMatchObject({
      status: 400,
      statusCode: "404",
    });
    expect((await anon.storage.from("docs").download(`${ALICE}/notes.txt`)).error).toMatchObject({ statusCode: "404" });
    const intrude = await bob.storage.from("docs").upload(`${ALICE}/evil.txt`, text("x"));
    expect(intrude.error).toMatchObject({ statusCode: "403", message: expect.stringContaining("row-level security") });
    const overwrite = await bob.storage.from("docs").update(`${ALICE}/notes.txt`, text("x"));
    expect(overwrite.error).toMatchObject({ statusCode: "403" });
    expect(await (await alice.storage.from("docs").download(`${ALICE}/notes.txt`)).data?.text()).toBe("hello storage");
    expect((await bob.storage.from("docs").remove([`${ALICE}/notes.txt`])).data).toEqual([]);
    expect((await alice.storage.from("docs").exists(`${ALICE}/notes.txt`)).data).toBe(true);
  });

  it("refuses a second upload to the same name, and replaces it with upsert (the old file is gone from disk)", async () => {
    const p = `${ALICE}/twice.txt`;
    await alice.storage.from("docs").upload(p, text("one"));
    const before = filesOnDisk().length;
    expect((await alice.storage.from("docs").upload(p, text("two"))).error).toMatchObject({
      statusCode: "409",
      message: "The resource already exists",
    });
    expect((await alice.storage.from("docs").upload(p, text("three"), { upsert: true })).error).toBeNull();
    expect(await (await alice.storage.from("docs").download(p)).data?.text()).toBe("three");
    expect((await alice.storage.from("docs").update(p, text("four"))).error).toBeNull();
    expect(await (await alice.storage.from("docs").download(p)).data?.text()).toBe("four");
    expect(filesOnDisk().length).toBe(before);
  });

  it("takes raw bodies with their content type and cache-control, and reports info", async () => {
    const p = `${ALICE}/raw.pdf`;
    const bytes = new Uint8Array(3000).map((_, i) => i % 251);
    const up = await alice.storage
      .from("docs")
      .upload(p, bytes, { contentType: "application/pdf", cacheControl: "60", metadata: { source: "test" } });
    expect(up.error).toBeNull();
    const info = await alice.storage.from("docs").info(p);
    expect(info.data).toMatchObject({
      name: p,
      bucketId: "docs",
      size: 3000,
      contentType: "application/pdf",
      cacheControl: "max-age=60",
      metadata: { source: "test" },
    });
    const res = await fetch(`${stack.url}/storage/v1/object/docs/${p}`, {
      headers: { authorization: `Bearer ${aliceToken}`, apikey: stack.anonKey },
    });
    expect(res.headers.get("cache-control")).toBe("max-age=60");
    expect(res.headers.get("content-length")).toBe("3000");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    // without user metadata, info says {} (hosted stores an empty object), not null
    await alice.storage.from("docs").upload(`${ALICE}/plain.txt`, text("plain"));
    expect((await alice.storage.from("docs").info(`${ALICE}/plain.txt`)).data?.metadata).toEqual({});
  });

  it("answers a request with no auth header at all as hosted does", async () => {
    const res = await fetch(`${stack.url}/storage/v1/bucket`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      statusCode: "403",
      code: "AccessDenied",
      error: "Unauthorized",
      message: "Invalid Compact JWS",
    });
    // the public routes need none
    await admin.storage.from("pics").upload("no-auth.txt", text("open"));
    expect((await fetch(`${stack.url}/storage/v1/object/public/pics/no-auth.txt`)).status).toBe(200);
    expect((await fetch(`${stack.url}/storage/v1/object/pics/no-auth.txt`)).status).toBe(200);
  });

  it("serves ranges (206) and answers If-None-Match with 304", async () => {
    const p = `${ALICE}/range.txt`;
    await alice.storage.from("docs").upload(p, text("0123456789"));
    const url = `${stack.url}/storage/v1/object/docs/${p}`;
    const headers = { authorization: `Bearer ${aliceToken}`, apikey: stack.anonKey };
    const part = await fetch(url, { headers: { ...headers, range: "bytes=2-5" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2-5/10");
    expect(await part.text()).toBe("2345");
    const tail = await fetch(url, { headers: { ...headers, range: "bytes=-3" } });
    expect(await tail.text()).toBe("789");
    const beyond = await fetch(url, { headers: { ...headers, range: "bytes=20-" } });
    expect(beyond.status).toBe(416);
    const full = await fetch(url, { headers });
    const etag = full.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetch(url, { headers: { ...headers, "if-none-match": etag! } });
    expect(again.status).toBe(304);
    const head = await fetch(url, { method: "HEAD", headers });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("10");
  });

  it("lists one folder level with folders, search, sort and paging", async () => {
    for (const n of ["b.txt", "a.txt", "c.txt", "sub/x.txt", "sub/y.txt"]) {
      await alice.storage.from("docs").upload(`${ALICE}/list/${n}`, text(n));
    }
    const all = await alice.storage.from("docs").list(`${ALICE}/list`);
    expect(all.data?.map((o) => [o.name, o.id === null])).toEqual([
      ["a.txt", false],
      ["b.txt", false],
      ["c.txt", false],
      ["sub", true],
    ]);
    expect(all.data?.[0].metadata).toMatchObject({ size: 5, mimetype: "text/plain" });
    const desc = await alice.storage
      .from("docs")
      .list(`${ALICE}/list`, { sortBy: { column: "name", order: "desc" }, limit: 2, offset: 1 });
    expect(desc.data?.map((o) => o.name)).toEqual(["c.txt", "b.txt"]);
    const searched = await alice.storage.from("docs").list(`${ALICE}/list`, { search: "b" });
    expect(searched.data?.map((o) => o.name)).toEqual(["b.txt"]);
    expect((await bob.storage.from("docs").list(`${ALICE}/list`)).data).toEqual([]);
  });

  it("lists with list-v2: folders and objects of one level, or everything under a prefix, paged by cursor", async () => {
    const d = alice.storage.from("docs");
    for (const n of ["zz.txt", "bb.txt", "deep/one.txt", "aa.txt", "deep/two.txt", "cc.txt"]) {
      await d.upload(`${ALICE}/v2/${n}`, text(n));
    }
    const level = await d.listV2({ prefix: `${ALICE}/v2/`, with_delimiter: true });
    expect(level.error).toBeNull();
    expect(level.data?.hasNext).toBe(false);
    expect(level.data?.folders).toEqual([
      expect.objectContaining({ key: "deep", name: `${ALICE}/v2/deep/`, id: null }),
    ]);
    expect(level.data?.objects.map((o) => o.name)).toEqual(
      ["aa.txt", "bb.txt", "cc.txt", "zz.txt"].map((n) => `${ALICE}/v2/${n}`),
    );
    expect(level.data?.objects[0]).toMatchObject({ key: "aa.txt", metadata: expect.objectContaining({ size: 6 }) });

    const everything = await d.listV2({ prefix: `${ALICE}/v2/` });
    expect(everything.data?.folders).toEqual([]);
    expect(everything.data?.objects.map((o) => o.name.slice(ALICE.length + 4))).toEqual([
      "aa.txt",
      "bb.txt",
      "cc.txt",
      "deep/one.txt",
      "deep/two.txt",
      "zz.txt",
    ]);

    // pages of two, newest first by creation, then by name descending, folder included
    for (const [sortBy, expected] of [
      [
        { column: "created_at", order: "desc" },
        ["cc.txt", "deep/two.txt", "aa.txt", "deep/one.txt", "bb.txt", "zz.txt"],
      ],
      [{ column: "name", order: "desc" }, ["zz.txt", "deep", "cc.txt", "bb.txt", "aa.txt"]],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await d.listV2({
          prefix: `${ALICE}/v2/`,
          with_delimiter: sortBy.column === "name",
          limit: 2,
          cursor,
          sortBy,
        });
        expect(page.error).toBeNull();
        const entries = [...page.data!.folders, ...page.data!.objects];
        if (sortBy.column === "name") entries.sort((a, b) => (a.name < b.name ? 1 : -1));
        seen.push(...entries.map((o) => o.name.slice(ALICE.length + 4).replace(/\/$/, "")));
        cursor = page.data!.hasNext ? page.data!.nextCursor : undefined;
        pages++;
      } while (cursor && pages < 10);
      expect(seen).toEqual(expected);
    }
    // policies decide what anyone else sees
    expect((await bob.storage.from("docs").listV2({ prefix: `${ALICE}/v2/` })).data).toEqual({
      hasNext: false,
      folders: [],
      objects: [],
    });
  });

  it("moves and copies within the policies, and removes many at once", async () => {
    const b = alice.storage.from("docs");
    await b.upload(`${ALICE}/m/one.txt`, text("one"));
    expect((await b.move(`${ALICE}/m/one.txt`, `${ALICE}/m/two.txt`)).data).toEqual({ message: "Successfully moved" });
    expect(await (await b.download(`${ALICE}/m/two.txt`)).data?.text()).toBe("one");
    expect((await b.download(`${ALICE}/m/one.txt`)).error).toMatchObject({ statusCode: "404" });
    expect((await b.move(`${ALICE}/m/two.txt`, `${BOB}/stolen.txt`)).error).toMatchObject({ statusCode: "403" });
    expect((await b.copy(`${ALICE}/m/two.txt`, `${ALICE}/m/three.txt`)).data).toEqual({
      path: `docs/${ALICE}/m/three.txt`,
    });
    expect(await (await b.download(`${ALICE}/m/three.txt`)).data?.text()).toBe("one");
    const removed = await b.remove([`${ALICE}/m/two.txt`, `${ALICE}/m/three.txt`, `${ALICE}/m/none.txt`]);
    expect(removed.data?.map((o) => o.name).sort()).toEqual([`${ALICE}/m/three.txt`, `${ALICE}/m/two.txt`]);
    expect((await b.list(`${ALICE}/m`)).data).toEqual([]);
    // across buckets, as the service role: the bytes follow the row
    await admin.storage.from("docs").upload("x/cross.txt", text("cross"));
    expect(
      (await admin.storage.from("docs").move("x/cross.txt", "cross.txt", { destinationBucket: "pics" })).error,
    ).toBeNull();
    expect(await (await admin.storage.from("pics").download("cross.txt")).data?.text()).toBe("cross");
  });

  it("serves public buckets without a token, and private ones never publicly", async () => {
    await admin.storage.from("pics").upload("open.txt", text("public bytes"));
    const res = await fetch(admin.storage.from("pics").getPublicUrl("open.txt").data.publicUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("public bytes");
    const withName = await fetch(
      admin.storage.from("pics").getPublicUrl("open.txt", { download: "mine.txt" }).data.publicUrl,
    );
    expect(withName.headers.get("content-disposition")).toContain("mine.txt");
    await alice.storage.from("docs").upload(`${ALICE}/private.txt`, text("secret"));
    const hidden = await fetch(alice.storage.from("docs").getPublicUrl(`${ALICE}/private.txt`).data.publicUrl);
    expect(hidden.status).toBe(400);
    expect(await hidden.json()).toMatchObject({ statusCode: "404", error: "Bucket not found" });
  });
});
