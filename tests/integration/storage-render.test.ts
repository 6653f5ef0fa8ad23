/**
 * Storage's image transformation (`/storage/v1/render/image/…`) through
 * supabase-js, on the app's own buckets and policies: public URLs
 * (`getPublicUrl(path, { transform })`), authenticated downloads
 * (`download(path, { transform })`) and signed URLs
 * (`createSignedUrl(path, expiresIn, { transform })`); another team's image
 * refused as its plain download is; the disk cache; hosted's limits and
 * errors; awkward images.
 */
import fs from "node:fs";
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { animatedGif, bombPng, cmykJpeg, imageSize, jpeg, orientedJpeg, png } from "../support/images.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
const ids = {} as Record<"member" | "outsider", string>;
const clients = {} as Record<"member" | "outsider" | "anon", SupabaseClient>;
let acmeTask: string;
let globexTask: string;

beforeAll(async () => {
  stack = await startTestStack();
  const options = {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  };
  for (const name of ["member", "outsider"] as const) {
    const { rows } = await stack.db.query<{ id: string }>(
      `insert into auth.users (id, email, aud, role, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
       values (gen_random_uuid(), $1, 'authenticated', 'authenticated', '{}', now(), now(), now()) returning id`,
      [`${name}@render.test`],
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
    const teamTask = async (slug: string, owner: string) => {
      const team = await one("insert into teams (name, slug, created_by) values ($1, $1, $2) returning id", [
        slug,
        owner,
      ]);
      await tx.query("insert into team_members (team_id, user_id, role) values ($1, $2, 'owner')", [team, owner]);
      const project = await one("insert into projects (team_id, key, name) values ($1, 'WEB', 'Web') returning id", [
        team,
      ]);
      return one("insert into tasks (project_id, title, created_by) values ($1, 'Look', $2) returning id", [
        project,
        owner,
      ]);
    };
    acmeTask = await teamTask("acme", ids.member);
    globexTask = await teamTask("globex", ids.outsider);
  });
});
afterAll(() => stack?.close());

async function attach(who: "member" | "outsider", name: string, bytes: Buffer, type = "image/jpeg") {
  const task = who === "member" ? acmeTask : globexTask;
  const objectPath = `${task}/${name}`;
  const { error } = await clients[who].storage
    .from("attachments")
    .upload(objectPath, new Blob([new Uint8Array(bytes)], { type }), { contentType: type });
  expect(error).toBeNull();
  return objectPath;
}

describe("the three ways in, through supabase-js", () => {
  it("a public URL with a transform serves the resized image; WebP when the browser accepts it, as hosted", async () => {
    const name = `${ids.member}/face.png`;
    await clients.member.storage
      .from("avatars")
      .upload(name, new Blob([new Uint8Array(await png(400, 400))], { type: "image/png" }));
    const url = clients.anon.storage.from("avatars").getPublicUrl(name, { transform: { width: 64, height: 64 } })
      .data.publicUrl;
    expect(url).toContain("/storage/v1/render/image/public/avatars/");

    const plain = await fetch(url, { headers: { accept: "*/*" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("image/png");
    expect(plain.headers.get("x-transformations")).toBe("height:64,width:64,resizing_type:fill");
    expect(await imageSize(await plain.arrayBuffer())).toMatchObject({ width: 64, height: 64, format: "png" });

    const browser = await fetch(url, { headers: { accept: "image/avif,image/webp,image/apng,*/*;q=0.8" } });
    expect(browser.headers.get("content-type")).toBe("image/webp");
    expect(browser.headers.get("vary")).toBe("Accept");
    expect(await imageSize(await browser.arrayBuffer())).toMatchObject({ width: 64, height: 64, format: "webp" });

    const origin = clients.anon.storage
      .from("avatars")
      .getPublicUrl(name, { transform: { width: 32, format: "origin" } });
    const kept = await fetch(origin.data.publicUrl, { headers: { accept: "image/webp" } });
    expect(kept.headers.get("content-type")).toBe("image/png");
  });

  it("a private bucket's image is not served by the public render URL", async () => {
    const objectPath = await attach("member", "private.jpg", await jpeg(300, 200));
    const url = clients.member.storage.from("attachments").getPublicUrl(objectPath, { transform: { width: 50 } })
      .data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: "404", error: "Bucket not found" });
  });

  it("download({ transform }) renders a private image for a team member, with every resize mode", async () => {
    const objectPath = await attach("member", "wide.jpg", await jpeg(800, 400));
    const modes = { cover: [100, 100], contain: [100, 50], fill: [100, 100] } as const;
    for (const [resize, [w, h]] of Object.entries(modes)) {
      const { data, error } = await clients.member.storage
        .from("attachments")
        .download(objectPath, { transform: { width: 100, height: 100, resize: resize as "cover" } });
      expect(error).toBeNull();
      expect(data?.type).toBe("image/jpeg");
      expect(await imageSize(await data!.arrayBuffer())).toMatchObject({ width: w, height: h });
    }
    // one side given: the other follows the picture's proportions; never enlarged
    const one = await clients.member.storage.from("attachments").download(objectPath, { transform: { height: 40 } });
    expect(await imageSize(await one.data!.arrayBuffer())).toMatchObject({ width: 80, height: 40 });
    const big = await clients.member.storage.from("attachments").download(objectPath, { transform: { width: 2000 } });
    expect(await imageSize(await big.data!.arrayBuffer())).toMatchObject({ width: 800, height: 400 });
  });

  it("quality changes the bytes; WebP and AVIF on request", async () => {
    const objectPath = await attach("member", "photo.jpg", await jpeg(600, 400));
    const get = async (transform: Record<string, unknown>) => {
      const { data, error } = await clients.member.storage.from("attachments").download(objectPath, { transform });
      expect(error).toBeNull();
      return data!;
    };
    const low = await get({ width: 300, quality: 20 });
    const high = await get({ width: 300, quality: 100 });
    expect(low.size).toBeLessThan(high.size / 2);
    expect((await get({ width: 300, format: "webp" })).type).toBe("image/webp");
    const avif = await get({ width: 300, format: "avif" });
    expect(avif.type).toBe("image/avif");
    expect(await imageSize(await avif.arrayBuffer())).toMatchObject({ width: 300, height: 200 });
  });

  it("createSignedUrl({ transform }) points at /render/image/sign with the options in the token, which the query cannot change", async () => {
    const objectPath = await attach("member", "signed.jpg", await jpeg(500, 500));
    const { data, error } = await clients.member.storage
      .from("attachments")
      .createSignedUrl(objectPath, 60, { transform: { width: 200, height: 200, quality: 60 } });
    expect(error).toBeNull();
    expect(data!.signedUrl).toContain("/storage/v1/render/image/sign/attachments/");
    const res = await fetch(data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-transformations")).toBe("height:200,width:200,resizing_type:fill,quality:60");
    expect(res.headers.get("expires")).toBeTruthy();
    expect(await imageSize(await res.arrayBuffer())).toMatchObject({ width: 200, height: 200 });

    const tampered = await fetch(`${data!.signedUrl}&width=20&height=20`);
    expect(await imageSize(await tampered.arrayBuffer())).toMatchObject({ width: 200, height: 200 });
    const otherPath = data!.signedUrl.replace("signed.jpg", "wide.jpg");
    const refused = await fetch(otherPath);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "InvalidSignature" });
    // without a transform the URL stays a plain download
    const plain = await clients.member.storage.from("attachments").createSignedUrl(objectPath, 60);
    expect(plain.data!.signedUrl).toContain("/storage/v1/object/sign/");
  });
});

describe("access is decided as for plain downloads", () => {
  it("another team's image: no transformed download, no signed URL, and the anon key gets nothing", async () => {
    const theirs = await attach("outsider", "secret.jpg", await jpeg(100, 100));
    const download = await clients.member.storage.from("attachments").download(theirs, { transform: { width: 50 } });
    expect(download.data).toBeNull();
    expect(download.error).toMatchObject({ statusCode: "404" });
    const signed = await clients.member.storage
      .from("attachments")
      .createSignedUrl(theirs, 60, { transform: { width: 50 } });
    expect(signed.data).toBeNull();
    const anon = await fetch(`${stack.url}/storage/v1/render/image/authenticated/attachments/${theirs}?width=50`);
    expect(anon.status).toBe(400);
    expect(await anon.json()).toMatchObject({ statusCode: "403", message: "Invalid Compact JWS" });
    // the owner's team still sees it
    const own = await clients.outsider.storage.from("attachments").download(theirs, { transform: { width: 50 } });
    expect(own.error).toBeNull();
  });
});

describe("the disk cache", () => {
  it("the second request is served from the cache; a new version renders anew; removing the object clears it", async () => {
    const objectPath = await attach("member", "cached.jpg", await jpeg(1200, 900));
    const { data } = await clients.member.storage
      .from("attachments")
      .createSignedUrl(objectPath, 60, { transform: { width: 256 } });
    const first = await fetch(data!.signedUrl);
    expect(first.headers.get("x-render-cache")).toBe("miss");
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const second = await fetch(data!.signedUrl);
    expect(second.headers.get("x-render-cache")).toBe("hit");
    expect(Buffer.from(await second.arrayBuffer()).equals(firstBytes)).toBe(true);
    // another format is another entry
    expect((await fetch(data!.signedUrl, { headers: { accept: "image/webp" } })).headers.get("x-render-cache")).toBe(
      "miss",
    );

    const { rows } = await stack.db.query<{ version: string }>(
      "select version from storage.objects where bucket_id = 'attachments' and name = $1",
      [objectPath],
    );
    const cacheDir = path.join(
      stack.storageRoot,
      "render",
      "attachments",
      rows[0].version.slice(0, 2),
      rows[0].version,
    );
    expect(fs.readdirSync(cacheDir)).toHaveLength(2);

    // attachments are never replaced by members (no UPDATE policy): the service role writes the new version
    const replaced = await stack
      .adminClient()
      .storage.from("attachments")
      .update(objectPath, new Blob([new Uint8Array(await jpeg(600, 600))], { type: "image/jpeg" }));
    expect(replaced.error).toBeNull();
    const fresh = await clients.member.storage
      .from("attachments")
      .createSignedUrl(objectPath, 60, { transform: { width: 256 } });
    const renewed = await fetch(fresh.data!.signedUrl);
    expect(renewed.headers.get("x-render-cache")).toBe("miss");
    expect(await imageSize(await renewed.arrayBuffer())).toMatchObject({ width: 256, height: 256 });
    expect(fs.existsSync(cacheDir)).toBe(false);
  });
});

describe("hosted's limits and errors", () => {
  const render = (objectPath: string, query: string) =>
    fetch(`${stack.url}/storage/v1/render/image/public/avatars/${objectPath}?${query}`);
  let avatar: string;
  beforeAll(async () => {
    avatar = `${ids.member}/limits.png`;
    await clients.member.storage
      .from("avatars")
      .upload(avatar, new Blob([new Uint8Array(await png(3000, 20))], { type: "image/png" }));
  });

  it("options outside hosted's schema are refused with its messages", async () => {
    const cases: Array<[string, string]> = [
      ["width=abc", "querystring/width must be integer"],
      ["width=-1", "querystring/width must be >= 0"],
      ["height=2.5", "querystring/height must be integer"],
      ["quality=10", "querystring/quality must be >= 20"],
      ["quality=101", "querystring/quality must be <= 100"],
      ["resize=stretch", "querystring/resize must be equal to one of the allowed values"],
      ["format=gif", "querystring/format must be equal to one of the allowed values"],
    ];
    for (const [query, message] of cases) {
      const res = await render(avatar, query);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toMatchObject({ statusCode: "400", message });
    }
    const signed = await clients.member.storage
      .from("avatars")
      .createSignedUrl(avatar, 60, { transform: { quality: 5 } });
    expect(signed.error?.message).toBe("body/transform/quality must be >= 20");
  });

  it("sizes past 2,500 are clamped, as hosted clamps them", async () => {
    const res = await render(avatar, "width=9000&format=origin");
    expect(res.headers.get("x-transformations")).toBe("width:2500,resizing_type:fill");
    expect(await imageSize(await res.arrayBuffer())).toMatchObject({ width: 2500 });
  });

  it("a missing object is hosted's NoSuchKey", async () => {
    const res = await render(`${ids.member}/nothing.png`, "width=10");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ statusCode: "404", code: "NoSuchKey" });
  });
});

describe("awkward images", () => {
  const download = (objectPath: string, transform: Record<string, unknown> = { width: 64 }) =>
    clients.member.storage.from("attachments").download(objectPath, { transform });

  it("a decompression bomb (12 KB, 100 megapixels) is refused before it is decoded", async () => {
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(20_000);
    const objectPath = await attach("member", "bomb.png", bomb, "image/png");
    const { error } = await download(objectPath);
    expect(error).toMatchObject({ statusCode: "400" });
    const res = await fetch(`${stack.url}/storage/v1/render/image/authenticated/attachments/${objectPath}?width=64`, {
      headers: {
        authorization: `Bearer ${await stack.keys.sign({ sub: ids.member, role: "authenticated" }, { expiresIn: 60 })}`,
      },
    });
    expect(await res.json()).toMatchObject({ message: "The source image resolution is too large to process" });
  });

  it("a text file named like an image, and a truncated JPEG, get hosted's 'invalid or unsupported' answer", async () => {
    const fake = await attach("member", "fake.png", Buffer.from("<svg onload=alert(1)>not really</svg>"), "image/png");
    const whole = await jpeg(400, 300);
    const cut = await attach("member", "cut.jpg", whole.subarray(0, whole.length / 2));
    for (const objectPath of [fake, cut]) {
      const res = await fetch(`${stack.url}/storage/v1/render/image/authenticated/attachments/${objectPath}?width=64`, {
        headers: {
          authorization: `Bearer ${await stack.keys.sign({ sub: ids.member, role: "authenticated" }, { expiresIn: 60 })}`,
        },
      });
      expect(res.status, objectPath).toBe(400);
      expect(await res.json(), objectPath).toMatchObject({
        statusCode: "400",
        message: "The source image is invalid or unsupported for rendering",
      });
    }
  });

  it("a file over 25 MB is refused with hosted's message", async () => {
    // over the attachments bucket's own 10 MB: a bucket with only the global 50 MB limit
    const name = "huge.jpg";
    const admin = stack.adminClient();
    await admin.storage.createBucket("big", { public: false });
    await admin.storage.from("big").upload(name, new Blob([new Uint8Array(26 * 1024 * 1024)], { type: "image/jpeg" }));
    const { data } = await admin.storage.from("big").createSignedUrl(name, 60, { transform: { width: 64 } });
    const res = await fetch(data!.signedUrl);
    expect(await res.json()).toMatchObject({ message: "The source image file is too large to process" });
  });

  it("EXIF orientation is applied, CMYK becomes sRGB, an animated GIF gives its first frame", async () => {
    const turned = await download(await attach("member", "turned.jpg", await orientedJpeg()), {
      height: 100,
      format: "origin",
    });
    expect(await imageSize(await turned.data!.arrayBuffer())).toMatchObject({ width: 50, height: 100 });
    const cmyk = await download(await attach("member", "cmyk.jpg", await cmykJpeg()), { width: 60 });
    expect(await imageSize(await cmyk.data!.arrayBuffer())).toMatchObject({ width: 60, space: "srgb", format: "jpeg" });
    const gif = await download(await attach("member", "moving.gif", await animatedGif(), "image/gif"), { width: 20 });
    expect(gif.data?.type).toBe("image/gif");
    expect(await imageSize(await gif.data!.arrayBuffer())).toMatchObject({ width: 20, height: 15, pages: 1 });
  });
});

describe("bounded renders (issue 35, M2)", () => {
  const publicRender = (s: TestStack, objectPath: string, query: string, init?: RequestInit) =>
    fetch(`${s.url}/storage/v1/render/image/public/avatars/${objectPath}?${query}`, init);
  const upload = async (objectPath: string, bytes: Buffer, type: string) => {
    const { error } = await clients.member.storage
      .from("avatars")
      .upload(objectPath, new Blob([new Uint8Array(bytes)], { type }), { contentType: type, upsert: true });
    expect(error).toBeNull();
  };

  it("an SVG declared as image/png is stored (the bucket checks the declared type) but never rendered", async () => {
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="f"><feTurbulence baseFrequency="0.9" numOctaves="3"/><feGaussianBlur stdDeviation="40"/></filter><rect width="2000" height="2000" filter="url(#f)"/></svg>`,
    );
    const objectPath = `${ids.member}/medium.png`;
    await upload(objectPath, svg, "image/png");
    for (const query of ["width=16", "width=1563", "format=avif&quality=22"]) {
      const started = performance.now();
      const res = await publicRender(stack, objectPath, query);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toMatchObject({
        statusCode: "400",
        message: "The source image is invalid or unsupported for rendering",
      });
      expect(performance.now() - started, query).toBeLessThan(2000);
    }
  });

  it("in a bucket with MIME rules, a raster file whose bytes are a type the bucket refuses is refused as an upload of that type would be", async () => {
    const admin = stack.adminClient();
    await admin.storage.createBucket("pngs-only", { public: true, allowedMimeTypes: ["image/png"] });
    const gif = await animatedGif();
    const { error } = await admin.storage
      .from("pngs-only")
      .upload("a.png", new Blob([new Uint8Array(gif)], { type: "image/png" }), { contentType: "image/png" });
    expect(error).toBeNull();
    const res = await fetch(`${stack.url}/storage/v1/render/image/public/pngs-only/a.png?width=10`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      statusCode: "415",
      code: "InvalidMimeType",
      message: "mime type image/gif is not supported",
    });
    // a PNG there renders
    await admin.storage
      .from("pngs-only")
      .upload("b.png", new Blob([new Uint8Array(await png(40, 20))], { type: "image/png" }), {
        contentType: "image/png",
      });
    const ok = await fetch(`${stack.url}/storage/v1/render/image/public/pngs-only/b.png?width=10&format=origin`);
    expect(ok.status).toBe(200);
  });

  it("a result never has more than 2,500 × 2,500 pixels: a large picture converted without a size is scaled down", async () => {
    const objectPath = `${ids.member}/wide.png`;
    await upload(objectPath, await png(5000, 2000), "image/png");
    const res = await publicRender(stack, objectPath, "format=webp");
    expect(res.status).toBe(200);
    const size = await imageSize(await res.arrayBuffer());
    expect(size.width! * size.height!).toBeLessThanOrEqual(2500 * 2500);
    expect(size.width! / size.height!).toBeCloseTo(2.5, 1);
    // a very tall one asked 2,500 wide
    const tall = `${ids.member}/tall.png`;
    await upload(tall, await png(1000, 20_000), "image/png");
    const narrow = await publicRender(stack, tall, "width=2500&format=origin");
    const s2 = await imageSize(await narrow.arrayBuffer());
    expect(s2.width! * s2.height!).toBeLessThanOrEqual(2500 * 2500);
  });

  describe("with a short deadline", () => {
    let quick: TestStack;
    let slowPath: string;
    beforeAll(async () => {
      quick = await startTestStack({ storage: { renderDeadlineMs: 300 } });
      const admin = quick.adminClient();
      await admin.storage.createBucket("big-pictures", { public: true });
      slowPath = "noise.jpg";
      const { error } = await admin.storage
        .from("big-pictures")
        .upload(slowPath, new Blob([new Uint8Array(await jpeg(4000, 4000))], { type: "image/jpeg" }));
      expect(error).toBeNull();
    }, 120_000);
    afterAll(() => quick?.close());
    const slow = (init?: RequestInit) =>
      fetch(`${quick.url}/storage/v1/render/image/public/big-pictures/${slowPath}?format=avif&quality=22`, init);

    it("a render past its deadline is stopped, and answers at once", async () => {
      const { renderCounts } = await import("../../stack/storage/render-pool.ts");
      const before = renderCounts().stopped;
      const started = performance.now();
      const res = await slow();
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ statusCode: "504", message: "The image took too long to render" });
      expect(performance.now() - started).toBeLessThan(5000);
      expect(renderCounts()).toMatchObject({ busy: 0, stopped: before + 1 });
    });

    it("a render whose client went away is stopped", async () => {
      const { renderCounts } = await import("../../stack/storage/render-pool.ts");
      // a deadline long enough that only the client's leaving can stop it
      quick.config.storage.renderDeadlineMs = 60_000;
      const before = renderCounts().stopped;
      const leaving = new AbortController();
      const res = slow({ signal: leaving.signal }).catch((e: unknown) => e);
      const deadline = performance.now() + 5000;
      while (renderCounts().busy === 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(renderCounts().busy).toBe(1);
      leaving.abort();
      await res;
      while (renderCounts().busy > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(renderCounts()).toMatchObject({ busy: 0, stopped: before + 1 });
    });
  });
});
