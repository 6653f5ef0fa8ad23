import { expect, test } from "vitest";
import { sniffImage } from "./image-bytes.server";

// 3×2 images as Chromium's canvas encodes them (toDataURL; colour profiles left out), each checked to decode there
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAG0lEQVR4AWKyjr79HwRANBMDENjE3AGSDAwAAAAA//80pOXRAAAABklEQVQDALPqClX8PpKdAAAAAElFTkSuQmCC",
  "base64",
);
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAZEAEBAQEBAQAAAAAAAAAAAAABAgMAUXH/xAAVAQEBAAAAAAAAAAAAAAAAAAAFB//EABgRAAIDAAAAAAAAAAAAAAAAAAABAjEy/9oADAMBAAIRAxEAPwCY2202srbS9KJmBulSZCZPgAHgHOc6mQygJ2f/2Q==",
  "base64",
);
/** lossy, in the extended format (VP8X + VP8) */
const WEBP = Buffer.from(
  "UklGRmYAAABXRUJQVlA4WAoAAAAAAAAAAgAAAQAAVlA4IEgAAACwAQCdASoDAAIAAUAmJagCdLoABDAAAP7u3daFhdVyRD+4NmMBTff7kkx+X8nfe15c3/swRy/+pZ/9MEcv6w/9zY5xbIYAAAA=",
  "base64",
);
/** lossless (VP8L) */
const WEBP_LOSSLESS = Buffer.from("UklGRiIAAABXRUJQVlA4TBYAAAAvAkAAAA/wLdLvEJ9ke/6DByMQ0f8I", "base64");
/** 1×1 */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** the simple lossy format: the VP8 chunk of WEBP on its own */
function simpleLossy() {
  const vp8 = WEBP.subarray(WEBP.indexOf("VP8 "));
  const head = Buffer.from("RIFF\0\0\0\0WEBP", "latin1");
  head.writeUInt32LE(4 + vp8.length, 4);
  return Buffer.concat([head, vp8]);
}

test("PNG, JPEG, GIF and WebP (lossy, lossless, extended) are recognised with their size", () => {
  expect(sniffImage(PNG)).toEqual({ type: "image/png", width: 3, height: 2 });
  expect(sniffImage(JPEG)).toEqual({ type: "image/jpeg", width: 3, height: 2 });
  expect(sniffImage(GIF)).toEqual({ type: "image/gif", width: 1, height: 1 });
  expect(sniffImage(WEBP)).toEqual({ type: "image/webp", width: 3, height: 2 });
  expect(sniffImage(simpleLossy())).toEqual({ type: "image/webp", width: 3, height: 2 });
  expect(sniffImage(WEBP_LOSSLESS)).toEqual({ type: "image/webp", width: 3, height: 2 });
});

test("anything else is not an image: text, HTML, SVG, an empty file, zeros", () => {
  for (const text of ["hello", "<html><script>alert(1)</script>", '<svg xmlns="http://www.w3.org/2000/svg"/>', ""])
    expect(sniffImage(Buffer.from(text))).toBeNull();
  expect(sniffImage(Buffer.alloc(4096))).toBeNull();
});

test("a file with an image's first bytes but not the rest is not an image", () => {
  // cut short: the format's end is missing
  for (const image of [PNG, JPEG, GIF, WEBP]) expect(sniffImage(image.subarray(0, image.length - 10))).toBeNull();
  // a PNG signature followed by text; a PNG whose header was altered (its checksum no longer matches)
  expect(
    sniffImage(Buffer.concat([PNG.subarray(0, 8), Buffer.from("not really a picture at all, just words")])),
  ).toBeNull();
  const altered = Buffer.from(PNG);
  altered[17] ^= 0xff;
  expect(sniffImage(altered)).toBeNull();
  // a JPEG's start, then text; a GIF header with a zero size
  expect(sniffImage(Buffer.concat([JPEG.subarray(0, 3), Buffer.from("text after the marker")]))).toBeNull();
  const empty = Buffer.from(GIF);
  empty.writeUInt16LE(0, 6);
  expect(sniffImage(empty)).toBeNull();
});
