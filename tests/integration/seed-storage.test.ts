import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../support/stack.ts";

/**
 * `npm run dev` on a fresh clone (issue 28, "done when"): the stack seeds a
 * new database from supabase/seed.sql and then uploads the files
 * supabase/config.toml's `[storage.buckets.attachments] objects_path` names,
 * as `supabase start` does, so the seeded Markdown task's picture is a real
 * file a member can download and Storage can make a thumbnail of.
 */
const PICTURE = "d1000000-0000-4000-8000-000000000001/board-sketch.png";
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ skipMigrations: false, seedFile: path.resolve("supabase/seed.sql") });
});
afterAll(() => stack?.close());

describe("the demo seed's files", () => {
  it("the seeded task's picture is in the attachments bucket: the file for a member, a thumbnail from Storage", async () => {
    const member = stack.anonClient();
    const signIn = await member.auth.signInWithPassword({
      email: "member@teamboard.local",
      password: "teamboard-demo-1",
    });
    expect(signIn.error).toBeNull();

    const file = await member.storage.from("attachments").download(PICTURE);
    expect(file.error).toBeNull();
    const onDisk = fs.readFileSync(path.resolve("supabase/seed/storage/attachments", PICTURE));
    expect(Buffer.from(await file.data!.arrayBuffer())).toEqual(onDisk);

    const { data: row } = await member
      .from("attachments")
      .select("object_path, size_bytes")
      .eq("id", "e1000000-0000-4000-8000-000000000001")
      .single();
    expect(row).toEqual({ object_path: PICTURE, size_bytes: onDisk.length });

    const thumb = await member.storage
      .from("attachments")
      .download(PICTURE, { transform: { width: 96, height: 96, resize: "cover" } });
    expect(thumb.error).toBeNull();
    const meta = await sharp(Buffer.from(await thumb.data!.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([96, 96]);

    // and only for the team: someone signed in elsewhere gets nothing
    const stranger = stack.anonClient();
    const account = { email: "stranger@example.com", password: "a-long-password-1" };
    await stack.adminClient().auth.admin.createUser({ ...account, email_confirm: true });
    expect((await stranger.auth.signInWithPassword(account)).data.session).not.toBeNull();
    const refused = await stranger.storage.from("attachments").download(PICTURE);
    expect(refused.data).toBeNull();
  });
});
