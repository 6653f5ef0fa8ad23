/**
 * Files uploaded straight into a folder with the Storage API (issue 22 L3,
 * migration …_storage_folder_limits.sql): a task's folder holds at most 20
 * objects and a person's avatar folder 10, whether or not a row describes
 * them; objects left behind (no row after ten minutes) are queued for removal
 * and stop counting; deleting a task or a profile queues its whole folder.
 * Each call is made with the person's own token through supabase-js.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, makePerson, makeTeam, type Person } from "../support/realtime.ts";
import { startTestStack, type TestStack } from "../support/stack.ts";

let stack: TestStack;
let member: Person;
let project: string;
const txt = (s: string) => new Blob([s], { type: "text/plain" });
const png = () => new Blob([new Uint8Array(64)], { type: "image/png" });

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await makePerson(stack, "owner");
  member = await makePerson(stack, "member");
  ({ project } = await makeTeam(stack, [
    [owner, "owner"],
    [member, "member"],
  ]));
});
afterAll(() => stack?.close());

async function newTask(): Promise<string> {
  const { rows } = await stack.db.query<{ id: string }>(
    "insert into tasks (project_id, title) values ($1, 'Files') returning id",
    [project],
  );
  return rows[0].id;
}

async function objectsIn(bucket: string, folder: string): Promise<number> {
  const { rows } = await stack.db.query("select 1 from storage.objects where bucket_id = $1 and name like $2", [
    bucket,
    `${folder}/%`,
  ]);
  return rows.length;
}

async function queued(bucket: string, folder: string): Promise<string[]> {
  const { rows } = await stack.db.query<{ object_path: string }>(
    "select object_path from storage_cleanup where bucket_id = $1 and object_path like $2 order by 1",
    [bucket, `${folder}/%`],
  );
  return rows.map((r) => r.object_path);
}

const ageObjects = (bucket: string, folder: string) =>
  stack.db.query(
    "update storage.objects set created_at = now() - interval '11 minutes' where bucket_id = $1 and name like $2",
    [bucket, `${folder}/%`],
  );

describe("a task's folder", () => {
  it("takes 20 files without rows, then refuses the 21st (and a move into it)", async () => {
    const task = await newTask();
    const bucket = member.client.storage.from("attachments");
    for (let i = 0; i < 20; i++) expect((await bucket.upload(`${task}/f${i}.txt`, txt("x"))).error).toBeNull();
    const refused = await bucket.upload(`${task}/f20.txt`, txt("x"));
    expect(refused.error).toMatchObject({ statusCode: "403", message: "A task can have at most 20 attachments." });
    expect(await objectsIn("attachments", task)).toBe(20);
    // nor can a file come in from another task's folder
    const other = await newTask();
    await bucket.upload(`${other}/outside.txt`, txt("x"));
    expect((await bucket.move(`${other}/outside.txt`, `${task}/moved.txt`)).error).not.toBeNull();
    expect(await objectsIn("attachments", task)).toBe(20);
  });

  it("counts files with rows the same, and a removed attachment frees its place", async () => {
    const task = await newTask();
    const bucket = member.client.storage.from("attachments");
    for (let i = 0; i < 20; i++) {
      await bucket.upload(`${task}/a${i}.txt`, txt("x"));
      const { error } = await member.client.from("attachments").insert({
        task_id: task,
        object_path: `${task}/a${i}.txt`,
        file_name: `a${i}.txt`,
        size_bytes: 1,
      });
      expect(error).toBeNull();
    }
    expect((await bucket.upload(`${task}/extra.txt`, txt("x"))).error).not.toBeNull();
    await member.client.from("attachments").delete().eq("object_path", `${task}/a0.txt`);
    // the removed one is queued (the app server deletes it): it no longer counts
    expect((await bucket.upload(`${task}/extra.txt`, txt("x"))).error).toBeNull();
  });

  it("files left without a row for ten minutes are queued for removal and free their place", async () => {
    const task = await newTask();
    const bucket = member.client.storage.from("attachments");
    for (let i = 0; i < 20; i++) await bucket.upload(`${task}/left${i}.txt`, txt("x"));
    expect((await bucket.upload(`${task}/late.txt`, txt("x"))).error).not.toBeNull();
    await ageObjects("attachments", task);
    expect((await bucket.upload(`${task}/late.txt`, txt("x"))).error).toBeNull();
    expect(await queued("attachments", task)).toHaveLength(20);
  });

  it("a deleted task queues every file of its folder, with a row or without", async () => {
    const task = await newTask();
    const bucket = member.client.storage.from("attachments");
    await bucket.upload(`${task}/with-row.txt`, txt("x"));
    await member.client
      .from("attachments")
      .insert({ task_id: task, object_path: `${task}/with-row.txt`, file_name: "with-row.txt", size_bytes: 1 });
    await bucket.upload(`${task}/no-row.txt`, txt("x"));
    await stack.db.query("delete from tasks where id = $1", [task]);
    expect(await queued("attachments", task)).toEqual([`${task}/no-row.txt`, `${task}/with-row.txt`]);
  });
});

describe("a person's avatar folder", () => {
  it("takes 10 files, frees the ones left behind after ten minutes, and goes with the profile", async () => {
    const person = await makePerson(stack, "avatar");
    const client: SupabaseClient = clientFor(stack, person.token);
    const bucket = client.storage.from("avatars");
    for (let i = 0; i < 10; i++) expect((await bucket.upload(`${person.id}/a${i}.png`, png())).error).toBeNull();
    expect((await bucket.upload(`${person.id}/a10.png`, png())).error).toMatchObject({ statusCode: "403" });
    // writing one of them again is not one more
    expect((await bucket.upload(`${person.id}/a9.png`, png(), { upsert: true })).error).toBeNull();
    // the profile's own avatar is never "left behind", however old
    await client
      .from("profiles")
      .update({ avatar_path: `${person.id}/a0.png` })
      .eq("id", person.id);
    await ageObjects("avatars", person.id);
    expect((await bucket.upload(`${person.id}/a10.png`, png())).error).toBeNull();
    expect(await queued("avatars", person.id)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `${person.id}/a${i}.png`),
    );

    await stack.db.query("delete from auth.users where id = $1", [person.id]);
    expect(await queued("avatars", person.id)).toEqual(
      [0, 1, 10, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `${person.id}/a${i}.png`),
    );
  });
});
