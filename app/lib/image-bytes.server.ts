import zlib from "node:zlib";

/**
 * What an uploaded file's bytes are, whatever its name and declared type say
 * (a browser declares a type from the file's name: a text file renamed
 * `me.png` arrives as `image/png`). Only the four image formats the app
 * shows as pictures (avatars, image attachments) are recognised, and only
 * when the file is whole: the format's signature, a header with a width and
 * a height, and the format's end (PNG's IEND, JPEG's end-of-image marker,
 * GIF's trailer, WebP's RIFF length). No pixels are decoded (no image
 * library on the server); a file that passes has the structure every
 * decoder needs to start and finish.
 */
export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

/** The largest side accepted (Supabase Storage's image transformation takes up to 25 megapixels). */
const MAX_SIDE = 16_384;

export function sniffImage(bytes: Uint8Array): ImageInfo | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const info = png(b) ?? jpeg(b) ?? gif(b) ?? webp(b);
  if (!info || info.width < 1 || info.height < 1 || info.width > MAX_SIDE || info.height > MAX_SIDE) return null;
  return info;
}

/** Reads a File's bytes and sniffs them. */
export async function sniffImageFile(file: Blob): Promise<ImageInfo | null> {
  return sniffImage(new Uint8Array(await file.arrayBuffer()));
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

function png(b: Buffer): ImageInfo | null {
  if (b.length < 8 + 25 + 12 || !b.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  // the first chunk is IHDR (13 bytes of data), and its CRC must match
  if (b.readUInt32BE(8) !== 13 || b.toString("latin1", 12, 16) !== "IHDR") return null;
  if (zlib.crc32(b.subarray(12, 29)) !== b.readUInt32BE(29)) return null;
  if (!b.subarray(b.length - 12).equals(PNG_END)) return null;
  return { type: "image/png", width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function jpeg(b: Buffer): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let at = 2;
  let size: { width: number; height: number } | null = null;
  // walk the segments up to the start of scan; a frame header (SOFn) gives the size
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > b.length) return null;
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) {
      if (length < 8) return null;
      size = { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    if (marker === 0xda) {
      // the scan's data follows; the image ends with an end-of-image marker
      const end = b.lastIndexOf(Buffer.from([0xff, 0xd9]));
      return size && end > at ? { type: "image/jpeg", ...size } : null;
    }
    at += 2 + length;
  }
  return null;
}

function gif(b: Buffer): ImageInfo | null {
  if (b.length < 14) return null;
  const signature = b.toString("latin1", 0, 6);
  if (signature !== "GIF87a" && signature !== "GIF89a") return null;
  if (b[b.length - 1] !== 0x3b) return null; // the trailer
  return { type: "image/gif", width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function webp(b: Buffer): ImageInfo | null {
  if (b.length < 30 || b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WEBP") return null;
  if (b.readUInt32LE(4) + 8 > b.length) return null; // cut short
  const chunk = b.toString("latin1", 12, 16);
  const data = 20;
  if (chunk === "VP8 ") {
    // a key frame's start code, then 14-bit width and height
    if (b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) return null;
    return { type: "image/webp", width: b.readUInt16LE(data + 6) & 0x3fff, height: b.readUInt16LE(data + 8) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (b[data] !== 0x2f) return null;
    const bits = b.readUInt32LE(data + 1);
    return { type: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { type: "image/webp", width: b.readUIntLE(data + 4, 3) + 1, height: b.readUIntLE(data + 7, 3) + 1 };
  }
  return null;
}
