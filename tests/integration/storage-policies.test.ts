/**
 * The storage policies of supabase/migrations (buckets `avatars` and
 * `attachments`) for each role of docs/product.md §6, called through supabase-js's
 * storage client with each person's own token against the stack, and checked
 * in the database and on disk afterwards.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

const PEOPLE = ["owner", "admin", "member", "viewer", "outsider"] as const;
type Person = (typeof PEOPLE)[number];
type Actor = Person | "anon";
const MB = 1024 * 1024;

let stack: TestStack;
const ids = {} as Record<Person, string>;
const clients = {} as Record<Actor, SupabaseClient>;
let task: string;
let archivedTask: string;
let teamId: string;
let project: string;

const png = (bytes = 64) => new Blob([new Uint8Array(bytes)], { type: "image/png" });
const txt = (s: string) => new Blob([s], { type: "text/plain" });

beforeAll(async () => {
  stack = await startTestStack();
  const options = {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  };
  for (const name of PEOPLE) {
    const { rows } = await stack.db.query<{ id: string }>(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
       values (gen_random_uuid(), $1, 'authenticated', 'authenticated', jsonb_build_object('display_name', $2::text), now(), now(), now()) returning id`,
      [`${name}@storage.test`, name],
    );
    ids[name] = rows[0].id;
    const token = await stack.keys.sign(
      { sub: ids[name], role: "authenticated", aud: "authenticated" },
      { expiresIn: 3600 },
    );
    clients[name] = createClient(stack.url, stack.anonKey, {
      ...options,
      global: { headers: { Authorization: `Bearer ${token}` } },
    });
  }
  clients.anon = createClient(stack.url, stack.anonKey, options);
  await stack.db.transaction(async (tx) => {
    const one = async (sql: string, params: unknown[]) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
    const team = await one("insert into teams (name, slug, created_by) values ('Acme', 'acme', $1) returning id", [
      ids.owner,
    ]);
    teamId = team;
    for (const role of ["owner", "admin", "member", "viewer"] as const) {
      await tx.query("insert into team_members (team_id, user_id, role) values ($1, $2, $3)", [team, ids[role], role]);
    }
    project = await one("insert into projects (team_id, key, name) values ($1, 'WEB', 'Website') returning id", [team]);
    const archived = await one("insert into projects (team_id, key, name) values ($1, 'OLD', 'Old') returning id", [
      team,
    ]);
    task = await one("insert into tasks (project_id, title, created_by) values ($1, 'Ship it', $2) returning id", [
      project,
      ids.owner,
    ]);
    archivedTask = await one("insert into tasks (project_id, title, created_by) values ($1, 'Old', $2) returning id", [
      archived,
      ids.owner,
    ]);
    await tx.query("update projects set archived_at = now() where id = $1", [archived]);
  });
});
afterAll(() => stack?.close());

const tokenOf = (person: Person) =>
  stack.keys.sign({ sub: ids[person], role: "authenticated", aud: "authenticated" }, { expiresIn: 3600 });

async function exists(bucket: string, name: string): Promise<boolean> {
  const { rows } = await stack.db.query("select 1 from storage.objects where bucket_id = $1 and name = $2", [
    bucket,
    name,
  ]);
  return rows.length > 0;
}

const ALL: Actor[] = [...PEOPLE, "anon"];

describe("avatars (public read, own folder only)", () => {
  for (const actor of ALL) {
    const allowed = actor !== "anon";
    it(`${actor} ${allowed ? "uploads into their own folder and removes it" : "cannot upload"}; nobody writes into another's folder`, async () => {
      const folder = actor === "anon" ? ids.owner : ids[actor];
      const name = `${folder}/${actor}-own.png`;
      const up = await clients[actor].storage.from("avatars").upload(name, png());
      expect(up.error === null).toBe(allowed);
      expect(await exists("avatars", name)).toBe(allowed);
      const victim = actor === "admin" ? ids.member : ids.admin;
      const intrusion = `${victim}/${actor}-intrusion.png`;
      expect((await clients[actor].storage.from("avatars").upload(intrusion, png())).error).toMatchObject({
        statusCode: "403",
      });
      expect(await exists("avatars", intrusion)).toBe(false);
      if (allowed) {
        const url = clients.anon.storage.from("avatars").getPublicUrl(name).data.publicUrl;
        expect((await fetch(url)).status).toBe(200);
        expect((await clients[actor].storage.from("avatars").remove([name])).data).toHaveLength(1);
        expect(await exists("avatars", name)).toBe(false);
      }
    });
  }

  it("nobody removes or replaces someone else's avatar", async () => {
    const name = `${ids.member}/face.png`;
    await clients.member.storage.from("avatars").upload(name, png());
    for (const actor of ["owner", "admin", "viewer", "outsider", "anon"] as const) {
      expect((await clients[actor].storage.from("avatars").remove([name])).data ?? []).toEqual([]);
      expect(
        (await clients[actor].storage.from("avatars").upload(name, png(10), { upsert: true })).error,
      ).not.toBeNull();
    }
    expect(await exists("avatars", name)).toBe(true);
    const info = await clients.member.storage.from("avatars").info(name);
    expect(info.data?.size).toBe(64);
  });

  it("takes PNG, JPEG, WebP and GIF up to 2 MB, nothing else", async () => {
    const a = clients.member.storage.from("avatars");
    for (const type of ["image/jpeg", "image/webp", "image/gif"]) {
      expect(
        (await a.upload(`${ids.member}/ok.${type.split("/")[1]}`, new Blob([new Uint8Array(8)], { type }))).error,
      ).toBeNull();
    }
    expect(
      (await a.upload(`${ids.member}/bad.svg`, new Blob(["<svg/>"], { type: "image/svg+xml" }))).error,
    ).toMatchObject({ statusCode: "415" });
    expect((await a.upload(`${ids.member}/big.png`, png(2 * MB + 1))).error).toMatchObject({ statusCode: "413" });
    expect((await a.upload(`${ids.member}/max.png`, png(2 * MB))).error).toBeNull();
  });
});

describe("attachments (private; members read, member+ upload, uploader or admin removes)", () => {
  const uploads: Record<Actor, boolean> = {
    owner: true,
    admin: true,
    member: true,
    viewer: false,
    outsider: false,
    anon: false,
  };
  for (const actor of ALL) {
    it(`${actor} ${uploads[actor] ? "uploads" : "cannot upload"} into a task of an active project, and nobody into an archived one`, async () => {
      const name = `${task}/${actor}.txt`;
      const up = await clients[actor].storage.from("attachments").upload(name, txt(actor));
      expect(up.error === null).toBe(uploads[actor]);
      if (!uploads[actor]) expect(up.error).toMatchObject({ statusCode: "403" });
      expect(await exists("attachments", name)).toBe(uploads[actor]);
      const old = `${archivedTask}/${actor}.txt`;
      expect((await clients[actor].storage.from("attachments").upload(old, txt("x"))).error).not.toBeNull();
      expect(await exists("attachments", old)).toBe(false);
    });
  }

  const reads: Record<Actor, boolean> = {
    owner: true,
    admin: true,
    member: true,
    viewer: true,
    outsider: false,
    anon: false,
  };
  for (const actor of ALL) {
    it(`${actor} ${reads[actor] ? "reads" : "cannot read"} the team's files, and only through signed URLs`, async () => {
      const name = `${task}/read-me.txt`;
      if (!(await exists("attachments", name)))
        await clients.member.storage.from("attachments").upload(name, txt("for the team"));
      const bucket = clients[actor].storage.from("attachments");
      const down = await bucket.download(name);
      expect(down.error === null).toBe(reads[actor]);
      const signed = await bucket.createSignedUrl(name, 60);
      expect(signed.error === null).toBe(reads[actor]);
      if (reads[actor]) expect(await (await fetch(signed.data!.signedUrl)).text()).toBe("for the team");
      expect((await fetch(bucket.getPublicUrl(name).data.publicUrl)).status).toBe(400);
      expect(((await bucket.list(task)).data ?? []).some((o) => o.name === "read-me.txt")).toBe(reads[actor]);
    });
  }

  const removes: Record<Actor, boolean> = {
    owner: true,
    admin: true,
    member: true,
    viewer: false,
    outsider: false,
    anon: false,
  };
  for (const actor of ALL) {
    it(`${actor} ${removes[actor] ? "removes" : "cannot remove"} a file the member uploaded`, async () => {
      const name = `${task}/by-member-for-${actor}.txt`;
      await clients.member.storage.from("attachments").upload(name, txt("x"));
      const removed = await clients[actor].storage.from("attachments").remove([name]);
      expect((removed.data ?? []).length).toBe(removes[actor] ? 1 : 0);
      expect(await exists("attachments", name)).toBe(!removes[actor]);
    });
  }

  it("a member cannot remove what an admin uploaded", async () => {
    const name = `${task}/by-admin.txt`;
    await clients.admin.storage.from("attachments").upload(name, txt("x"));
    expect((await clients.member.storage.from("attachments").remove([name])).data).toEqual([]);
    expect(await exists("attachments", name)).toBe(true);
  });

  it("refuses a file over 10 MB and a name outside any task folder", async () => {
    const big = await clients.member.storage
      .from("attachments")
      .upload(`${task}/big.bin`, new Blob([new Uint8Array(10 * MB + 1)]));
    expect(big.error).toMatchObject({ statusCode: "413" });
    expect((await clients.member.storage.from("attachments").upload("not-a-task/x.txt", txt("x"))).error).toMatchObject(
      { statusCode: "403" },
    );
  });
});

describe("stored files stay files, in every bucket's rules", () => {
  it("serves HTML as text/plain and every object with nosniff and a sandboxing CSP", async () => {
    const files = clients.member.storage.from("attachments");
    await files.upload(`${task}/page.html`, new Blob(["<script>alert(1)</script>"], { type: "text/html" }));
    await files.upload(
      `${task}/image.svg`,
      new Blob(["<svg xmlns='http://www.w3.org/2000/svg'/>"], { type: "image/svg+xml" }),
    );
    for (const [name, type] of [
      ["page.html", "text/plain"],
      ["image.svg", "image/svg+xml"],
    ]) {
      const signed = await files.createSignedUrl(`${task}/${name}`, 60);
      const res = await fetch(signed.data!.signedUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    }
    // the same on the authenticated and public download routes
    const down = await fetch(`${stack.url}/storage/v1/object/attachments/${task}/page.html`, {
      headers: { Authorization: `Bearer ${await tokenOf("member")}`, apikey: stack.anonKey },
    });
    expect(down.headers.get("content-type")).toBe("text/plain");
    expect(down.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    await clients.member.storage.from("avatars").upload(`${ids.member}/face-csp.png`, png());
    const pub = await fetch(
      clients.anon.storage.from("avatars").getPublicUrl(`${ids.member}/face-csp.png`).data.publicUrl,
    );
    expect(pub.headers.get("content-type")).toBe("image/png");
    expect(pub.headers.get("x-content-type-options")).toBe("nosniff");
    expect(pub.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
  });

  it("copies and moves into the public avatars bucket only what its types and size allow", async () => {
    const from = clients.member.storage.from("attachments");
    await from.upload(`${task}/evil.html`, new Blob(["<script>alert(1)</script>"], { type: "text/html" }));
    await from.upload(`${task}/big.png`, png(2 * MB + 1));
    await from.upload(`${task}/small.png`, png(32));
    const into = (name: string) => `${ids.member}/${name}`;
    for (const op of ["copy", "move"] as const) {
      const html = await from[op](`${task}/evil.html`, into(`${op}-evil.png`), { destinationBucket: "avatars" });
      expect(html.error).toMatchObject({ statusCode: "415" });
      const big = await from[op](`${task}/big.png`, into(`${op}-big.png`), { destinationBucket: "avatars" });
      expect(big.error).toMatchObject({ statusCode: "413" });
      expect(await exists("avatars", into(`${op}-evil.png`))).toBe(false);
      expect(await exists("avatars", into(`${op}-big.png`))).toBe(false);
      expect(await exists("attachments", `${task}/evil.html`)).toBe(true);
    }
    expect(
      (await from.copy(`${task}/small.png`, into("copied.png"), { destinationBucket: "avatars" })).error,
    ).toBeNull();
    expect(await exists("avatars", into("copied.png"))).toBe(true);
  });

  it("a signed upload URL writes with its maker's rights when it is used, not when it was made", async () => {
    const { rows } = await stack.db.query<{ id: string }>(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
       values (gen_random_uuid(), 'signer@storage.test', 'authenticated', 'authenticated', '{}', now(), now(), now()) returning id`,
    );
    const signer = rows[0].id;
    await stack.db.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'member')", [
      teamId,
      signer,
    ]);
    const token = await stack.keys.sign(
      { sub: signer, role: "authenticated", aud: "authenticated" },
      { expiresIn: 3600 },
    );
    const files = createClient(stack.url, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
      global: { headers: { Authorization: `Bearer ${token}` } },
    }).storage.from("attachments");

    const first = await files.createSignedUploadUrl(`${task}/signed-now.txt`);
    expect(
      (await files.uploadToSignedUrl(`${task}/signed-now.txt`, first.data!.token, txt("while a member"))).error,
    ).toBeNull();
    expect(await exists("attachments", `${task}/signed-now.txt`)).toBe(true);

    const later = await files.createSignedUploadUrl(`${task}/signed-later.txt`);
    expect(later.error).toBeNull();
    await stack.db.query("update team_members set role = 'viewer' where team_id = $1 and user_id = $2", [
      teamId,
      signer,
    ]);
    const refused = await files.uploadToSignedUrl(
      `${task}/signed-later.txt`,
      later.data!.token,
      txt("after the demotion"),
    );
    expect(refused.error).toMatchObject({ statusCode: "403" });
    expect(await exists("attachments", `${task}/signed-later.txt`)).toBe(false);
  });
});

describe("files wait for removal when their rows go", () => {
  it("queues the files of a deleted attachment, task or project for the server, and users cannot read the queue", async () => {
    const attach = async (n: string) => {
      await stack.db.query(
        "insert into attachments (task_id, object_path, file_name, size_bytes, content_type, uploaded_by) values ($1::uuid, $1::text || '/' || $2::text, $2::text, 1, 'text/plain', $3)",
        [task, n, ids.member],
      );
      return `${task}/${n}`;
    };
    const a = await attach("q1.txt");
    const b = await attach("q2.txt");
    await stack.db.query("delete from attachments where object_path = $1", [a]);
    await stack.db.query("delete from projects where id = $1", [project]);
    const { rows } = await stack.db.query<{ object_path: string }>(
      "select object_path from storage_cleanup where bucket_id = 'attachments' order by object_path",
    );
    expect(rows.map((r) => r.object_path)).toEqual(expect.arrayContaining([a, b]));
    const peek = await clients.owner.from("storage_cleanup").select("*");
    expect(peek.data ?? []).toEqual([]);
    expect(peek.error).not.toBeNull();
  });

  it("refuses a plain DELETE on storage.objects, as hosted projects do", async () => {
    await expect(stack.db.query("delete from storage.objects where bucket_id = 'attachments'")).rejects.toThrow(
      /Use the Storage API/,
    );
  });
});
