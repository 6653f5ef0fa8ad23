import { describe, expect, it } from "vitest";
import { parseBucketSeeds } from "./seed-objects.ts";

describe("config.toml [storage.buckets.<name>] objects_path", () => {
  it("reads each bucket's objects_path, and nothing from other tables", () => {
    const toml = `
project_id = "x"
[functions.a]
objects_path = "./not-a-bucket"
[storage.buckets.attachments]
public = false
objects_path = "./seed/storage/attachments" # the files
[storage.buckets."odd name"]
objects_path = "./odd"
[storage.buckets.nothing]
public = true
`;
    expect(parseBucketSeeds(toml)).toEqual([
      { bucket: "attachments", objectsPath: "./seed/storage/attachments" },
      { bucket: "odd name", objectsPath: "./odd" },
    ]);
  });
});
