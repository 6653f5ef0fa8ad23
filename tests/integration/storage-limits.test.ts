import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import ws from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

/**
 * The Storage API's edges: size and type limits, signed URLs (valid, expired,
 * tampered, for another path, upload tokens), hostile object names, and
 * uploads that are refused or cut off halfway leaving neither row nor file.
 */
const ALICE = "00000000-0000-4000-8000-00000000000a";
const MB = 1024 * 1024;

let stack: TestStack;
let admin: SupabaseClient;
let alice: SupabaseClient;
let anon: SupabaseClient;

beforeAll(async () => {
  stack = await startTestStack({ storage: { fileSizeLimit: 3 * MB } });
  await stack.db.exec(`
    insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
      values ('pics', 'pics', false, 1048576, array['image/png', 'image/jpeg', 'text/*']),
             ('big', 'big', false, 104857600, null);
    create policy "alice folder" on storage.objects for all to authenticated
      using ((storage.foldername(name))[1] = auth.uid()::text)
      with check ((storage.foldername(name))[1] = auth.uid()::text);
  `);
  const token = await stack.keys.sign({ sub: ALICE, role: "authenticated", aud: "authenticated" }, { expiresIn: 3600 });
  admin = stack.adminClient();
  alice = createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as unknown as typeof WebSocket },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
  anon = stack.anonClient();
});
afterAll(() => stack?.close());

async function objectCount(): Promise<number> {
  const { rows } = await stack.db.query<{ n: number }>("select count(*)::int as n from storage.objects");
  return rows[0].n;
}

function diskFiles(): number {
  const count = (dir: string): number =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length
      : 0;
  return count(path.join(stack.storageRoot, "buckets")) + count(path.join(stack.storageRoot, ".tmp"));
}

describe("limits", () => {
  it("refuses a file over the bucket's limit (413) and over the global limit, storing nothing", async () => {
    const rows = await objectCount();
    const files = diskFiles();
    const over = await alice.storage
      .from("pics")
      .upload(`${ALICE}/big.png`, new Blob([new Uint8Array(MB + 1)], { type: "image/png" }));
    expect(over.error).toMatchObject({
      status: 400,
      statusCode: "413",
      message: "The object exceeded the maximum allowed size",
    });
    const raw = await alice.storage
      .from("pics")
      .upload(`${ALICE}/big2.png`, new Uint8Array(MB + 1), { contentType: "image/png" });
    expect(raw.error).toMatchObject({ statusCode: "413" });
    const global = await admin.storage.from("big").upload("huge.bin", new Blob([new Uint8Array(3 * MB + 1)]));
    expect(global.error).toMatchObject({ statusCode: "413" });
    expect(await objectCount()).toBe(rows);
    expect(diskFiles()).toBe(files);
    const exact = await alice.storage
      .from("pics")
      .upload(`${ALICE}/exact.png`, new Blob([new Uint8Array(MB)], { type: "image/png" }));
    expect(exact.error).toBeNull();
  });

  it("refuses a type the bucket does not take (415), with wildcards honoured", async () => {
    const pdf = await alice.storage
      .from("pics")
      .upload(`${ALICE}/doc.pdf`, new Blob(["%PDF"], { type: "application/pdf" }));
    expect(pdf.error).toMatchObject({
      status: 400,
      statusCode: "415",
      message: "mime type application/pdf is not supported",
    });
    const txt = await alice.storage
      .from("pics")
      .upload(`${ALICE}/note.md`, new Blob(["# hi"], { type: "text/markdown" }));
    expect(txt.error).toBeNull();
    expect((await alice.storage.from("pics").download(`${ALICE}/doc.pdf`)).error).toMatchObject({ statusCode: "404" });
  });

  it("leaves no row and no file when an upload is cut off halfway", async () => {
    const rows = await objectCount();
    const files = diskFiles();
    const url = new URL(`${stack.url}/storage/v1/object/big/cut.bin`);
    await new Promise<void>((resolve) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            authorization: `Bearer ${stack.serviceRoleKey}`,
            "content-type": "application/octet-stream",
            "content-length": String(2 * MB),
          },
        },
        () => resolve(),
      );
      req.on("error", () => resolve());
      req.write(Buffer.alloc(MB / 2));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    // the stack logs the request once its handler is done with it (file removed, nothing inserted)
    for (let i = 0; i < 200 && !stack.requests.list().some((e) => e.path.endsWith("/big/cut.bin")); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(stack.requests.list().filter((e) => e.path.endsWith("/big/cut.bin"))).toHaveLength(1);
    expect(await objectCount()).toBe(rows);
    expect(diskFiles()).toBe(files);
    expect((await admin.storage.from("big").exists("cut.bin")).data).toBe(false);
  });
});

describe("a refusal before the upload is read (issue 35)", () => {
  /** An upload sent in pieces over ~1 s, as a slow link sends it; its answer, or the socket's error. */
  function slowUpload(
    objectPath: string,
    token: string,
  ): Promise<{ status: number; body: string } | { error: string }> {
    const url = new URL(`${stack.url}/storage/v1/object/big/${objectPath}`);
    const piece = Buffer.alloc(128 * 1024, 1);
    const pieces = 16;
    return new Promise((resolve) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/octet-stream",
            "content-length": String(piece.length * pieces),
          },
        },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode!, body }));
          res.on("error", (e) => resolve({ error: e.message }));
        },
      );
      req.on("error", (e) => resolve({ error: e.message }));
      let sent = 0;
      const send = () => {
        if (sent++ === pieces) return void req.end();
        req.write(piece, () => setTimeout(send, 60));
      };
      send();
    });
  }

  it("reads what the client still sends, then answers: the client gets the 403, every time", async () => {
    const token = await stack.keys.sign(
      { sub: ALICE, role: "authenticated", aud: "authenticated" },
      { expiresIn: 600 },
    );
    const answers = [];
    // not alice's folder: the bucket's policies refuse it before a byte of the file is read
    for (let i = 0; i < 5; i++) answers.push(await slowUpload(`someone-else/${i}.bin`, token));
    expect(answers).toEqual(
      Array.from({ length: 5 }, () => ({ status: 400, body: expect.stringContaining('"statusCode":"403"') })),
    );
    expect((await admin.storage.from("big").list("someone-else")).data).toEqual([]);
  }, 60_000);
});

describe("signed URLs", () => {
  it("downloads by a signed URL without a token, names the download, and refuses expired, tampered and moved tokens", async () => {
    await alice.storage.from("pics").upload(`${ALICE}/s.txt`, new Blob(["signed bytes"], { type: "text/plain" }));
    await alice.storage.from("pics").upload(`${ALICE}/other.txt`, new Blob(["other"], { type: "text/plain" }));
    const signed = await alice.storage.from("pics").createSignedUrl(`${ALICE}/s.txt`, 60, { download: "report.txt" });
    const ok = await fetch(signed.data!.signedUrl);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("signed bytes");
    expect(ok.headers.get("content-disposition")).toContain("report.txt");

    const token = new URL(signed.data!.signedUrl).searchParams.get("token")!;
    const tampered = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    const bad = await fetch(`${stack.url}/storage/v1/object/sign/pics/${ALICE}/s.txt?token=${tampered}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ statusCode: "400", error: "InvalidJWT" });
    const elsewhere = await fetch(`${stack.url}/storage/v1/object/sign/pics/${ALICE}/other.txt?token=${token}`);
    expect(await elsewhere.json()).toMatchObject({ error: "InvalidSignature" });
    const missing = await fetch(`${stack.url}/storage/v1/object/sign/pics/${ALICE}/s.txt`);
    expect(missing.status).toBe(400);

    const expired = await stack.keys.sign(
      { url: `pics/${ALICE}/s.txt`, iat: Math.floor(Date.now() / 1000) - 120 },
      { expiresIn: -60 },
    );
    const late = await fetch(`${stack.url}/storage/v1/object/sign/pics/${ALICE}/s.txt?token=${expired}`);
    expect(await late.json()).toMatchObject({ statusCode: "400", message: "jwt expired" });
    // an access token is no signed URL
    const session = await fetch(
      `${stack.url}/storage/v1/object/sign/pics/${ALICE}/s.txt?token=${stack.serviceRoleKey}`,
    );
    expect(session.status).toBe(400);
  });

  it("signs many paths at once, with an error for the ones the caller cannot see", async () => {
    const many = await alice.storage
      .from("pics")
      .createSignedUrls([`${ALICE}/s.txt`, `${ALICE}/none.txt`, "someone/else.txt"], 60);
    expect(many.data?.map((d) => [d.path, d.signedUrl !== null, d.error])).toEqual([
      [`${ALICE}/s.txt`, true, null],
      [`${ALICE}/none.txt`, false, "Either the object does not exist or you do not have access to it"],
      ["someone/else.txt", false, "Either the object does not exist or you do not have access to it"],
    ]);
    expect(await (await fetch(many.data![0].signedUrl!)).text()).toBe("signed bytes");
    expect((await alice.storage.from("pics").createSignedUrl(`${ALICE}/none.txt`, 60)).error).toMatchObject({
      statusCode: "404",
    });
    expect((await anon.storage.from("pics").createSignedUrl(`${ALICE}/s.txt`, 60)).error).toMatchObject({
      statusCode: "404",
    });
  });

  it("uploads through a signed upload URL, only to its own path, only where the maker may write", async () => {
    const made = await alice.storage.from("pics").createSignedUploadUrl(`${ALICE}/via-token.txt`);
    expect(made.error).toBeNull();
    const up = await anon.storage
      .from("pics")
      .uploadToSignedUrl(`${ALICE}/via-token.txt`, made.data!.token, new Blob(["by token"], { type: "text/plain" }));
    expect(up.error).toBeNull();
    expect(await (await alice.storage.from("pics").download(`${ALICE}/via-token.txt`)).data?.text()).toBe("by token");
    const wrongPath = await anon.storage
      .from("pics")
      .uploadToSignedUrl(`${ALICE}/elsewhere.txt`, made.data!.token, new Blob(["x"], { type: "text/plain" }));
    expect(wrongPath.error).toMatchObject({ statusCode: "400" });
    const again = await anon.storage
      .from("pics")
      .uploadToSignedUrl(`${ALICE}/via-token.txt`, made.data!.token, new Blob(["x"], { type: "text/plain" }));
    expect(again.error).toMatchObject({ statusCode: "409" });
    expect((await alice.storage.from("pics").createSignedUploadUrl("not-mine/x.txt")).error).toMatchObject({
      statusCode: "403",
    });
    const downloadToken = new URL(
      (await alice.storage.from("pics").createSignedUrl(`${ALICE}/s.txt`, 60)).data!.signedUrl,
    ).searchParams.get("token")!;
    const misuse = await anon.storage
      .from("pics")
      .uploadToSignedUrl(`${ALICE}/s.txt`, downloadToken, new Blob(["x"], { type: "text/plain" }));
    expect(misuse.error).toMatchObject({ statusCode: "400", message: "Token is not scoped for upload" });
  });
});

describe("hostile names", () => {
  const cases: [string, string][] = [
    ["dot-dot segment", `${ALICE}/..%2F..%2Fetc%2Fpasswd`],
    ["leading slash", `%2F${ALICE}/x.txt`],
    ["backslash", `${ALICE}/a%5Cb.txt`],
    ["NUL byte", `${ALICE}/a%00b.txt`],
    ["invalid UTF-8", `${ALICE}/a%C3%28.txt`],
    ["non-ASCII", `${ALICE}/r%C3%A9sum%C3%A9.txt`],
    ["over-long", `${ALICE}/${"a".repeat(1100)}.txt`],
  ];
  for (const [label, encoded] of cases) {
    it(`refuses an object name with ${label} (400 InvalidKey) and writes nothing`, async () => {
      const files = diskFiles();
      const res = await fetch(`${stack.url}/storage/v1/object/pics/${encoded}`, {
        method: "POST",
        headers: { authorization: `Bearer ${stack.serviceRoleKey}`, "content-type": "text/plain" },
        body: "x",
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: "400", error: "InvalidKey" });
      expect(diskFiles()).toBe(files);
    });
  }

  it("refuses hostile bucket names and keeps every file inside the storage folder", async () => {
    const res = await fetch(`${stack.url}/storage/v1/object/..%2F..%2Ftmp/x.txt`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.serviceRoleKey}`, "content-type": "text/plain" },
      body: "x",
    });
    expect(await res.json()).toMatchObject({ statusCode: "400" });
    expect((await admin.storage.createBucket("..")).error).toMatchObject({ message: "Bucket name invalid" });
    const move = await admin.storage.from("pics").move(`${ALICE}/s.txt`, "../../escape.txt");
    expect(move.error).toMatchObject({ statusCode: "400" });
  });
});
