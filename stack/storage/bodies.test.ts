import { describe, expect, it } from "vitest";
import { expiresIn, listV2Query, newBucket, parseFileSize } from "./bodies.ts";
import { decodeCursor, encodeCursor } from "./list.ts";

describe("file size limits given as strings (hosted's parser)", () => {
  it("reads every unit hosted takes, in decimal units, any case", () => {
    expect(parseFileSize("20mb")).toBe(20_000_000);
    expect(parseFileSize("20MB")).toBe(20_000_000);
    expect(parseFileSize("1GB")).toBe(1_000_000_000);
    expect(parseFileSize("30KB")).toBe(30_000);
    expect(parseFileSize("3B")).toBe(3);
    expect(parseFileSize("1.5mb")).toBe(1_500_000);
  });

  it("rounds to three significant digits first, as hosted does", () => {
    expect(parseFileSize("1234kb")).toBe(1_230_000);
    expect(parseFileSize("1.2345MB")).toBe(1_230_000);
  });

  it("refuses what hosted refuses: spaces, binary units, no unit, negatives", () => {
    for (const bad of ["20 MB", "20MiB", "20", "-1MB", "1TB", "MB", "1.MB"]) {
      expect(() => parseFileSize(bad), bad).toThrow("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B");
    }
  });

  it("takes a number of bytes or null in a bucket body", () => {
    expect(newBucket({ name: "b", file_size_limit: 1024 }).fileSizeLimit).toBe(1024);
    expect(newBucket({ name: "b", file_size_limit: null }).fileSizeLimit).toBeNull();
    expect(newBucket({ name: "b" }).fileSizeLimit).toBeUndefined();
    expect(() => newBucket({ name: " b" })).toThrow("Bucket name invalid");
  });
});

describe("signed URL lifetimes", () => {
  it("takes whole seconds from 1 up to what a JWT's exp can hold, as hosted", () => {
    const now = Date.UTC(2026, 10, 26);
    expect(expiresIn(60, now)).toBe(60);
    expect(expiresIn("60", now)).toBe(60);
    expect(expiresIn(10 * 365 * 24 * 3600, now)).toBe(315_360_000);
    const max = Math.floor(Number.MAX_SAFE_INTEGER / 1000) - now / 1000;
    expect(expiresIn(max, now)).toBe(max);
    expect(() => expiresIn(max + 1, now)).toThrow("Invalid Parameter expiresIn");
    expect(() => expiresIn(0, now)).toThrow("body/expiresIn must be >= 1");
    expect(() => expiresIn(1.5, now)).toThrow("body/expiresIn must be integer");
    expect(() => expiresIn(undefined, now)).toThrow("required property 'expiresIn'");
  });
});

describe("list-v2", () => {
  it("reads hosted's body, with its defaults", () => {
    expect(listV2Query({})).toEqual({
      prefix: "",
      limit: 1000,
      cursor: null,
      withDelimiter: false,
      sortColumn: "name",
      sortOrder: "asc",
    });
    expect(listV2Query({ limit: 5000, with_delimiter: true, sortBy: { column: "created_at" } })).toMatchObject({
      limit: 1000,
      withDelimiter: true,
      sortColumn: "created_at",
      sortOrder: "asc",
    });
    expect(() => listV2Query({ sortBy: { column: "size" } })).toThrow("allowed values");
    expect(() => listV2Query({ limit: 0 })).toThrow("body/limit must be >= 1");
  });

  it("round-trips hosted's cursor and refuses a forged one", () => {
    const cursor = {
      startAfter: "a/b.txt",
      sortOrder: "desc",
      sortColumn: "created_at",
      sortColumnAfter: "2026-11-26T10:00:00.000Z",
    };
    const token = encodeCursor(cursor);
    expect(Buffer.from(token, "base64").toString()).toBe("l:a/b.txt\no:desc\nc:created_at\na:2026-11-26T10:00:00.000Z");
    expect(decodeCursor(token)).toEqual(cursor);
    expect(decodeCursor(encodeCursor({ startAfter: "x" }))).toEqual({ startAfter: "x", sortOrder: "asc" });
    expect(() => decodeCursor(Buffer.from("z:1").toString("base64"))).toThrow("continuation token");
    expect(() => decodeCursor(Buffer.from("l:x\na:yesterday").toString("base64"))).toThrow("continuation token");
  });
});
